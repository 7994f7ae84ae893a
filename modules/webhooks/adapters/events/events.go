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
	// Wants reports, from memory, whether an endpoint may want events of the type.
	Wants(eventType string) bool
}

// Subscriber hands every event to the fan-out.
type Subscriber struct {
	app Fanout
}

// NewSubscriber builds the subscriber.
func NewSubscriber(app Fanout) *Subscriber { return &Subscriber{app: app} }

// Subscribe registers the handler for every event type. A store error is returned so
// the relay retries the event (the fan-out is idempotent per endpoint and event).
// Where the bus filters, events of types no enabled endpoint wants are stored already
// delivered: the relay never claims them (decision 0234).
func (s *Subscriber) Subscribe(bus event.Subscriber) {
	if f, ok := bus.(event.FilteredSubscriber); ok {
		f.SubscribeFiltered(s.app.Wants, s.app.HandleEvent)
		return
	}
	bus.Subscribe("*", s.app.HandleEvent)
}
