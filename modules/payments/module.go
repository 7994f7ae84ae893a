// Package payments owns gateways (stripe, paypal, alipay, wechat_pay and the built-in
// test gateway), payments, refunds, saved payment methods and provider webhooks. It is
// the module's composition root: ProviderSet wires the gateways from payment.*
// configuration, the repositories, the service (api.Payments) and the HTTP handler.
package payments

import (
	"github.com/google/wire"
	"go.uber.org/zap"

	paymentsevents "github.com/gocommerce/commerce/modules/payments/adapters/events"
	"github.com/gocommerce/commerce/modules/payments/adapters/gateways"
	paymentshttp "github.com/gocommerce/commerce/modules/payments/adapters/http"
	paymentspg "github.com/gocommerce/commerce/modules/payments/adapters/postgres"
	"github.com/gocommerce/commerce/modules/payments/api"
	"github.com/gocommerce/commerce/modules/payments/app"
	"github.com/gocommerce/commerce/modules/payments/ports"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/modkit"
	"github.com/gocommerce/commerce/platform/tx"
)

// Module is the payments module: its name, routes, migrations and subscriptions.
type Module struct{ modkit.Parts }

// NewModule builds the module around its HTTP handler and event subscriber.
func NewModule(h *paymentshttp.Handler, s *paymentsevents.Subscriber) *Module {
	return &Module{modkit.NewParts(modkit.Spec{Name: "payments", Routes: h, OpenAPI: paymentshttp.OpenAPI(),
		Migrations: Migrations(), Subscribe: s.Subscribe})}
}

// Migrations returns the module's migrations without building the module (tests, tools).
func Migrations() db.MigrationSource { return paymentspg.Migrations() }

// NewGateways builds the enabled gateways of payment.*.
func NewGateways(cfg *config.Config) (*gateways.Registry, error) {
	return gateways.FromConfig(cfg.Payment)
}

// NewService builds the service on the module's stores.
func NewService(settings app.Settings, tm tx.Manager, gws ports.Gateways, d *db.DB, pub event.Publisher, clk clock.Clock, log *zap.Logger) *app.Service {
	return app.NewService(settings, tm, gws,
		paymentspg.NewPaymentRepository(d), paymentspg.NewRefundRepository(d), paymentspg.NewSavedMethodRepository(d),
		paymentspg.NewIdempotencyRepository(d), paymentspg.NewWebhookEventRepository(d), pub, clk, log)
}

// ProviderSet wires the module. Inputs: *config.Config, *zap.Logger, *db.DB,
// tx.Manager, event.Publisher, clock.Clock. Outputs: *Module, *app.Service and
// api.Payments (for orders, checkout and subscriptions). The module reads only the
// customers module's event names and payloads (customers/api), so it depends on no
// other module's service.
var ProviderSet = wire.NewSet(
	NewSettings,
	NewGateways, wire.Bind(new(ports.Gateways), new(*gateways.Registry)),
	NewService, wire.Bind(new(api.Payments), new(*app.Service)),
	paymentshttp.NewHandler,
	paymentsevents.NewSubscriber, wire.Bind(new(paymentsevents.MethodForgetter), new(*app.Service)),
	NewModule,
)

// NewSettings takes the module's slice of the configuration.
func NewSettings(cfg *config.Config) app.Settings {
	s := app.DefaultSettings()
	s.PublicURL = cfg.HTTP.PublicURL
	return s
}
