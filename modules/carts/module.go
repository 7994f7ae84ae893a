// Package carts owns guest and customer carts: items, totals, coupons on carts,
// merging, expiry and conversion. It is the module's composition root: ProviderSet
// wires the repository, the adapters to catalog, coupons, customers and tax (and the
// default automatic-discount adapter), the command service
// (api.Carts), the query service (api.Queries, which depends only on the module's own
// store), the HTTP handler, the expiry job and the Module that cmd lists.
package carts

import (
	"github.com/google/wire"

	"github.com/gocommerce/commerce/modules/carts/adapters/catalogapi"
	"github.com/gocommerce/commerce/modules/carts/adapters/couponsapi"
	"github.com/gocommerce/commerce/modules/carts/adapters/customersapi"
	cartshttp "github.com/gocommerce/commerce/modules/carts/adapters/http"
	cartsjobs "github.com/gocommerce/commerce/modules/carts/adapters/jobs"
	"github.com/gocommerce/commerce/modules/carts/adapters/none"
	cartspg "github.com/gocommerce/commerce/modules/carts/adapters/postgres"
	"github.com/gocommerce/commerce/modules/carts/adapters/taxapi"
	"github.com/gocommerce/commerce/modules/carts/api"
	"github.com/gocommerce/commerce/modules/carts/app"
	"github.com/gocommerce/commerce/modules/carts/ports"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/modkit"
)

// Module is the carts module: its name, routes, migrations and jobs (the hourly
// expiry sweep, carts:expire).
type Module struct {
	modkit.Parts
	modkit.Work
}

// NewModule builds the module.
func NewModule(h *cartshttp.Handler, j *cartsjobs.Jobs) *Module {
	return &Module{Parts: modkit.NewParts("carts", h, cartshttp.OpenAPI()), Work: modkit.Work{Jobs: j}}
}

// Migrations returns the module's table migrations.
func (m *Module) Migrations() db.MigrationSource { return Migrations() }

// Migrations returns the module's migrations without building the module (tests, tools).
func Migrations() db.MigrationSource { return cartspg.Migrations() }

// NewSettings takes the module's slice of the configuration (carts.expiry_days).
func NewSettings(cfg *config.Config) app.Settings { return app.SettingsFrom(cfg) }

// DefaultCollaborators binds the port of a capability no module offers yet: no
// automatic discounts. (Shipping needs no port: checkout sets the chosen rate through
// api.Carts.ChooseShipping, docs/decisions/0175.)
var DefaultCollaborators = wire.NewSet(
	none.NewAutomaticDiscounts,
	wire.Bind(new(ports.AutomaticDiscounts), new(none.AutomaticDiscounts)),
)

// QuerySet provides the read side alone: api.Queries (and *app.QueryService) from the
// module's own store. It is part of ProviderSet; the customers module's cartsapi
// adapter depends on api.Queries, which keeps the graph acyclic (the command service
// depends on customers' addresses, the query service on nothing of customers':
// docs/decisions/0108, as orders.QuerySet does for orders).
var QuerySet = wire.NewSet(
	cartspg.NewConfiguredRepository,
	wire.Bind(new(ports.CartRepository), new(*cartspg.CartRepository)),
	app.NewQueryService,
	wire.Bind(new(api.Queries), new(*app.QueryService)),
)

// ProviderSet wires the module. Inputs: *config.Config, *zap.Logger, *db.DB,
// *events.Outbox, tx.Manager, event.Publisher, clock.Clock, catalog/api.Catalog
// (catalog.ProviderSet), coupons/api.Coupons (coupons.ProviderSet),
// customers/api.Addresses (customers.ProviderSet) and tax/api.Tax (tax.ProviderSet). Outputs: *Module, *app.Service,
// api.Carts (which coupons' validate endpoint reads through its cartsapi adapter),
// *app.QueryService and api.Queries (which customers' data export reads).
var ProviderSet = wire.NewSet(
	NewSettings,
	QuerySet,
	catalogapi.NewAdapter,
	wire.Bind(new(ports.Catalog), new(*catalogapi.Adapter)),
	couponsapi.NewAdapter,
	wire.Bind(new(ports.Coupons), new(*couponsapi.Adapter)),
	customersapi.NewAdapter,
	wire.Bind(new(ports.Addresses), new(*customersapi.Adapter)),
	taxapi.NewAdapter,
	wire.Bind(new(ports.Tax), new(*taxapi.Adapter)),
	DefaultCollaborators,
	wire.Struct(new(app.Collaborators), "*"),
	app.NewService,
	wire.Bind(new(api.Carts), new(*app.Service)),
	cartshttp.NewHandler,
	cartsjobs.NewJobs,
	wire.Bind(new(cartsjobs.Expirer), new(*app.Service)),
	NewModule,
)
