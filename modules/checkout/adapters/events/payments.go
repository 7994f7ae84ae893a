// Package events subscribes checkout to the payments module's events: a payment of a
// checkout awaiting it (3D Secure, redirect) completes or undoes that checkout.
package events

import (
	"context"

	"go.uber.org/zap"

	payments "github.com/gocommerce/commerce/modules/payments/api"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/modkit"
)

// Settler is the use case the subscriber calls.
type Settler interface {
	PaymentSettled(ctx context.Context, paymentID string, paid bool) error
}

// Subscriber turns payment events into checkout completions.
type Subscriber struct{ modkit.Reactor[Settler] }

// NewSubscriber builds the subscriber.
func NewSubscriber(app Settler, log *zap.Logger) *Subscriber {
	return &Subscriber{modkit.NewReactor(app, log, "checkout.events")}
}

// Subscribe registers the handlers.
func (s *Subscriber) Subscribe(bus event.Subscriber) {
	for _, t := range []string{payments.EventPaymentSucceeded, payments.EventPaymentFailed, payments.EventPaymentCanceled} {
		bus.Subscribe(t, s.Handle)
	}
}

// Handle settles the checkout of the event's payment, if any.
func (s *Subscriber) Handle(ctx context.Context, e event.Event) error {
	p, ok := modkit.Decode[payments.PaymentEvent](s.Reactor, "payment event dropped: bad payload", e, nil)
	if !ok || p.PaymentID == "" || p.OrderID == "" {
		return nil
	}
	return s.App.PaymentSettled(ctx, p.PaymentID, e.Type == payments.EventPaymentSucceeded)
}
