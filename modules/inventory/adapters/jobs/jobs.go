// Package jobs holds inventory's background work: the periodic sweep that releases
// expired reservations.
package jobs

import (
	"context"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/inventory/app"
	"github.com/gocommerce/commerce/platform/modkit"
)

// TaskExpireReservations is the periodic task releasing expired reservations.
const TaskExpireReservations = "inventory:expire_reservations"

// ExpireInterval is how often the sweep runs.
const ExpireInterval = time.Minute

// Jobs registers and runs inventory's tasks (Register).
type Jobs struct {
	modkit.Sweep
}

// NewJobs builds the task handlers: the sweep releases every reservation whose
// expires_at has passed.
func NewJobs(svc *app.Service, log *zap.Logger) *Jobs {
	expire := func(ctx context.Context) (int64, error) {
		n, err := svc.ExpireReservations(ctx)
		return int64(n), err
	}
	return &Jobs{modkit.Sweep{
		Task: TaskExpireReservations, Every: ExpireInterval, Run: expire,
		Log: log.Named("inventory.jobs"), Done: "expired reservations released",
	}}
}
