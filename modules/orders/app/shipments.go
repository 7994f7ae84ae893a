package app

import (
	"context"
	"errors"

	"github.com/gocommerce/commerce/modules/orders/api"
	"github.com/gocommerce/commerce/modules/orders/domain"
)

// ShipmentFact is a shipment the shipping module created for an order
// (shipment.created): its tracking and the line items its packages carry.
type ShipmentFact struct {
	OrderID        string
	Company        string // the carrier's name, e.g. "UPS"
	TrackingNumber string
	TrackingURL    string
	NotifyCustomer bool
	Lines          []domain.FulfillmentLine // empty: every line item with something left
}

// errRecorded stops a change that finds the shipment's tracking already recorded.
var errRecorded = errors.New("orders: shipment already recorded")

// RecordShipment records a shipment's tracking on its order (docs/decisions/0157):
// a fulfillment of the shipment's line items (all that is left when it names none)
// with its tracking company, number and URL, publishing order.fulfillment_created and
// order.updated as CreateFulfillment does. When nothing is left to fulfill, the
// tracking goes on the latest open fulfillment that has none (one made by hand before
// the label): order.fulfillment_updated. A tracking number the order already shows is
// not recorded twice (the event may come again).
func (s *Service) RecordShipment(ctx context.Context, fact ShipmentFact) error {
	t := domain.Tracking{Number: &fact.TrackingNumber, Company: &fact.Company, URL: &fact.TrackingURL, NotifyCustomer: &fact.NotifyCustomer}
	var f *domain.Fulfillment
	created := false
	_, err := s.change(ctx, fact.OrderID, func(_ context.Context, o *domain.Order) error {
		for _, x := range o.Fulfillments {
			if x.Status != domain.FulfillmentCancelled && x.TrackingNumber == fact.TrackingNumber {
				return errRecorded
			}
		}
		var err error
		f, err = o.Fulfill(s.newID(), "", fact.Lines, t, s.clock.Now())
		if created = err == nil; created || !errors.Is(err, domain.ErrInvalidQuantity) {
			return err
		}
		if open := untracked(o); open != nil {
			f, err = o.UpdateTracking(open.ID, t, s.clock.Now())
		}
		return err
	}, func(ctx context.Context, o *domain.Order) error {
		if created {
			return s.publishFulfillment(ctx, api.EventOrderFulfillmentCreated, o, f, true)
		}
		return s.publishFulfillment(ctx, api.EventOrderFulfillmentUpdated, o, f, false)
	})
	if errors.Is(err, errRecorded) {
		return nil
	}
	return err
}

// untracked is the latest fulfillment that is not cancelled and has no tracking
// number, or nil.
func untracked(o *domain.Order) *domain.Fulfillment {
	for i := len(o.Fulfillments) - 1; i >= 0; i-- {
		if f := o.Fulfillments[i]; f.Status != domain.FulfillmentCancelled && f.TrackingNumber == "" {
			return f
		}
	}
	return nil
}
