// Package events subscribes the payments module to other modules' events: a customer's
// erasure or anonymization removes the customer's saved payment methods
// (docs/decisions/0097).
package events

import (
	"context"

	"go.uber.org/zap"

	customers "github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/platform/event"
)

// CustomerEventTypes are the customer events after which the customer's saved methods
// go: both carry the customer's id as data.id.
var CustomerEventTypes = []string{customers.EventCustomerDeleted, customers.EventCustomerAnonymized}

// MethodForgetter is the use case the subscriber calls.
type MethodForgetter interface {
	ForgetCustomerMethods(ctx context.Context, customerID string) (int, error)
}

// Subscriber turns customer.deleted and customer.anonymized into ForgetCustomerMethods.
type Subscriber struct {
	app MethodForgetter
	log *zap.Logger
}

// NewSubscriber builds the subscriber.
func NewSubscriber(app MethodForgetter, log *zap.Logger) *Subscriber {
	return &Subscriber{app: app, log: log.Named("payments.events")}
}

// Subscribe registers the handlers.
func (s *Subscriber) Subscribe(bus event.Subscriber) {
	for _, t := range CustomerEventTypes {
		bus.Subscribe(t, s.HandleCustomerGone)
	}
}

// HandleCustomerGone removes the customer's saved methods. A payload without an id is
// logged and dropped (a retry cannot fix it); store errors are returned so the relay
// retries.
func (s *Subscriber) HandleCustomerGone(ctx context.Context, e event.Event) error {
	var data struct {
		ID string `json:"id"`
	}
	if err := e.Decode(&data); err != nil || data.ID == "" {
		s.log.Warn("customer event dropped: bad payload", zap.String("event_id", e.ID), zap.String("type", e.Type), zap.Error(err))
		return nil
	}
	n, err := s.app.ForgetCustomerMethods(ctx, data.ID)
	if n > 0 {
		s.log.Info("saved payment methods of a removed customer deleted", zap.String("customer_id", data.ID), zap.String("event", e.Type), zap.Int("methods", n))
	}
	return err
}
