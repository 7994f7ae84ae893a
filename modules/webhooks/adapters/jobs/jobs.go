// Package jobs holds the webhooks background work: the per-endpoint delivery task and
// the sweep that re-queues due deliveries no task is on (a task lost with its process).
package jobs

import (
	"context"
	"encoding/json"
	"fmt"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/webhooks/app"
	"github.com/gocommerce/commerce/platform/jobs"
	"github.com/gocommerce/commerce/platform/modkit"
)

// Jobs registers and runs the module's tasks.
type Jobs struct {
	svc   *app.Service
	sweep modkit.Sweep
}

// NewJobs builds the task handlers.
func NewJobs(svc *app.Service, log *zap.Logger) *Jobs {
	return &Jobs{svc: svc, sweep: modkit.Sweep{Task: app.TaskSweep, Every: svc.Settings().SweepInterval, Run: svc.Sweep,
		Log: log.Named("webhooks.jobs"), Done: "webhook deliveries re-queued"}}
}

// Register declares the delivery task and the sweep.
func (j *Jobs) Register(r jobs.Registry) {
	r.Handle(app.TaskDeliver, j.HandleDeliver)
	j.sweep.Register(r)
}

// HandleDeliver runs an endpoint's delivery task; a bad payload is dropped.
func (j *Jobs) HandleDeliver(ctx context.Context, payload []byte) error {
	var t app.DeliverTask
	if err := json.Unmarshal(payload, &t); err != nil || t.EndpointID == "" {
		return fmt.Errorf("webhooks: bad delivery task %q: %w", payload, jobs.ErrSkipRetry)
	}
	return j.svc.DeliverEndpoint(ctx, t.EndpointID)
}
