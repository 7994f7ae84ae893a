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
	"github.com/gocommerce/commerce/platform/modkit"
)

// OrderRecorder is the use case the subscriber calls.
type OrderRecorder interface {
	RecordOrder(ctx context.Context, o api.OrderCreated) error
}

// Subscriber turns order.created into coupon uses.
type Subscriber struct{ modkit.Reactor[OrderRecorder] }

// NewSubscriber builds the subscriber.
func NewSubscriber(app OrderRecorder, log *zap.Logger) *Subscriber {
	return &Subscriber{modkit.NewReactor(app, log, "coupons.events")}
}

// Subscribe registers the handler.
func (s *Subscriber) Subscribe(bus event.Subscriber) {
	bus.Subscribe(api.EventOrderCreated, s.HandleOrderCreated)
}

// HandleOrderCreated records the order's coupon uses. A payload a retry cannot fix is
// logged and dropped; store errors are returned so the relay retries (the recording
// is idempotent per order).
func (s *Subscriber) HandleOrderCreated(ctx context.Context, e event.Event) error {
	const dropped = "order event dropped: bad payload"
	o, ok := modkit.Decode(s.Reactor, dropped, e, func(o api.OrderCreated) bool { return o.ID != "" })
	if !ok {
		return nil
	}
	err := s.App.RecordOrder(ctx, o)
	var ae *apperr.Error
	if errors.As(err, &ae) && ae.Kind == apperr.Invalid {
		return s.Drop(dropped, e, err)
	}
	return err
}
