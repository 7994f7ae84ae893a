// Package events subscribes the webhooks module to every event ("*"), as the bus's
// consumer "webhooks": each committed event becomes deliveries to the endpoints
// subscribed to its type.
package events

import (
	"context"

	"github.com/gocommerce/commerce/platform/event"
)

// Fanout is the use case the subscriber calls.
type Fanout interface {
	HandleEvent(ctx context.Context, e event.Event) error
}

// Subscriber hands every event to the fan-out.
type Subscriber struct {
	app Fanout
}

// NewSubscriber builds the subscriber.
func NewSubscriber(app Fanout) *Subscriber { return &Subscriber{app: app} }

// Subscribe registers the handler for every event type. A store error is returned so
// the relay retries the event (the fan-out is idempotent per endpoint and event).
func (s *Subscriber) Subscribe(bus event.Subscriber) {
	bus.Subscribe("*", s.app.HandleEvent)
}
