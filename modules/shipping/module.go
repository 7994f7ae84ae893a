// Package shipping owns carriers, rates, shipments and tracking. It is the module's
// composition root: ProviderSet wires the carriers (each carrier's API adapter when
// its credentials are configured, else its built-in rate table), the repository, the
// orders adapter, the service (api.Shipping), the HTTP handler and the tracking job.
package shipping

import (
	"time"

	"github.com/google/wire"
	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/shipping/adapters/carriers"
	shippinghttp "github.com/gocommerce/commerce/modules/shipping/adapters/http"
	"github.com/gocommerce/commerce/modules/shipping/adapters/ordersapi"
	shippingpg "github.com/gocommerce/commerce/modules/shipping/adapters/postgres"
	"github.com/gocommerce/commerce/modules/shipping/api"
	"github.com/gocommerce/commerce/modules/shipping/app"
	"github.com/gocommerce/commerce/modules/shipping/ports"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/modkit"
)

// Module is the shipping module: its name, routes, migrations and jobs.
type Module struct{ modkit.Parts }

// NewModule builds the module.
func NewModule(h *shippinghttp.Handler, j *Jobs) *Module {
	return &Module{modkit.NewParts(modkit.Spec{Name: "shipping", Routes: h, OpenAPI: shippinghttp.OpenAPI(),
		Migrations: Migrations(), Jobs: j})}
}

// TaskPollTracking is the tracking sweep: every five minutes it asks the carriers about
// the shipments in flight (each at most every shipping.tracking_interval).
const TaskPollTracking = "shipping:poll_tracking"

// Jobs is the module's background work: the tracking sweep.
type Jobs struct{ modkit.Sweep }

// NewJobs builds the sweep on the service.
func NewJobs(svc *app.Service, log *zap.Logger) *Jobs {
	return &Jobs{modkit.Sweep{Task: TaskPollTracking, Every: 5 * time.Minute, Run: svc.PollTracking,
		Log: log.Named("shipping.jobs"), Done: "shipments moved by tracking"}}
}

// Migrations returns the module's migrations without building the module (tests, tools).
func Migrations() db.MigrationSource { return shippingpg.Migrations() }

// ProviderSet wires the module. Inputs: *config.Config, *zap.Logger, *db.DB,
// tx.Manager, event.Publisher, clock.Clock, orders/api.Queries (orders.QuerySet) and
// ports.LabelStorage (bound in cmd to the catalog's image storage). Outputs: *Module,
// *app.Service and api.Shipping.
var ProviderSet = wire.NewSet(
	NewSettings,
	carriers.New,
	shippingpg.NewShipmentRepository, wire.Bind(new(ports.ShipmentRepository), new(*shippingpg.ShipmentRepository)),
	ordersapi.NewAdapter, wire.Bind(new(ports.Orders), new(*ordersapi.Adapter)),
	app.NewService, wire.Bind(new(api.Shipping), new(*app.Service)),
	shippinghttp.NewHandler,
	NewJobs,
	NewModule,
)

// NewSettings takes shipping's slice of the configuration.
func NewSettings(cfg *config.Config) app.Settings { return app.SettingsFrom(cfg) }
