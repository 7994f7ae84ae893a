// Package tx declares the transaction port use cases depend on; platform/db implements it.
package tx

import (
	"context"
	"time"
)

// Manager runs fn in a transaction carried by the context. A call inside another
// InTx joins the outer transaction.
type Manager interface {
	InTx(ctx context.Context, fn func(ctx context.Context) error) error
	// AfterCommit runs fn once the transaction carried by ctx has committed (never if
	// it rolls back), or at once when ctx carries none. fn must be quick.
	AfterCommit(ctx context.Context, fn func())
}

type arrivalKey struct{}

// WithArrival records when the work ctx carries arrived (the HTTP layer: when the
// request came in). Where work waits its turn for a database connection, earlier
// arrivals are served first, so a request halfway through is not overtaken by newer
// ones (docs/decisions/0237).
func WithArrival(ctx context.Context, t time.Time) context.Context {
	return context.WithValue(ctx, arrivalKey{}, t)
}

// Arrival is the time WithArrival recorded in ctx, if any.
func Arrival(ctx context.Context) (time.Time, bool) {
	t, ok := ctx.Value(arrivalKey{}).(time.Time)
	return t, ok
}
