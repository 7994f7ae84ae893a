// Package orders owns orders: line items, totals, order numbers, states, fulfillments,
// refunds, transactions, notes and the risk assessment. It is the module's composition
// root: ProviderSet wires the repositories, the adapters to the catalog, inventory,
// payments and customers modules, the command service (api.Orders), the query service
// (api.Queries, which depends only on the module's own stores), the HTTP handler, the
// payment-event subscriber and the Module that cmd lists.
package orders

import (
	"github.com/google/wire"

	"github.com/gocommerce/commerce/modules/orders/adapters/catalogapi"
	"github.com/gocommerce/commerce/modules/orders/adapters/couponsapi"
	"github.com/gocommerce/commerce/modules/orders/adapters/customersapi"
	ordersevents "github.com/gocommerce/commerce/modules/orders/adapters/events"
	ordershttp "github.com/gocommerce/commerce/modules/orders/adapters/http"
	"github.com/gocommerce/commerce/modules/orders/adapters/inventoryapi"
	"github.com/gocommerce/commerce/modules/orders/adapters/paymentsapi"
	orderspg "github.com/gocommerce/commerce/modules/orders/adapters/postgres"
	"github.com/gocommerce/commerce/modules/orders/api"
	"github.com/gocommerce/commerce/modules/orders/app"
	"github.com/gocommerce/commerce/modules/orders/ports"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/modkit"
)

// Module is the orders module: its name, routes, migrations and event subscriptions.
type Module struct {
	modkit.Parts
	modkit.SubscribeFunc
}

// NewModule builds the module.
func NewModule(h *ordershttp.Handler, s *ordersevents.Subscriber) *Module {
	return &Module{Parts: modkit.NewParts("orders", h, ordershttp.OpenAPI()), SubscribeFunc: s.Subscribe}
}

// Migrations returns the module's table migrations.
func (m *Module) Migrations() db.MigrationSource { return Migrations() }

// Migrations returns the module's migrations without building the module (tests, tools).
func Migrations() db.MigrationSource { return orderspg.Migrations() }

// NewSettings takes the module's slice of the configuration.
func NewSettings(cfg *config.Config) app.Settings { return app.SettingsFrom(cfg) }

// QuerySet provides the read side alone: api.Queries (and *app.QueryService) from the
// module's own stores. It is part of ProviderSet; the catalog and customers modules'
// ordersapi adapters depend on api.Queries, which keeps the graph acyclic (the command
// service depends on catalog and customers, the query service on nothing of theirs).
var QuerySet = wire.NewSet(
	NewSettings,
	orderspg.NewOrderRepository,
	wire.Bind(new(ports.OrderRepository), new(*orderspg.OrderRepository)),
	orderspg.NewNoteRepository,
	wire.Bind(new(ports.NoteRepository), new(*orderspg.NoteRepository)),
	wire.Struct(new(app.Stores), "*"),
	app.NewQueryService,
	wire.Bind(new(api.Queries), new(*app.QueryService)),
)

// ProviderSet wires the module. Inputs: *config.Config, *zap.Logger, *db.DB,
// tx.Manager, event.Publisher, clock.Clock, catalog/api.Catalog,
// inventory/api.Inventory, payments/api.Payments and customers/api.Customers.
// Outputs: *Module, *app.Service (api.Orders), *app.QueryService (api.Queries).
var ProviderSet = wire.NewSet(
	QuerySet,
	catalogapi.NewAdapter,
	wire.Bind(new(ports.Catalog), new(*catalogapi.Adapter)),
	inventoryapi.NewAdapter,
	wire.Bind(new(ports.Inventory), new(*inventoryapi.Adapter)),
	paymentsapi.NewAdapter,
	wire.Bind(new(ports.Payments), new(*paymentsapi.Adapter)),
	customersapi.NewAdapter,
	wire.Bind(new(ports.Customers), new(*customersapi.Adapter)),
	couponsapi.NewAdapter,
	wire.Bind(new(ports.Coupons), new(*couponsapi.Adapter)),
	wire.Struct(new(app.Collaborators), "*"),
	app.NewService,
	wire.Bind(new(api.Orders), new(*app.Service)),
	ordershttp.NewHandler,
	ordersevents.NewSubscriber,
	wire.Bind(new(ordersevents.Recorder), new(*app.Service)),
	NewModule,
)
