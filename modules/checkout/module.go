// Package checkout is the flow from cart to paid order: initiate (tax by address,
// shipping rates), shipping (the chosen rate) and complete (stock reservation, coupon
// usage, payment, order, cart conversion). It is the module's composition root:
// ProviderSet wires its stores, the adapters to the carts, inventory, orders, payments
// and coupons modules' api packages, the tax and shipping ports, the use cases, the
// HTTP handler, the payment-event subscriber, the expiry sweep and the Module.
package checkout

import (
	"github.com/google/wire"

	"github.com/gocommerce/commerce/modules/checkout/adapters/cartsapi"
	"github.com/gocommerce/commerce/modules/checkout/adapters/couponsapi"
	checkoutevents "github.com/gocommerce/commerce/modules/checkout/adapters/events"
	checkouthttp "github.com/gocommerce/commerce/modules/checkout/adapters/http"
	"github.com/gocommerce/commerce/modules/checkout/adapters/inventoryapi"
	checkoutjobs "github.com/gocommerce/commerce/modules/checkout/adapters/jobs"
	"github.com/gocommerce/commerce/modules/checkout/adapters/ordersapi"
	"github.com/gocommerce/commerce/modules/checkout/adapters/paymentsapi"
	checkoutpg "github.com/gocommerce/commerce/modules/checkout/adapters/postgres"
	"github.com/gocommerce/commerce/modules/checkout/adapters/shippingapi"
	"github.com/gocommerce/commerce/modules/checkout/adapters/taxapi"
	"github.com/gocommerce/commerce/modules/checkout/app"
	"github.com/gocommerce/commerce/modules/checkout/ports"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/modkit"
)

// Module is the checkout module: its name, routes, migrations, subscriptions and jobs.
type Module struct {
	modkit.Parts
	modkit.SubscribeFunc
	modkit.Work
	svc *app.Service
}

// NewModule builds the module.
func NewModule(s *app.Service, h *checkouthttp.Handler, sub *checkoutevents.Subscriber, j *checkoutjobs.Jobs) *Module {
	return &Module{Parts: modkit.NewParts("checkout", h, checkouthttp.OpenAPI()), SubscribeFunc: sub.Subscribe, Work: modkit.Work{Jobs: j}, svc: s}
}

// Migrations returns the module's table migrations.
func (m *Module) Migrations() db.MigrationSource { return Migrations() }

// Service is the module's use cases (cmd and end-to-end tests: the expiry sweep, the
// tax and shipping ports of a test).
func (m *Module) Service() *app.Service { return m.svc }

// Migrations returns the module's migrations without building the module (tests, tools).
func Migrations() db.MigrationSource { return checkoutpg.Migrations() }

// NewSettings takes the module's slice of the configuration.
func NewSettings(cfg *config.Config) app.Settings { return app.SettingsFrom(cfg) }

// RatesSet binds the tax and shipping ports to the tax and shipping modules' api.
var RatesSet = wire.NewSet(
	taxapi.NewAdapter,
	wire.Bind(new(ports.Tax), new(*taxapi.Adapter)),
	shippingapi.NewAdapter,
	wire.Bind(new(ports.Shipping), new(*shippingapi.Adapter)),
)

// ProviderSet wires the module. Inputs: *config.Config, *zap.Logger, *db.DB,
// tx.Manager, event.Publisher, clock.Clock, carts/api.Carts, inventory/api.Inventory,
// orders/api.Orders and api.Queries, payments/api.Payments, coupons/api.Coupons,
// tax/api.Tax, shipping/api.Shipping.
// Output: *Module.
var ProviderSet = wire.NewSet(
	NewSettings,
	RatesSet,
	checkoutpg.NewSessions,
	wire.Bind(new(ports.Sessions), new(*checkoutpg.Sessions)),
	checkoutpg.NewIdempotency,
	wire.Bind(new(ports.Idempotency), new(*checkoutpg.Idempotency)),
	wire.Struct(new(app.Stores), "*"),
	cartsapi.NewAdapter,
	wire.Bind(new(ports.Carts), new(*cartsapi.Adapter)),
	inventoryapi.NewAdapter,
	wire.Bind(new(ports.Inventory), new(*inventoryapi.Adapter)),
	ordersapi.NewAdapter,
	wire.Bind(new(ports.Orders), new(*ordersapi.Adapter)),
	paymentsapi.NewAdapter,
	wire.Bind(new(ports.Payments), new(*paymentsapi.Adapter)),
	couponsapi.NewAdapter,
	wire.Bind(new(ports.CouponUsage), new(*couponsapi.Adapter)),
	wire.Struct(new(app.Modules), "*"),
	app.NewService,
	checkouthttp.NewHandler,
	checkoutevents.NewSubscriber,
	wire.Bind(new(checkoutevents.Settler), new(*app.Service)),
	checkoutjobs.NewJobs,
	wire.Bind(new(checkoutjobs.Expirer), new(*app.Service)),
	NewModule,
)
