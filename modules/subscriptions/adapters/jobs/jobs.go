// Package jobs holds the subscriptions module's background work: the billing sweep
// (renewals due, retries due, lapsed charges, grace periods over) and the retry task
// queued for each failed invoice at its next_retry_at.
package jobs

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/subscriptions/app"
	"github.com/gocommerce/commerce/platform/jobs"
	"github.com/gocommerce/commerce/platform/modkit"
)

// TaskBill is the periodic billing sweep.
const TaskBill = "subscriptions:bill"

// Biller is the use cases the tasks run.
type Biller interface {
	BillDue(ctx context.Context) (int64, error)
	RetryInvoice(ctx context.Context, invoiceID string) error
}

// Jobs registers and runs the subscriptions tasks (Register).
type Jobs struct {
	modkit.Sweep
	app Biller
}

// NewJobs builds the task handlers; the sweep runs every billing interval
// (subscriptions.billing_interval, the settings' SweepFor).
func NewJobs(a Biller, settings app.Settings, log *zap.Logger) *Jobs {
	every := settings.SweepFor
	if every <= 0 {
		every = time.Minute
	}
	return &Jobs{Sweep: modkit.Sweep{
		Task: TaskBill, Every: every, Run: a.BillDue, Log: log.Named("subscriptions.jobs"), Done: "subscription billing rows moved",
	}, app: a}
}

// Register declares the sweep and the retry task.
func (j *Jobs) Register(r jobs.Registry) {
	j.Sweep.Register(r)
	r.Handle(app.TaskRetry, j.retry)
}

func (j *Jobs) retry(ctx context.Context, payload []byte) error {
	var p struct {
		InvoiceID string `json:"invoice_id"`
	}
	if err := json.Unmarshal(payload, &p); err != nil || p.InvoiceID == "" {
		return fmt.Errorf("subscriptions: bad retry payload: %w", jobs.ErrSkipRetry)
	}
	return j.app.RetryInvoice(ctx, p.InvoiceID)
}
