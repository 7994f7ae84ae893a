// Package events subscribes the tax module to order.created: the order's tax lines are
// recorded for OSS returns and US nexus.
package events

import (
	"context"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/tax/api"
	"github.com/gocommerce/commerce/platform/event"
)

// OrderRecorder is the use case the subscriber calls.
type OrderRecorder interface {
	RecordOrder(ctx context.Context, o api.OrderCreated) error
}

// Subscriber turns order.created into tax records.
type Subscriber struct {
	app OrderRecorder
	log *zap.Logger
}

// NewSubscriber builds the subscriber.
func NewSubscriber(app OrderRecorder, log *zap.Logger) *Subscriber {
	return &Subscriber{app: app, log: log.Named("tax.events")}
}

// Subscribe registers the handler.
func (s *Subscriber) Subscribe(bus event.Subscriber) {
	bus.Subscribe(api.EventOrderCreated, s.HandleOrderCreated)
}

// HandleOrderCreated records the order's taxes. An undecodable payload is logged and
// dropped; store errors go back to the relay, which retries (recording is idempotent
// per order id).
func (s *Subscriber) HandleOrderCreated(ctx context.Context, e event.Event) error {
	var o api.OrderCreated
	if err := e.Decode(&o); err != nil || o.ID == "" {
		s.log.Warn("order.created dropped", zap.String("event_id", e.ID), zap.Error(err))
		return nil
	}
	return s.app.RecordOrder(ctx, o)
}
