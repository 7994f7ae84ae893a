// Package events subscribes the payments module to other modules' events: a customer's
// erasure or anonymization removes the customer's saved payment methods
// (docs/decisions/0097).
package events

import (
	"context"

	"go.uber.org/zap"

	customers "github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/modkit"
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
	modkit.Reactor[MethodForgetter]
}

// NewSubscriber builds the subscriber.
func NewSubscriber(app MethodForgetter, log *zap.Logger) *Subscriber {
	return &Subscriber{modkit.NewReactor(app, log, "payments.events")}
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
	type customer struct {
		ID string `json:"id"`
	}
	data, ok := modkit.Decode(s.Reactor, "customer event dropped: bad payload", e, func(c customer) bool { return c.ID != "" })
	if !ok {
		return nil
	}
	n, err := s.App.ForgetCustomerMethods(ctx, data.ID)
	if n > 0 {
		s.Log.Info("saved payment methods of a removed customer deleted", zap.String("customer_id", data.ID), zap.String("event", e.Type), zap.Int("methods", n))
	}
	return err
}
