// Package statistics owns the admin statistics: per-order records and daily rollups
// kept from the order, product, customer and subscription events (per currency, in the store's time
// zone), the five reports under /api/v1/admin/statistics, and the computed customer
// segments (api.Segments) with the job that keeps them current. It reads other modules
// only through their events. ProviderSet wires the repository, the service, the HTTP
// handler, the subscriber, the segments job and the Module cmd lists.
package statistics

import (
	"github.com/google/wire"
	"go.uber.org/zap"

	statsevents "github.com/gocommerce/commerce/modules/statistics/adapters/events"
	statshttp "github.com/gocommerce/commerce/modules/statistics/adapters/http"
	statspg "github.com/gocommerce/commerce/modules/statistics/adapters/postgres"
	"github.com/gocommerce/commerce/modules/statistics/api"
	"github.com/gocommerce/commerce/modules/statistics/app"
	"github.com/gocommerce/commerce/modules/statistics/ports"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/modkit"
)

// Module is the statistics module: its name, routes, migrations, subscriptions and job.
type Module struct{ modkit.Parts }

// NewModule builds the module.
func NewModule(h *statshttp.Handler, s *statsevents.Subscriber, j *Jobs) *Module {
	return &Module{modkit.NewParts(modkit.Spec{Name: "statistics", Routes: h, OpenAPI: statshttp.OpenAPI(),
		Migrations: Migrations(), Subscribe: s.Subscribe, Jobs: j})}
}

// TaskRefreshSegments is the periodic recomputation of the customer segments.
const TaskRefreshSegments = "statistics:segments"

// Jobs is the module's background work: the segments sweep, every
// statistics.segments_interval.
type Jobs struct{ modkit.Sweep }

// NewJobs builds the sweep on the service.
func NewJobs(svc *app.Service, s app.Settings, log *zap.Logger) *Jobs {
	return &Jobs{modkit.Sweep{Task: TaskRefreshSegments, Every: s.SegmentsInterval, Run: svc.RefreshSegments,
		Log: log.Named("statistics.jobs"), Done: "segment memberships computed"}}
}

// Migrations returns the module's migrations without building the module.
func Migrations() db.MigrationSource { return statspg.Migrations() }

// ProviderSet wires the module. Inputs: *config.Config, *zap.Logger, *db.DB,
// tx.Manager, clock.Clock. Outputs: *Module, *app.Service, api.Segments.
var ProviderSet = wire.NewSet(
	NewSettings,
	statspg.NewRepository, wire.Bind(new(ports.Repository), new(*statspg.Repository)),
	app.NewService, wire.Bind(new(api.Segments), new(*app.Service)),
	statshttp.NewHandler,
	statsevents.NewSubscriber,
	NewJobs,
	NewModule,
)

// NewSettings takes the module's slice of the configuration (statistics.*).
func NewSettings(cfg *config.Config) app.Settings { return app.SettingsFrom(cfg) }
