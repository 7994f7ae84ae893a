// Package jobs holds the customers module's background work.
package jobs

import (
	"context"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/platform/modkit"
)

// TaskPurgeExpiredTokens deletes expired invite and password reset tokens.
const TaskPurgeExpiredTokens = "customers:purge_expired_tokens"

// PurgeInterval is how often the sweep runs.
const PurgeInterval = time.Hour

// TokenPurger is the use case the task runs.
type TokenPurger interface {
	PurgeExpiredTokens(ctx context.Context) (int64, error)
}

// Jobs registers the customers tasks (Register).
type Jobs struct {
	modkit.Sweep
}

// NewJobs builds the task handlers.
func NewJobs(app TokenPurger, log *zap.Logger) *Jobs {
	purge := func(ctx context.Context) (int64, error) { return app.PurgeExpiredTokens(ctx) }
	return &Jobs{modkit.Sweep{
		Task: TaskPurgeExpiredTokens, Every: PurgeInterval, Run: purge,
		Log: log.Named("customers.jobs"), Done: "expired account tokens purged",
	}}
}

// HandlePurgeExpiredTokens runs the sweep.
func (j *Jobs) HandlePurgeExpiredTokens(ctx context.Context, payload []byte) error {
	return j.Handle(ctx, payload)
}
