// Package jobs holds the notifications module's background work: the send task (one
// notification), the batch task (a bulk send), the due sweep (scheduled sends,
// automatic retries, anything a restart lost) and the abandoned-cart sweep.
package jobs

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/notifications/app"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/jobs"
	"github.com/gocommerce/commerce/platform/modkit"
)

// Periodic tasks.
const (
	TaskSendDue       = "notifications:send_due"
	TaskAbandonedCart = "notifications:abandoned_carts"
)

// AbandonedCartInterval is how often the abandoned-cart sweep runs.
const AbandonedCartInterval = 10 * time.Minute

// Jobs registers the module's tasks.
type Jobs struct {
	svc        *app.Service
	due, carts modkit.Sweep
}

// NewJobs builds the task handlers.
func NewJobs(svc *app.Service, cfg *config.Config, log *zap.Logger) *Jobs {
	log = log.Named("notifications.jobs")
	every := cfg.Notifications.SweepInterval
	if every <= 0 {
		every = 15 * time.Second
	}
	return &Jobs{
		svc: svc,
		due: modkit.Sweep{Task: TaskSendDue, Every: every, Run: svc.SendDue, Log: log, Done: "due notifications sent"},
		carts: modkit.Sweep{Task: TaskAbandonedCart, Every: AbandonedCartInterval, Run: svc.RemindAbandonedCarts, Log: log,
			Done: "abandoned cart reminders sent"},
	}
}

// Register declares the handlers and the sweeps.
func (j *Jobs) Register(r jobs.Registry) {
	r.Handle(app.TaskSend, byID("send", func(p taskPayload) string { return p.ID }, j.svc.Deliver))
	r.Handle(app.TaskSendBatch, byID("batch", func(p taskPayload) string { return p.BatchID }, j.svc.SendBatch))
	j.due.Register(r)
	j.carts.Register(r)
}

// SendDue runs the due sweep once (tests).
func (j *Jobs) SendDue(ctx context.Context) error { return j.due.Handle(ctx, nil) }

// RemindAbandonedCarts runs the abandoned-cart sweep once (tests).
func (j *Jobs) RemindAbandonedCarts(ctx context.Context) error { return j.carts.Handle(ctx, nil) }

// taskPayload is the payload of the send task (the notification's id) and of the
// batch task (the bulk send's batch id).
type taskPayload struct {
	ID      string `json:"id"`
	BatchID string `json:"batch_id"`
}

// byID is the handler of a task that runs on the id its payload names; a payload that
// does not decode or names none is not retried (no retry can fix it).
func byID[T any](name string, id func(taskPayload) string, run func(context.Context, string) (T, error)) jobs.Handler {
	return func(ctx context.Context, payload []byte) error {
		var p taskPayload
		if err := json.Unmarshal(payload, &p); err != nil || id(p) == "" {
			return fmt.Errorf("notifications: %s payload %q: %w", name, payload, jobs.ErrSkipRetry)
		}
		_, err := run(ctx, id(p))
		return err
	}
}
