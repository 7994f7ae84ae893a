// Package jobs holds checkout's background work: the sweep of pending payments whose
// stock hold lapsed.
package jobs

import (
	"context"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/platform/modkit"
)

// TaskExpire ends checkouts whose payment did not complete within their hold.
const TaskExpire = "checkout:expire"

// ExpireInterval is how often the sweep runs.
const ExpireInterval = time.Minute

// Expirer is the use case the task runs.
type Expirer interface {
	ExpireLapsed(ctx context.Context) (int, error)
}

// Jobs registers and runs the checkout tasks (Register).
type Jobs struct {
	modkit.Sweep
}

// NewJobs builds the task handlers.
func NewJobs(app Expirer, log *zap.Logger) *Jobs {
	expire := func(ctx context.Context) (int64, error) {
		n, err := app.ExpireLapsed(ctx)
		return int64(n), err
	}
	return &Jobs{modkit.Sweep{
		Task: TaskExpire, Every: ExpireInterval, Run: expire,
		Log: log.Named("checkout.jobs"), Done: "lapsed checkouts expired",
	}}
}
