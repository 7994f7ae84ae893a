// Package jobs holds the carts module's background work: the expiry sweep.
package jobs

import (
	"context"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/platform/jobs"
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

// Jobs registers the carts tasks.
type Jobs struct {
	app Expirer
	log *zap.Logger
}

// NewJobs builds the task handlers.
func NewJobs(app Expirer, log *zap.Logger) *Jobs {
	return &Jobs{app: app, log: log.Named("carts.jobs")}
}

// Register declares the handler and its schedule.
func (j *Jobs) Register(r jobs.Registry) {
	r.Handle(TaskExpire, j.HandleExpire)
	r.Every(TaskExpire, ExpireInterval)
}

// HandleExpire runs the sweep.
func (j *Jobs) HandleExpire(ctx context.Context, _ []byte) error {
	n, err := j.app.ExpireInactive(ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		j.log.Info("inactive carts expired", zap.Int64("count", n))
	}
	return nil
}
