// Package events feeds other modules' events to the tax module: order.created's tax
// lines are recorded for OSS returns and US nexus (docs/decisions/0135).
package events

import (
	"context"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/tax/api"
	"github.com/gocommerce/commerce/platform/event"
)

// OrderRecorder is the use case order.created feeds.
type OrderRecorder interface {
	RecordOrder(ctx context.Context, o api.OrderCreated) error
}

// Subscriber is the module's consumer of order.created.
type Subscriber struct {
	record func(context.Context, api.OrderCreated) error
	log    *zap.Logger
}

// NewSubscriber builds the subscriber on the recorder.
func NewSubscriber(r OrderRecorder, log *zap.Logger) *Subscriber {
	return &Subscriber{record: r.RecordOrder, log: log.Named("tax.events")}
}

// Subscribe registers HandleOrderCreated for order.created.
func (s *Subscriber) Subscribe(bus event.Subscriber) {
	bus.Subscribe(api.EventOrderCreated, s.HandleOrderCreated)
}

// HandleOrderCreated records the order's taxes. An undecodable payload is logged and
// dropped (a retry cannot fix it); a store error goes back to the relay, which retries
// (recording is idempotent per order id).
func (s *Subscriber) HandleOrderCreated(ctx context.Context, e event.Event) error {
	var o api.OrderCreated
	if err := e.Decode(&o); err != nil || o.ID == "" {
		s.log.Warn("order.created dropped", zap.String("event_id", e.ID), zap.Error(err))
		return nil
	}
	return s.record(ctx, o)
}
