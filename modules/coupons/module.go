// Package coupons owns coupons: administration, validation against carts, discount
// calculation and usage. It is the module's composition root: ProviderSet wires the
// repositories, the adapters to customers and carts, the service (api.Coupons), the
// HTTP handler, the order.created subscriber and the Module that cmd lists.
package coupons

import (
	"github.com/google/wire"

	"github.com/gocommerce/commerce/modules/coupons/adapters/cartsapi"
	"github.com/gocommerce/commerce/modules/coupons/adapters/customersapi"
	couponsevents "github.com/gocommerce/commerce/modules/coupons/adapters/events"
	couponshttp "github.com/gocommerce/commerce/modules/coupons/adapters/http"
	couponspg "github.com/gocommerce/commerce/modules/coupons/adapters/postgres"
	"github.com/gocommerce/commerce/modules/coupons/api"
	"github.com/gocommerce/commerce/modules/coupons/app"
	"github.com/gocommerce/commerce/modules/coupons/ports"
	customers "github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/modkit"
)

// Module is the coupons module: its name, routes, migrations and subscriptions.
type Module struct{ modkit.Parts }

// NewModule builds the module.
func NewModule(h *couponshttp.Handler, s *couponsevents.Subscriber) *Module {
	return &Module{modkit.NewParts(modkit.Spec{Name: "coupons", Routes: h, OpenAPI: couponshttp.OpenAPI(),
		Migrations: Migrations(), Subscribe: s.Subscribe})}
}

// Migrations returns the module's migrations without building the module (tests, tools).
func Migrations() db.MigrationSource { return couponspg.Migrations() }

// NewStores builds the module's repositories on the database.
func NewStores(d *db.DB) app.Stores {
	return app.Stores{Coupons: couponspg.NewCouponRepository(d), Usage: couponspg.NewUsageRepository(d)}
}

// NewCollaborators reaches customers (and their segments) through customers/api.
func NewCollaborators(c customers.Customers, s customers.Segments) app.Collaborators {
	return app.Collaborators{Customers: customersapi.NewAdapter(c, s)}
}

// ProviderSet wires the module. Inputs: *config.Config, *zap.Logger, *db.DB,
// tx.Manager, event.Publisher, clock.Clock, customers/api.Customers and
// customers/api.Segments (from customers.ProviderSet) and carts/api.Carts (from
// carts.ProviderSet; carts needs coupons' api.Coupons, which app.Service provides
// without carts, so the graph stays acyclic: only app.Validator, used by the HTTP
// handler, reads carts). Outputs: *Module, *app.Service, api.Coupons.
var ProviderSet = wire.NewSet(
	NewSettings,
	NewStores,
	NewCollaborators,
	cartsapi.NewAdapter, wire.Bind(new(ports.Carts), new(*cartsapi.Adapter)),
	app.NewService, wire.Bind(new(api.Coupons), new(*app.Service)),
	app.NewValidator,
	couponshttp.NewHandler,
	couponsevents.NewSubscriber, wire.Bind(new(couponsevents.OrderRecorder), new(*app.Service)),
	NewModule,
)

// NewSettings takes the module's slice of the configuration
// (coupons.allow_free_shipping_stacking).
func NewSettings(cfg *config.Config) app.Settings { return app.SettingsFrom(cfg) }
