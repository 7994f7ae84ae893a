// Package events subscribes checkout to the payments module's events: a payment of a
// checkout awaiting it (3D Secure, redirect) completes or undoes that checkout.
package events

import (
	"context"

	"go.uber.org/zap"

	payments "github.com/gocommerce/commerce/modules/payments/api"
	"github.com/gocommerce/commerce/platform/event"
)

// Settler is the use case the subscriber calls.
type Settler interface {
	PaymentSettled(ctx context.Context, paymentID string, paid bool) error
}

// Subscriber turns payment events into checkout completions.
type Subscriber struct {
	app Settler
	log *zap.Logger
}

// NewSubscriber builds the subscriber.
func NewSubscriber(app Settler, log *zap.Logger) *Subscriber {
	return &Subscriber{app: app, log: log.Named("checkout.events")}
}

// Subscribe registers the handlers.
func (s *Subscriber) Subscribe(bus event.Subscriber) {
	bus.Subscribe(payments.EventPaymentSucceeded, s.Handle)
	bus.Subscribe(payments.EventPaymentFailed, s.Handle)
	bus.Subscribe(payments.EventPaymentCanceled, s.Handle)
}

// Handle settles the checkout of the event's payment, if any.
func (s *Subscriber) Handle(ctx context.Context, e event.Event) error {
	var p payments.PaymentEvent
	if err := e.Decode(&p); err != nil {
		s.log.Warn("payment event dropped: bad payload", zap.String("event_id", e.ID), zap.Error(err))
		return nil
	}
	if p.PaymentID == "" || p.OrderID == "" {
		return nil
	}
	return s.app.PaymentSettled(ctx, p.PaymentID, e.Type == payments.EventPaymentSucceeded)
}
