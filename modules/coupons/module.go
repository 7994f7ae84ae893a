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
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/modkit"
)

// Module is the coupons module: its name, routes, migrations and subscriptions.
type Module struct {
	modkit.Parts
	modkit.SubscribeFunc
}

// NewModule builds the module.
func NewModule(h *couponshttp.Handler, s *couponsevents.Subscriber) *Module {
	return &Module{Parts: modkit.NewParts("coupons", h, couponshttp.OpenAPI()), SubscribeFunc: s.Subscribe}
}

// Migrations returns the module's table migrations.
func (m *Module) Migrations() db.MigrationSource { return Migrations() }

// Migrations returns the module's migrations without building the module (tests, tools).
func Migrations() db.MigrationSource { return couponspg.Migrations() }

// NewSettings takes the module's slice of the configuration
// (coupons.allow_free_shipping_stacking).
func NewSettings(cfg *config.Config) app.Settings { return app.SettingsFrom(cfg) }

// ProviderSet wires the module. Inputs: *config.Config, *zap.Logger, *db.DB,
// tx.Manager, event.Publisher, clock.Clock, customers/api.Customers and
// customers/api.Segments (from customers.ProviderSet) and carts/api.Carts (from
// carts.ProviderSet; carts needs coupons' api.Coupons, which app.Service provides
// without carts, so the graph stays acyclic: only app.Validator, used by the HTTP
// handler, reads carts). Outputs: *Module, *app.Service, api.Coupons.
var ProviderSet = wire.NewSet(
	NewSettings,
	couponspg.NewCouponRepository,
	wire.Bind(new(ports.CouponRepository), new(*couponspg.CouponRepository)),
	couponspg.NewUsageRepository,
	wire.Bind(new(ports.UsageRepository), new(*couponspg.UsageRepository)),
	wire.Struct(new(app.Stores), "*"),
	customersapi.NewAdapter,
	wire.Bind(new(ports.Customers), new(*customersapi.Adapter)),
	cartsapi.NewAdapter,
	wire.Bind(new(ports.Carts), new(*cartsapi.Adapter)),
	wire.Struct(new(app.Collaborators), "*"),
	app.NewService,
	wire.Bind(new(api.Coupons), new(*app.Service)),
	app.NewValidator,
	couponshttp.NewHandler,
	couponsevents.NewSubscriber,
	wire.Bind(new(couponsevents.OrderRecorder), new(*app.Service)),
	NewModule,
)
