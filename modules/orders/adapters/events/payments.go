// Package events subscribes the orders module to the payments module's events: they
// move the financial status of the order each payment names (docs/decisions/0072);
// shipment.created records the tracking of the order a shipment names (0157).
package events

import (
	"context"
	"strings"

	"github.com/shopspring/decimal"
	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/orders/adapters/paymentsapi"
	"github.com/gocommerce/commerce/modules/orders/app"
	"github.com/gocommerce/commerce/modules/orders/domain"
	payments "github.com/gocommerce/commerce/modules/payments/api"
	shipping "github.com/gocommerce/commerce/modules/shipping/api"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/modkit"
)

// Recorder is the use cases the subscriber calls.
type Recorder interface {
	RecordPayment(ctx context.Context, orderKey string, ev domain.PaymentEvent) error
	RecordPayments(ctx context.Context, facts []app.PaymentFact) error
	SyncPayment(ctx context.Context, paymentID string) error
	RecordRefund(ctx context.Context, orderKey string, f domain.RefundFact) error
	ShipmentRecorder
}

// Subscriber turns payment events into order transactions.
type Subscriber struct{ modkit.Reactor[Recorder] }

// NewSubscriber builds the subscriber.
func NewSubscriber(app Recorder, log *zap.Logger) *Subscriber {
	return &Subscriber{modkit.NewReactor(app, log, "orders.events")}
}

// Subscribe registers the handlers.
func (s *Subscriber) Subscribe(bus event.Subscriber) {
	// A relay batch of payment events is one read of the sales already recorded where
	// the bus takes batch handlers (decision 0231).
	if bs, ok := bus.(event.BatchSubscriber); ok {
		bs.SubscribeBatch(paymentEvents, s.HandlePayments)
	} else {
		bus.Subscribe(payments.EventPaymentCreated, s.HandlePaymentCreated)
		for _, t := range paymentEvents[1:] {
			bus.Subscribe(t, s.HandlePayment)
		}
	}
	bus.Subscribe(payments.EventRefundSucceeded, s.HandleRefund)
	bus.Subscribe(payments.EventRefundFailed, s.HandleRefund)
	bus.Subscribe(shipping.EventShipmentCreated, s.HandleShipmentCreated)
}

func (s *Subscriber) drop(e event.Event, err error) error {
	return s.Drop("payment event dropped: bad payload", e, err)
}

// HandlePaymentCreated reads the payment's state (an authorization raises no later
// event of its own) when it names an order.
func (s *Subscriber) HandlePaymentCreated(ctx context.Context, e event.Event) error {
	if p, ok := s.orderPayment(e); ok {
		return s.App.SyncPayment(ctx, p.PaymentID)
	}
	return nil
}

// orderPayment decodes a payment event; false when it names no order, or when the
// payload does not decode (logged and dropped).
func (s *Subscriber) orderPayment(e event.Event) (payments.PaymentEvent, bool) {
	p, ok := modkit.Decode[payments.PaymentEvent](s.Reactor, "payment event dropped: bad payload", e, nil)
	return p, ok && p.OrderID != "" && p.PaymentID != ""
}

// paymentEvents are the payment events an order records (payment.created first).
var paymentEvents = []string{payments.EventPaymentCreated, payments.EventPaymentSucceeded, payments.EventPaymentFailed, payments.EventPaymentCanceled}

// HandlePayments records a batch of payment events as HandlePaymentCreated and
// HandlePayment do, event by event, after one read of the sales already recorded.
func (s *Subscriber) HandlePayments(ctx context.Context, es []event.Event) error {
	facts := make([]app.PaymentFact, 0, len(es))
	for _, e := range es {
		if e.Type == payments.EventPaymentCreated {
			if p, ok := s.orderPayment(e); ok {
				facts = append(facts, app.PaymentFact{OrderKey: p.OrderID, Event: domain.PaymentEvent{PaymentID: p.PaymentID}, Sync: true})
			}
			continue
		}
		if orderKey, ev, ok := s.paymentFact(e); ok {
			facts = append(facts, app.PaymentFact{OrderKey: orderKey, Event: ev})
		}
	}
	if len(facts) == 0 {
		return nil
	}
	return s.App.RecordPayments(ctx, facts)
}

// HandlePayment records payment.succeeded (a sale, or the capture of an authorization),
// payment.failed (a failed attempt) and payment.canceled (a void).
func (s *Subscriber) HandlePayment(ctx context.Context, e event.Event) error {
	orderKey, ev, ok := s.paymentFact(e)
	if !ok {
		return nil
	}
	return s.App.RecordPayment(ctx, orderKey, ev)
}

// paymentFact decodes payment.succeeded, payment.failed or payment.canceled into the
// fact an order records; false for another event, one naming no order, or a bad
// payload (logged and dropped).
func (s *Subscriber) paymentFact(e event.Event) (string, domain.PaymentEvent, bool) {
	p, ok := s.orderPayment(e)
	if !ok {
		return "", domain.PaymentEvent{}, false
	}
	amount, err := decimal.NewFromString(p.Amount)
	if err != nil {
		_ = s.drop(e, err)
		return "", domain.PaymentEvent{}, false
	}
	ev := domain.PaymentEvent{PaymentID: p.PaymentID, Amount: amount, Currency: strings.ToUpper(p.Currency), Gateway: p.Gateway, ErrorCode: p.ErrorCode, Message: p.ErrorMessage}
	switch e.Type {
	case payments.EventPaymentSucceeded:
		ev.Kind = domain.KindSale
	case payments.EventPaymentFailed:
		ev.Kind, ev.Failed = domain.KindSale, true
	case payments.EventPaymentCanceled:
		ev.Kind = domain.KindVoid
	default:
		return "", domain.PaymentEvent{}, false
	}
	return p.OrderID, ev, true
}

// HandleRefund records refund.succeeded and refund.failed: the settling of one of the
// order's own refunds (its metadata names the order's transaction), or a refund made
// through the payments API or by the provider.
func (s *Subscriber) HandleRefund(ctx context.Context, e event.Event) error {
	var r payments.RefundEvent
	if err := e.Decode(&r); err != nil {
		return s.drop(e, err)
	}
	amount, err := decimal.NewFromString(r.Amount)
	if err != nil {
		return s.drop(e, err)
	}
	f := domain.RefundFact{
		GatewayRefundID: r.RefundID, PaymentID: r.PaymentID, Amount: amount, Currency: strings.ToUpper(r.Currency),
		Succeeded: e.Type == payments.EventRefundSucceeded, Failed: e.Type == payments.EventRefundFailed, Message: r.FailureReason,
	}
	orderKey, _ := r.Metadata[paymentsapi.MetaOrderID].(string)
	f.TransactionID, _ = r.Metadata[paymentsapi.MetaTransactionID].(string)
	return s.App.RecordRefund(ctx, orderKey, f)
}
