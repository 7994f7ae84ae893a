// Package events subscribes checkout to the payments module's events: a payment of a
// checkout awaiting it (3D Secure, redirect) completes or undoes that checkout.
package events

import (
	"context"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/checkout/app"
	payments "github.com/gocommerce/commerce/modules/payments/api"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/modkit"
)

// Settler is the use case the subscriber calls.
type Settler interface {
	PaymentSettled(ctx context.Context, paymentID string, paid bool) error
	PaymentsSettled(ctx context.Context, settled []app.Settlement) error
}

// Subscriber turns payment events into checkout completions.
type Subscriber struct{ modkit.Reactor[Settler] }

// NewSubscriber builds the subscriber.
func NewSubscriber(app Settler, log *zap.Logger) *Subscriber {
	return &Subscriber{modkit.NewReactor(app, log, "checkout.events")}
}

// settling are the payment events that settle a checkout awaiting its payment.
var settling = []string{payments.EventPaymentSucceeded, payments.EventPaymentFailed, payments.EventPaymentCanceled}

// Subscribe registers the handlers: a batch handler where the bus takes one (one
// read of the awaiting sessions per relay batch, decision 0231), else one per event.
func (s *Subscriber) Subscribe(bus event.Subscriber) {
	if bs, ok := bus.(event.BatchSubscriber); ok {
		bs.SubscribeBatch(settling, s.HandleBatch)
		return
	}
	for _, t := range settling {
		bus.Subscribe(t, s.Handle)
	}
}

// settlement decodes a payment event naming an order; false otherwise (an undecodable
// payload is logged and dropped).
func (s *Subscriber) settlement(e event.Event) (app.Settlement, bool) {
	p, ok := modkit.Decode[payments.PaymentEvent](s.Reactor, "payment event dropped: bad payload", e, nil)
	if !ok || p.PaymentID == "" || p.OrderID == "" {
		return app.Settlement{}, false
	}
	return app.Settlement{PaymentID: p.PaymentID, Paid: e.Type == payments.EventPaymentSucceeded}, true
}

// Handle settles the checkout of the event's payment, if any.
func (s *Subscriber) Handle(ctx context.Context, e event.Event) error {
	st, ok := s.settlement(e)
	if !ok {
		return nil
	}
	return s.App.PaymentSettled(ctx, st.PaymentID, st.Paid)
}

// HandleBatch settles the checkouts of a batch's payments, if any.
func (s *Subscriber) HandleBatch(ctx context.Context, es []event.Event) error {
	var settled []app.Settlement
	for _, e := range es {
		if st, ok := s.settlement(e); ok {
			settled = append(settled, st)
		}
	}
	if len(settled) == 0 {
		return nil
	}
	return s.App.PaymentsSettled(ctx, settled)
}
