// Package events subscribes the coupons module to other modules' events: order.created
// records the order's coupon uses (docs/decisions/0065).
package events

import (
	"context"
	"errors"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/coupons/api"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/modkit"
)

// OrderRecorder is the use case the subscriber calls.
type OrderRecorder interface {
	RecordOrder(ctx context.Context, o api.OrderCreated) error
}

// Subscriber turns order.created into coupon uses: Handle records the order's coupon
// uses. A payload a retry cannot fix (one that does not decode, has no id, or that
// the use case finds invalid) is logged and dropped; store errors are returned so the
// relay retries (the recording is idempotent per order).
type Subscriber = modkit.Listener[api.OrderCreated]

// NewSubscriber builds the subscriber.
func NewSubscriber(app OrderRecorder, log *zap.Logger) *Subscriber {
	return &Subscriber{Reactor: modkit.NewReactor(app.RecordOrder, log, "coupons.events"), Type: api.EventOrderCreated,
		Dropped: "order event dropped: bad payload", Valid: func(o api.OrderCreated) bool { return o.ID != "" }, Final: invalid}
}

// invalid is true of the use case's validation errors.
func invalid(err error) bool {
	var ae *apperr.Error
	return errors.As(err, &ae) && ae.Kind == apperr.Invalid
}
