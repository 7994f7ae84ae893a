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
	catalog "github.com/gocommerce/commerce/modules/catalog/api"
	coupons "github.com/gocommerce/commerce/modules/coupons/api"
	customers "github.com/gocommerce/commerce/modules/customers/api"
	tax "github.com/gocommerce/commerce/modules/tax/api"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/modkit"
)

// Module is the carts module: its name, routes, migrations and jobs (the hourly
// expiry sweep, carts:expire).
type Module struct{ modkit.Parts }

// NewModule builds the module.
func NewModule(h *cartshttp.Handler, j *cartsjobs.Jobs) *Module {
	return &Module{modkit.NewParts(modkit.Spec{Name: "carts", Routes: h, OpenAPI: cartshttp.OpenAPI(),
		Migrations: Migrations(), Jobs: j})}
}

// Migrations returns the module's migrations without building the module (tests, tools).
func Migrations() db.MigrationSource { return cartspg.Migrations() }

// NewCollaborators reaches the catalog, coupons, customers and tax modules through
// their api, and offers no automatic discounts: no module has them yet. (Shipping needs
// no port: checkout sets the chosen rate through api.Carts.ChooseShipping, docs/decisions/0175.)
func NewCollaborators(c catalog.Catalog, cp coupons.Coupons, a customers.Addresses, t tax.Tax) app.Collaborators {
	return app.Collaborators{Catalog: catalogapi.NewAdapter(c), Coupons: couponsapi.NewAdapter(cp), Tax: taxapi.NewAdapter(t),
		AutomaticDiscounts: none.NewAutomaticDiscounts(), Addresses: customersapi.NewAdapter(a)}
}

// QuerySet provides the read side alone: api.Queries (and *app.QueryService) from the
// module's own store. It is part of ProviderSet; the customers module's export
// source for carts depends on api.Queries, which keeps the graph acyclic (the command service
// depends on customers' addresses, the query service on nothing of customers':
// docs/decisions/0108, as orders.QuerySet does for orders).
var QuerySet = wire.NewSet(
	cartspg.NewConfiguredRepository, wire.Bind(new(ports.CartRepository), new(*cartspg.CartRepository)),
	app.NewQueryService, wire.Bind(new(api.Queries), new(*app.QueryService)),
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
	NewCollaborators,
	app.NewService, wire.Bind(new(api.Carts), new(*app.Service)),
	cartshttp.NewHandler,
	cartsjobs.NewJobs, wire.Bind(new(cartsjobs.Expirer), new(*app.Service)),
	NewModule,
)

// NewSettings takes the module's slice of the configuration (carts.expiry_days).
func NewSettings(cfg *config.Config) app.Settings { return app.SettingsFrom(cfg) }
