// Package inventory owns locations, stock levels, movements, reservations and
// transfers. It is the module's composition root: ProviderSet wires the repositories,
// the catalog adapter, the service (api.Inventory), the HTTP handler, the event
// subscriber and the background jobs.
package inventory

import (
	"github.com/google/wire"

	"github.com/gocommerce/commerce/modules/inventory/adapters/catalogapi"
	inventoryevents "github.com/gocommerce/commerce/modules/inventory/adapters/events"
	inventoryhttp "github.com/gocommerce/commerce/modules/inventory/adapters/http"
	inventoryjobs "github.com/gocommerce/commerce/modules/inventory/adapters/jobs"
	inventorypg "github.com/gocommerce/commerce/modules/inventory/adapters/postgres"
	"github.com/gocommerce/commerce/modules/inventory/api"
	"github.com/gocommerce/commerce/modules/inventory/app"
	"github.com/gocommerce/commerce/modules/inventory/ports"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/jobs"
	"github.com/gocommerce/commerce/platform/openapi"
)

// Module is the inventory module: routes, migrations, subscriptions and jobs.
type Module struct {
	handler    *inventoryhttp.Handler
	subscriber *inventoryevents.Subscriber
	jobs       *inventoryjobs.Jobs
}

// NewModule builds the module.
func NewModule(h *inventoryhttp.Handler, s *inventoryevents.Subscriber, j *inventoryjobs.Jobs) *Module {
	return &Module{handler: h, subscriber: s, jobs: j}
}

// Name names the module.
func (m *Module) Name() string { return "inventory" }

// RegisterRoutes mounts the inventory endpoints and the product-level stock operations.
func (m *Module) RegisterRoutes(r *httpx.Routes) { m.handler.RegisterRoutes(r) }

// Migrations returns the module's table migrations.
func (m *Module) Migrations() db.MigrationSource { return inventorypg.Migrations() }

// OpenAPI returns the module's OpenAPI fragment (openapi.Documented).
func (m *Module) OpenAPI() openapi.Fragment {
	return openapi.Fragment{Module: "inventory", Data: inventoryhttp.OpenAPI()}
}

// Subscribe reacts to the catalog's events (catalog.stock_set, product.deleted,
// variant.deleted, product.updated).
func (m *Module) Subscribe(s event.Subscriber) { m.subscriber.Register(s) }

// RegisterJobs registers inventory:expire_reservations, run every minute.
func (m *Module) RegisterJobs(r jobs.Registry) { m.jobs.Register(r) }

// Migrations returns the module's migrations without building the module (tests, tools).
func Migrations() db.MigrationSource { return inventorypg.Migrations() }

// NewSettings takes inventory's slice of the configuration.
func NewSettings(cfg *config.Config) app.Settings { return app.SettingsFrom(cfg) }

// ProviderSet wires the module. Inputs: *config.Config, *zap.Logger, *db.DB,
// tx.Manager, event.Publisher, clock.Clock and catalog/api.Catalog (from the catalog
// module). Outputs: *Module, *app.Service and api.Inventory.
var ProviderSet = wire.NewSet(
	NewSettings,
	inventorypg.NewLocationRepository,
	wire.Bind(new(ports.LocationRepository), new(*inventorypg.LocationRepository)),
	inventorypg.NewLevelRepository,
	wire.Bind(new(ports.LevelRepository), new(*inventorypg.LevelRepository)),
	inventorypg.NewMovementRepository,
	wire.Bind(new(ports.MovementRepository), new(*inventorypg.MovementRepository)),
	inventorypg.NewReservationRepository,
	wire.Bind(new(ports.ReservationRepository), new(*inventorypg.ReservationRepository)),
	inventorypg.NewProcessedEvents,
	wire.Bind(new(ports.ProcessedEvents), new(*inventorypg.ProcessedEvents)),
	wire.Struct(new(app.Repositories), "*"),
	catalogapi.NewAdapter,
	wire.Bind(new(ports.Catalog), new(*catalogapi.Adapter)),
	app.NewService,
	wire.Bind(new(api.Inventory), new(*app.Service)),
	inventoryhttp.NewHandler,
	inventoryevents.NewSubscriber,
	inventoryjobs.NewJobs,
	NewModule,
)
