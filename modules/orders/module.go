// Package orders owns orders: line items, totals, order numbers, states, fulfillments,
// refunds, transactions, notes and the risk assessment. It is the module's composition
// root: ProviderSet wires the repositories, the adapters to the catalog, inventory,
// payments and customers modules, the command service (api.Orders), the query service
// (api.Queries, which depends only on the module's own stores), the HTTP handler, the
// payment-event subscriber and the Module that cmd lists.
package orders

import (
	"github.com/google/wire"

	catalog "github.com/gocommerce/commerce/modules/catalog/api"
	coupons "github.com/gocommerce/commerce/modules/coupons/api"
	customers "github.com/gocommerce/commerce/modules/customers/api"
	inventory "github.com/gocommerce/commerce/modules/inventory/api"
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
	payments "github.com/gocommerce/commerce/modules/payments/api"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/modkit"
)

// Module is the orders module: its name, routes, migrations and event subscriptions.
type Module struct{ modkit.Parts }

// NewModule builds the module.
func NewModule(h *ordershttp.Handler, s *ordersevents.Subscriber) *Module {
	return &Module{modkit.NewParts(modkit.Spec{Name: "orders", Routes: h, OpenAPI: ordershttp.OpenAPI(),
		Migrations: Migrations(), Subscribe: s.Subscribe})}
}

// Migrations returns the module's migrations without building the module (tests, tools).
func Migrations() db.MigrationSource { return orderspg.Migrations() }

// NewStores builds the module's repositories on the database.
func NewStores(d *db.DB) app.Stores {
	return app.Stores{Orders: orderspg.NewOrderRepository(d), Notes: orderspg.NewNoteRepository(d)}
}

// NewCollaborators reaches the catalog, inventory, payments, customers and coupons
// modules through their api packages.
func NewCollaborators(c catalog.Catalog, i inventory.Inventory, p payments.Payments, cu customers.Customers,
	co coupons.Coupons) app.Collaborators {
	return app.Collaborators{Catalog: catalogapi.NewAdapter(c), Inventory: inventoryapi.NewAdapter(i),
		Payments: paymentsapi.NewAdapter(p), Customers: customersapi.NewAdapter(cu), Coupons: couponsapi.NewAdapter(co)}
}

// QuerySet provides the read side alone: api.Queries (and *app.QueryService) from the
// module's own stores. It is part of ProviderSet; the catalog and customers modules'
// ordersapi adapters depend on api.Queries, which keeps the graph acyclic (the command
// service depends on catalog and customers, the query service on nothing of theirs).
var QuerySet = wire.NewSet(
	NewSettings,
	NewStores,
	app.NewQueryService, wire.Bind(new(api.Queries), new(*app.QueryService)),
)

// ProviderSet wires the module. Inputs: *config.Config, *zap.Logger, *db.DB,
// tx.Manager, event.Publisher, clock.Clock, catalog/api.Catalog,
// inventory/api.Inventory, payments/api.Payments, customers/api.Customers and
// coupons/api.Coupons. Outputs: *Module, *app.Service (api.Orders), *app.QueryService
// (api.Queries).
var ProviderSet = wire.NewSet(
	QuerySet,
	NewCollaborators,
	app.NewService, wire.Bind(new(api.Orders), new(*app.Service)),
	ordershttp.NewHandler,
	ordersevents.NewSubscriber, wire.Bind(new(ordersevents.Recorder), new(*app.Service)),
	NewModule,
)

// NewSettings takes the module's slice of the configuration.
func NewSettings(cfg *config.Config) app.Settings { return app.SettingsFrom(cfg) }
