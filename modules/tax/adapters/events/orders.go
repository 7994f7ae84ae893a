// Package events feeds other modules' events to the tax module: order.created's tax
// lines are recorded for OSS returns and US nexus (docs/decisions/0135).
package events

import (
	"context"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/tax/api"
	"github.com/gocommerce/commerce/platform/modkit"
)

// OrderRecorder is the use case order.created feeds.
type OrderRecorder interface {
	RecordOrder(ctx context.Context, o api.OrderCreated) error
}

// Subscriber is the module's consumer of order.created: Handle records the order's
// taxes. An undecodable payload is logged and dropped (a retry cannot fix it); a store
// error goes back to the relay, which retries (recording is idempotent per order id).
type Subscriber = modkit.Listener[api.OrderCreated]

// NewSubscriber builds the subscriber on the recorder.
func NewSubscriber(r OrderRecorder, log *zap.Logger) *Subscriber {
	return &Subscriber{Reactor: modkit.NewReactor(r.RecordOrder, log, "tax.events"), Type: api.EventOrderCreated,
		Dropped: "order.created dropped", Valid: func(o api.OrderCreated) bool { return o.ID != "" }}
}
