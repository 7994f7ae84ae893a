// Package checkout is the flow from cart to paid order: initiate (tax by address,
// shipping rates), shipping (the chosen rate) and complete (stock reservation, coupon
// usage, payment, order, cart conversion). It is the module's composition root:
// ProviderSet wires its stores, the adapters to the carts, inventory, orders, payments,
// coupons and catalog modules' api packages, the tax and shipping ports, the use cases, the
// HTTP handler, the payment-event subscriber, the expiry sweep and the Module.
package checkout

import (
	"github.com/google/wire"

	carts "github.com/gocommerce/commerce/modules/carts/api"
	catalog "github.com/gocommerce/commerce/modules/catalog/api"
	"github.com/gocommerce/commerce/modules/checkout/adapters/cartsapi"
	"github.com/gocommerce/commerce/modules/checkout/adapters/catalogapi"
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
	coupons "github.com/gocommerce/commerce/modules/coupons/api"
	inventory "github.com/gocommerce/commerce/modules/inventory/api"
	orders "github.com/gocommerce/commerce/modules/orders/api"
	payments "github.com/gocommerce/commerce/modules/payments/api"
	shipping "github.com/gocommerce/commerce/modules/shipping/api"
	tax "github.com/gocommerce/commerce/modules/tax/api"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/modkit"
)

// Module is the checkout module: its name, routes, migrations, subscriptions and jobs.
type Module struct {
	modkit.Parts
	svc *app.Service
}

// NewModule builds the module.
func NewModule(s *app.Service, h *checkouthttp.Handler, sub *checkoutevents.Subscriber, j *checkoutjobs.Jobs) *Module {
	return &Module{Parts: modkit.NewParts(modkit.Spec{Name: "checkout", Routes: h, OpenAPI: checkouthttp.OpenAPI(),
		Migrations: Migrations(), Subscribe: sub.Subscribe, Jobs: j}), svc: s}
}

// Service is the module's use cases (cmd and end-to-end tests: the expiry sweep, the
// tax and shipping ports of a test).
func (m *Module) Service() *app.Service { return m.svc }

// Migrations returns the module's migrations without building the module (tests, tools).
func Migrations() db.MigrationSource { return checkoutpg.Migrations() }

// NewStores builds the module's own tables on the database.
func NewStores(d *db.DB) app.Stores {
	return app.Stores{Sessions: checkoutpg.NewSessions(d), Idempotency: checkoutpg.NewIdempotency(d)}
}

// NewModules reaches the carts, inventory, orders, payments, coupons, tax, shipping
// and catalog modules through their api packages.
func NewModules(c carts.Carts, i inventory.Inventory, o orders.Orders, q orders.Queries, p payments.Payments,
	cp coupons.Coupons, t tax.Tax, s shipping.Shipping, cat catalog.Catalog) app.Modules {
	return app.Modules{Carts: cartsapi.NewAdapter(c), Inventory: inventoryapi.NewAdapter(i),
		Orders: ordersapi.NewAdapter(o, q), Payments: paymentsapi.NewAdapter(p), Coupons: couponsapi.NewAdapter(cp),
		Tax: taxapi.NewAdapter(t), Shipping: shippingapi.NewAdapter(s), Catalog: catalogapi.NewAdapter(cat)}
}

// ProviderSet wires the module. Inputs: *config.Config, *zap.Logger, *db.DB,
// tx.Manager, event.Publisher, clock.Clock and the api of the modules NewModules
// reaches. Output: *Module.
var ProviderSet = wire.NewSet(
	NewSettings,
	NewStores,
	NewModules,
	app.NewService,
	checkouthttp.NewHandler,
	checkoutevents.NewSubscriber, wire.Bind(new(checkoutevents.Settler), new(*app.Service)),
	checkoutjobs.NewJobs, wire.Bind(new(checkoutjobs.Expirer), new(*app.Service)),
	NewModule,
)

// NewSettings takes the module's slice of the configuration.
func NewSettings(cfg *config.Config) app.Settings { return app.SettingsFrom(cfg) }
