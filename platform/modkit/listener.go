package modkit

import (
	"context"

	"github.com/gocommerce/commerce/platform/event"
)

// Listener is a module's events adapter when it reacts to one event type with one use
// case, as Sweep is a jobs adapter: Handle decodes the payload into a T, drops (logs
// under Dropped, answers nil) one that does not decode or that Valid (when set)
// refuses, and hands the rest to the use case (App); an error the use case answers goes
// back to the relay, which retries, unless Final (when set) says no retry can fix it:
// that event is dropped too. A module's events package declares it for its payload:
//
//	type Subscriber = modkit.Listener[api.OrderCreated]
//
//	func NewSubscriber(app OrderRecorder, log *zap.Logger) *Subscriber {
//		return &Subscriber{Reactor: modkit.NewReactor(app.RecordOrder, log, "widgets.events"),
//			Type: api.EventOrderCreated, Dropped: "order.created dropped"}
//	}
type Listener[T any] struct {
	Reactor[func(ctx context.Context, data T) error]
	Type    string           // the event type
	Dropped string           // the log message of a dropped event
	Valid   func(T) bool     // nil: every payload that decodes is handled
	Final   func(error) bool // nil: every error of the use case is retried
}

// Subscribe registers Handle for the event type. A nil Listener (a module built
// without its subscriber) may be asked for its Subscribe method value.
func (l *Listener[T]) Subscribe(bus event.Subscriber) { bus.Subscribe(l.Type, l.Handle) }

// Handle runs the use case on one event.
func (l *Listener[T]) Handle(ctx context.Context, e event.Event) error {
	data, ok := Decode(l.Reactor, l.Dropped, e, l.Valid)
	if !ok {
		return nil
	}
	err := l.App(ctx, data)
	if err != nil && l.Final != nil && l.Final(err) {
		return l.Drop(l.Dropped, e, err)
	}
	return err
}
