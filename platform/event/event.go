// Package event declares the event port use cases and subscribers depend on: the
// published fact, the publisher and the subscriber. platform/events implements it (the
// transactional outbox, the in-process bus and the relay), as platform/db implements
// platform/tx, so a module's app, domain, ports and api packages never pull the
// database drivers in (docs/architecture.md, Rules; decision 0115).
package event

import (
	"context"
	"encoding/json"
	"time"
)

// Event is a published fact. Data is the resource (the webhook body's data member).
type Event struct {
	ID          string          `json:"id"` // evt_<uuid>
	Type        string          `json:"type"`
	AggregateID string          `json:"-"`
	Data        json.RawMessage `json:"data"`
	CreatedAt   time.Time       `json:"created_at"`
}

// Decode unmarshals the event's data into v.
func (e Event) Decode(v any) error { return json.Unmarshal(e.Data, v) }

// Handler reacts to an event. Returning an error makes the relay retry the event.
type Handler func(ctx context.Context, e Event) error

// Publisher is what use cases depend on.
type Publisher interface {
	// Publish stores an event inside ctx's transaction, so it exists if and only if
	// the change that caused it commits.
	Publish(ctx context.Context, eventType, aggregateID string, data any) error
}

// Subscriber registers reactions.
type Subscriber interface {
	Subscribe(eventType string, h Handler)
}

// BatchHandler reacts to several events at once: the events of the types it was
// subscribed to that one relay batch holds, in the order they were published (one
// event when the bus dispatches a single one). Returning an error makes the relay retry
// every one of them, perhaps grouped differently: like a Handler, it must be
// idempotent. A consumer's batch handlers run after its per-event handlers of the same
// batch.
type BatchHandler func(ctx context.Context, es []Event) error

// BatchSubscriber is a Subscriber that also takes a batch handler: a reaction that
// costs one statement per batch instead of one per event (decision 0231). The bus's
// subscribers are; a subscriber that is not gets the events one by one.
type BatchSubscriber interface {
	Subscriber
	SubscribeBatch(eventTypes []string, h BatchHandler)
}

// FilteredSubscriber is a Subscriber that also takes a subscription to every event
// ("*") whose interest in a type can change and is known from memory: wants answers,
// on every publish, whether the consumer wants events of the type now (webhooks: an
// enabled endpoint subscribed to it). An event no consumer wants is stored already
// delivered (decision 0234); an event wanted is delivered to h whatever wants answers
// by then. wants must not block, and answers true when it does not know.
type FilteredSubscriber interface {
	Subscriber
	SubscribeFiltered(wants func(eventType string) bool, h Handler)
}
