// Package tx declares the transaction port use cases depend on; platform/db implements it.
package tx

import "context"

// Manager runs fn in a transaction carried by the context. A call inside another
// InTx joins the outer transaction.
type Manager interface {
	InTx(ctx context.Context, fn func(ctx context.Context) error) error
	// AfterCommit runs fn once the transaction carried by ctx has committed (never if
	// it rolls back), or at once when ctx carries none. fn must be quick.
	AfterCommit(ctx context.Context, fn func())
}
