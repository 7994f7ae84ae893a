// Package jobs holds shipping's background work: the periodic sweep that asks the
// carriers about shipments in flight.
package jobs

import (
	"context"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/shipping/app"
	"github.com/gocommerce/commerce/platform/modkit"
)

// TaskPollTracking is the periodic tracking sweep.
const TaskPollTracking = "shipping:poll_tracking"

// PollInterval is how often the sweep runs (each shipment is asked at most every
// shipping.tracking_interval).
const PollInterval = 5 * time.Minute

// Jobs registers and runs shipping's tasks (Register; Handle runs the sweep, the
// payload ignored: the database says what is due).
type Jobs struct {
	modkit.Sweep
}

// NewJobs builds the task handlers.
func NewJobs(svc *app.Service, log *zap.Logger) *Jobs {
	poll := func(ctx context.Context) (int64, error) {
		n, err := svc.PollTracking(ctx)
		return int64(n), err
	}
	return &Jobs{modkit.Sweep{
		Task: TaskPollTracking, Every: PollInterval, Run: poll,
		Log: log.Named("shipping.jobs"), Done: "shipments moved by tracking",
	}}
}
