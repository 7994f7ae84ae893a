// Package jobs holds inventory's background work: the periodic sweep that releases
// expired reservations.
package jobs

import (
	"context"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/inventory/app"
	"github.com/gocommerce/commerce/platform/jobs"
)

// TaskExpireReservations is the periodic task releasing expired reservations.
const TaskExpireReservations = "inventory:expire_reservations"

// ExpireInterval is how often the sweep runs.
const ExpireInterval = time.Minute

// Jobs registers and runs inventory's tasks.
type Jobs struct {
	svc *app.Service
	log *zap.Logger
}

// NewJobs builds the task handlers.
func NewJobs(svc *app.Service, log *zap.Logger) *Jobs {
	return &Jobs{svc: svc, log: log.Named("inventory.jobs")}
}

// Register declares the handler and its schedule.
func (j *Jobs) Register(r jobs.Registry) {
	r.Handle(TaskExpireReservations, j.HandleExpireReservations)
	r.Every(TaskExpireReservations, ExpireInterval)
}

// HandleExpireReservations releases every reservation whose expires_at has passed
// (the payload is ignored: the database says what is due).
func (j *Jobs) HandleExpireReservations(ctx context.Context, _ []byte) error {
	n, err := j.svc.ExpireReservations(ctx)
	if n > 0 {
		j.log.Info("expired reservations released", zap.Int("count", n))
	}
	return err
}
