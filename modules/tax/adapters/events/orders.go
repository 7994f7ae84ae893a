// Package events feeds other modules' events to the tax module: order.created's tax
// lines are recorded for OSS returns and US nexus (docs/decisions/0135).
package events

import (
	"context"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/tax/api"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/modkit"
)

// OrderRecorder is the use case order.created feeds.
type OrderRecorder interface {
	RecordOrder(ctx context.Context, o api.OrderCreated) error
}

// Subscriber is the module's consumer of order.created.
type Subscriber struct{ modkit.Reactor[OrderRecorder] }

// NewSubscriber builds the subscriber on the recorder.
func NewSubscriber(r OrderRecorder, log *zap.Logger) *Subscriber {
	return &Subscriber{modkit.NewReactor(r, log, "tax.events")}
}

// Subscribe registers HandleOrderCreated for order.created.
func (s *Subscriber) Subscribe(bus event.Subscriber) {
	bus.Subscribe(api.EventOrderCreated, s.HandleOrderCreated)
}

// HandleOrderCreated records the order's taxes. An undecodable payload is logged and
// dropped (a retry cannot fix it); a store error goes back to the relay, which retries
// (recording is idempotent per order id).
func (s *Subscriber) HandleOrderCreated(ctx context.Context, e event.Event) error {
	o, ok := modkit.Decode(s.Reactor, "order.created dropped", e, func(o api.OrderCreated) bool { return o.ID != "" })
	if !ok {
		return nil
	}
	return s.App.RecordOrder(ctx, o)
}
