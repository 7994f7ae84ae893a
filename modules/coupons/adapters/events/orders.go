// Package events subscribes the coupons module to other modules' events: order.created
// records the order's coupon uses (docs/decisions/0065).
package events

import (
	"context"
	"errors"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/coupons/api"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/event"
)

// OrderRecorder is the use case the subscriber calls.
type OrderRecorder interface {
	RecordOrder(ctx context.Context, o api.OrderCreated) error
}

// Subscriber turns order.created into coupon uses.
type Subscriber struct {
	app OrderRecorder
	log *zap.Logger
}

// NewSubscriber builds the subscriber.
func NewSubscriber(app OrderRecorder, log *zap.Logger) *Subscriber {
	return &Subscriber{app: app, log: log.Named("coupons.events")}
}

// Subscribe registers the handler.
func (s *Subscriber) Subscribe(bus event.Subscriber) {
	bus.Subscribe(api.EventOrderCreated, s.HandleOrderCreated)
}

// HandleOrderCreated records the order's coupon uses. A payload a retry cannot fix is
// logged and dropped; store errors are returned so the relay retries (the recording
// is idempotent per order).
func (s *Subscriber) HandleOrderCreated(ctx context.Context, e event.Event) error {
	var o api.OrderCreated
	if err := e.Decode(&o); err != nil || o.ID == "" {
		s.log.Warn("order event dropped: bad payload", zap.String("event_id", e.ID), zap.Error(err))
		return nil
	}
	err := s.app.RecordOrder(ctx, o)
	var ae *apperr.Error
	if errors.As(err, &ae) && ae.Kind == apperr.Invalid {
		s.log.Warn("order event dropped: bad payload", zap.String("event_id", e.ID), zap.Error(err))
		return nil
	}
	return err
}
