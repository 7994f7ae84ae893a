// Package jobs holds the carts module's background work: the expiry sweep.
package jobs

import (
	"context"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/platform/modkit"
)

// TaskExpire marks carts without activity for the expiry period expired.
const TaskExpire = "carts:expire"

// ExpireInterval is how often the sweep runs (reads check expires_at themselves, so
// the sweep only keeps the stored status tidy).
const ExpireInterval = time.Hour

// Expirer is the use case the task runs.
type Expirer interface {
	ExpireInactive(ctx context.Context) (int64, error)
}

// Jobs registers the carts tasks (Register).
type Jobs struct {
	modkit.Sweep
}

// NewJobs builds the task handlers.
func NewJobs(app Expirer, log *zap.Logger) *Jobs {
	return &Jobs{modkit.Sweep{
		Task: TaskExpire, Every: ExpireInterval, Run: app.ExpireInactive,
		Log: log.Named("carts.jobs"), Done: "inactive carts expired",
	}}
}
