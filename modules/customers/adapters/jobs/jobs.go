// Package jobs holds the customers module's background work.
package jobs

import (
	"context"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/platform/jobs"
)

// TaskPurgeExpiredTokens deletes expired invite and password reset tokens.
const TaskPurgeExpiredTokens = "customers:purge_expired_tokens"

// PurgeInterval is how often the sweep runs.
const PurgeInterval = time.Hour

// TokenPurger is the use case the task runs.
type TokenPurger interface {
	PurgeExpiredTokens(ctx context.Context) (int64, error)
}

// Jobs registers the customers tasks.
type Jobs struct {
	app TokenPurger
	log *zap.Logger
}

// NewJobs builds the task handlers.
func NewJobs(app TokenPurger, log *zap.Logger) *Jobs {
	return &Jobs{app: app, log: log.Named("customers.jobs")}
}

// Register declares the handler and its schedule.
func (j *Jobs) Register(r jobs.Registry) {
	r.Handle(TaskPurgeExpiredTokens, j.HandlePurgeExpiredTokens)
	r.Every(TaskPurgeExpiredTokens, PurgeInterval)
}

// HandlePurgeExpiredTokens runs the sweep.
func (j *Jobs) HandlePurgeExpiredTokens(ctx context.Context, _ []byte) error {
	n, err := j.app.PurgeExpiredTokens(ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		j.log.Info("expired account tokens purged", zap.Int64("count", n))
	}
	return nil
}
