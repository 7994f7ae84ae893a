// Package jobs holds checkout's background work: the sweep of pending payments whose
// stock hold lapsed.
package jobs

import (
	"context"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/platform/jobs"
)

// TaskExpire ends checkouts whose payment did not complete within their hold.
const TaskExpire = "checkout:expire"

// ExpireInterval is how often the sweep runs.
const ExpireInterval = time.Minute

// Expirer is the use case the task runs.
type Expirer interface {
	ExpireLapsed(ctx context.Context) (int, error)
}

// Jobs registers the checkout tasks.
type Jobs struct {
	app Expirer
	log *zap.Logger
}

// NewJobs builds the task handlers.
func NewJobs(app Expirer, log *zap.Logger) *Jobs {
	return &Jobs{app: app, log: log.Named("checkout.jobs")}
}

// Register declares the handler and its schedule.
func (j *Jobs) Register(r jobs.Registry) {
	r.Handle(TaskExpire, j.HandleExpire)
	r.Every(TaskExpire, ExpireInterval)
}

// HandleExpire runs the sweep.
func (j *Jobs) HandleExpire(ctx context.Context, _ []byte) error {
	n, err := j.app.ExpireLapsed(ctx)
	if n > 0 {
		j.log.Info("lapsed checkouts expired", zap.Int("count", n))
	}
	return err
}
