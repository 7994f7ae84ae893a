package events

import (
	"context"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/orders/app"
	"github.com/gocommerce/commerce/modules/orders/domain"
	shipping "github.com/gocommerce/commerce/modules/shipping/api"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/event"
)

// ShipmentRecorder is the use case shipment.created calls.
type ShipmentRecorder interface {
	RecordShipment(ctx context.Context, fact app.ShipmentFact) error
}

// carrierNames are the tracking companies of the shipping module's carrier codes.
var carrierNames = map[string]string{"ups": "UPS", "fedex": "FedEx", "usps": "USPS", "dhl": "DHL Express"}

// HandleShipmentCreated records a shipment's tracking on the order it names
// (docs/decisions/0154, 0157). An order the change cannot apply to (cancelled, closed,
// gone, nothing left to ship) is logged and the event dropped: a retry would not help.
func (s *Subscriber) HandleShipmentCreated(ctx context.Context, e event.Event) error {
	var p shipping.ShipmentEvent
	if err := e.Decode(&p); err != nil {
		return s.drop(e, err)
	}
	sh := p.Shipment
	if sh.OrderID == nil || *sh.OrderID == "" || sh.TrackingNumber == "" {
		return nil
	}
	company := carrierNames[sh.Carrier]
	if company == "" {
		company = sh.Carrier
	}
	fact := app.ShipmentFact{OrderID: *sh.OrderID, Company: company, TrackingNumber: sh.TrackingNumber,
		TrackingURL: sh.TrackingURL, NotifyCustomer: sh.NotifyCustomer}
	for _, pkg := range sh.Packages {
		for _, it := range pkg.Items {
			fact.Lines = append(fact.Lines, domain.FulfillmentLine{LineItemID: it.LineItemID, Quantity: it.Quantity})
		}
	}
	err := s.App.RecordShipment(ctx, fact)
	if _, ok := apperr.As(err); ok {
		s.Log.Warn("shipment not recorded on its order", zap.String("event_id", e.ID), zap.String("order_id", fact.OrderID),
			zap.String("shipment_id", sh.ID), zap.Error(err))
		return nil
	}
	return err
}
