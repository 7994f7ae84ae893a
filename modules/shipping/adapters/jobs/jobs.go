// Package jobs holds shipping's background work: the periodic sweep that asks the
// carriers about shipments in flight.
package jobs

import (
	"context"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/shipping/app"
	"github.com/gocommerce/commerce/platform/jobs"
)

// TaskPollTracking is the periodic tracking sweep.
const TaskPollTracking = "shipping:poll_tracking"

// PollInterval is how often the sweep runs (each shipment is asked at most every
// shipping.tracking_interval).
const PollInterval = 5 * time.Minute

// Jobs registers and runs shipping's tasks.
type Jobs struct {
	svc *app.Service
	log *zap.Logger
}

// NewJobs builds the task handlers.
func NewJobs(svc *app.Service, log *zap.Logger) *Jobs {
	return &Jobs{svc: svc, log: log.Named("shipping.jobs")}
}

// Register declares the handler and its schedule.
func (j *Jobs) Register(r jobs.Registry) {
	r.Handle(TaskPollTracking, j.HandlePollTracking)
	r.Every(TaskPollTracking, PollInterval)
}

// HandlePollTracking polls the shipments due (the payload is ignored: the database
// says what is due).
func (j *Jobs) HandlePollTracking(ctx context.Context, _ []byte) error {
	n, err := j.svc.PollTracking(ctx)
	if n > 0 {
		j.log.Info("shipments moved by tracking", zap.Int("count", n))
	}
	return err
}
