// Package inventory owns locations, stock levels, movements, reservations and
// transfers. It is the module's composition root: ProviderSet wires the repositories,
// the catalog adapter, the service (api.Inventory), the HTTP handler, the event
// subscriber and the background jobs.
package inventory

import (
	"time"

	"github.com/google/wire"
	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/inventory/adapters/catalogapi"
	inventoryevents "github.com/gocommerce/commerce/modules/inventory/adapters/events"
	inventoryhttp "github.com/gocommerce/commerce/modules/inventory/adapters/http"
	inventoryjobs "github.com/gocommerce/commerce/modules/inventory/adapters/jobs"
	inventorypg "github.com/gocommerce/commerce/modules/inventory/adapters/postgres"
	"github.com/gocommerce/commerce/modules/inventory/api"
	"github.com/gocommerce/commerce/modules/inventory/app"
	"github.com/gocommerce/commerce/modules/inventory/ports"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/modkit"
	"github.com/gocommerce/commerce/platform/tx"
)

// Module is the inventory module: routes, migrations, subscriptions and jobs.
type Module struct{ modkit.Parts }

// NewModule builds the module.
func NewModule(h *inventoryhttp.Handler, s *inventoryevents.Subscriber, j *inventoryjobs.Jobs) *Module {
	return &Module{modkit.NewParts(modkit.Spec{Name: "inventory", Routes: h, OpenAPI: inventoryhttp.OpenAPI(),
		Migrations: Migrations(), Subscribe: s.Register, Jobs: j})}
}

// Migrations returns the module's migrations without building the module (tests, tools).
func Migrations() db.MigrationSource { return inventorypg.Migrations() }

// NewRepositories builds the module's repositories on the database.
func NewRepositories(d *db.DB) app.Repositories {
	return app.Repositories{Locations: inventorypg.NewLocationRepository(d), Levels: inventorypg.NewLevelRepository(d),
		Movements: inventorypg.NewMovementRepository(d), Reservations: inventorypg.NewReservationRepository(d),
		Processed: inventorypg.NewProcessedEvents(d)}
}

// ProviderSet wires the module. Inputs: *config.Config, *zap.Logger, *db.DB,
// tx.Manager, event.Publisher, clock.Clock and catalog/api.Catalog (from the catalog
// module). Outputs: *Module, *app.Service and api.Inventory.
var ProviderSet = wire.NewSet(
	NewSettings,
	NewRepositories,
	catalogapi.NewAdapter, wire.Bind(new(ports.Catalog), new(*catalogapi.Adapter)),
	NewService, wire.Bind(new(api.Inventory), new(*app.Service)),
	inventoryhttp.NewHandler,
	inventoryevents.NewSubscriber,
	inventoryjobs.NewJobs,
	NewModule,
)

// NewService builds the service. Its cleanup waits a few seconds at most for the
// catalog syncs reservations queued (docs/decisions/0229), before the database closes.
func NewService(tm tx.Manager, repos app.Repositories, catalog ports.Catalog, pub event.Publisher, clk clock.Clock, settings app.Settings, log *zap.Logger) (*app.Service, func()) {
	svc := app.NewService(tm, repos, catalog, pub, clk, settings, log)
	return svc, func() { svc.DrainCatalogSync(5 * time.Second) }
}

// NewSettings takes inventory's slice of the configuration.
func NewSettings(cfg *config.Config) app.Settings { return app.SettingsFrom(cfg) }
