// Package jobs holds inventory's background work: the periodic sweep that releases
// expired reservations, and the one that reports to the catalog the totals of the
// variants reserved since its last run (docs/decisions/0229).
package jobs

import (
	"context"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/inventory/app"
	"github.com/gocommerce/commerce/platform/jobs"
	"github.com/gocommerce/commerce/platform/modkit"
)

// TaskExpireReservations is the periodic task releasing expired reservations.
const TaskExpireReservations = "inventory:expire_reservations"

// ExpireInterval is how often the sweep runs.
const ExpireInterval = time.Minute

// TaskCatalogSync is the periodic task reporting reserved variants' totals to the
// catalog (it covers a background sync that was lost).
const TaskCatalogSync = "inventory:catalog_sync"

// CatalogSyncInterval is how often it runs.
const CatalogSyncInterval = time.Minute

// Jobs registers and runs inventory's tasks (Register).
type Jobs struct {
	expire, catalog modkit.Sweep
}

// NewJobs builds the task handlers: the sweep releases every reservation whose
// expires_at has passed; the catalog sweep reports the reserved variants' totals.
func NewJobs(svc *app.Service, log *zap.Logger) *Jobs {
	log = log.Named("inventory.jobs")
	expire := func(ctx context.Context) (int64, error) {
		n, err := svc.ExpireReservations(ctx)
		return int64(n), err
	}
	reconcile := func(ctx context.Context) (int64, error) {
		n, err := svc.ReconcileCatalog(ctx)
		return int64(n), err
	}
	return &Jobs{
		expire:  modkit.Sweep{Task: TaskExpireReservations, Every: ExpireInterval, Run: expire, Log: log, Done: "expired reservations released"},
		catalog: modkit.Sweep{Task: TaskCatalogSync, Every: CatalogSyncInterval, Run: reconcile, Log: log, Done: "reserved variants' totals reported to the catalog"},
	}
}

// Register declares both tasks.
func (j *Jobs) Register(r jobs.Registry) {
	j.expire.Register(r)
	j.catalog.Register(r)
}
