// Package subscriptions owns subscriptions, their invoices and dunning. It is the
// module's composition root: ProviderSet wires the repository, the adapters to the
// orders, payments, catalog, customers and notifications modules' api packages, the
// service, the HTTP handler, the provider-invoice subscriber and the billing jobs;
// QuerySet is the query side the customers module's data export reads.
package subscriptions

import (
	"github.com/google/wire"

	catalog "github.com/gocommerce/commerce/modules/catalog/api"
	customers "github.com/gocommerce/commerce/modules/customers/api"
	notifications "github.com/gocommerce/commerce/modules/notifications/api"
	orders "github.com/gocommerce/commerce/modules/orders/api"
	payments "github.com/gocommerce/commerce/modules/payments/api"
	"github.com/gocommerce/commerce/modules/subscriptions/adapters/catalogapi"
	"github.com/gocommerce/commerce/modules/subscriptions/adapters/customersapi"
	subsevents "github.com/gocommerce/commerce/modules/subscriptions/adapters/events"
	subshttp "github.com/gocommerce/commerce/modules/subscriptions/adapters/http"
	subsjobs "github.com/gocommerce/commerce/modules/subscriptions/adapters/jobs"
	"github.com/gocommerce/commerce/modules/subscriptions/adapters/notificationsapi"
	"github.com/gocommerce/commerce/modules/subscriptions/adapters/ordersapi"
	"github.com/gocommerce/commerce/modules/subscriptions/adapters/paymentsapi"
	subspg "github.com/gocommerce/commerce/modules/subscriptions/adapters/postgres"
	"github.com/gocommerce/commerce/modules/subscriptions/api"
	"github.com/gocommerce/commerce/modules/subscriptions/app"
	"github.com/gocommerce/commerce/modules/subscriptions/ports"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/modkit"
)

// Module is the subscriptions module: its name, routes, migrations, subscriptions and jobs.
type Module struct {
	modkit.Parts
	svc *app.Service
}

// NewModule builds the module.
func NewModule(s *app.Service, h *subshttp.Handler, sub *subsevents.Subscriber, j *subsjobs.Jobs) *Module {
	return &Module{Parts: modkit.NewParts(modkit.Spec{Name: "subscriptions", Routes: h, OpenAPI: subshttp.OpenAPI(),
		Migrations: Migrations(), Subscribe: sub.Subscribe, Jobs: j}), svc: s}
}

// Service is the module's use cases (cmd and end-to-end tests: the billing sweep).
func (m *Module) Service() *app.Service { return m.svc }

// Migrations returns the module's migrations without building the module (tests, tools).
func Migrations() db.MigrationSource { return subspg.Migrations() }

// NewModules reaches the payments, orders, catalog, customers and notifications
// modules through their api packages.
func NewModules(p payments.Payments, o orders.Orders, q orders.Queries, c catalog.Catalog, cu customers.Customers,
	n notifications.Notifications) app.Modules {
	return app.Modules{Payments: paymentsapi.NewAdapter(p), Orders: ordersapi.NewAdapter(o, q),
		Catalog: catalogapi.NewAdapter(c), Customers: customersapi.NewAdapter(cu), Notifier: notificationsapi.NewAdapter(n)}
}

// QuerySet provides the read side alone: api.Queries from the module's own store
// (the customers module's export reads it; it depends on no other module, so the
// graph stays acyclic: docs/decisions/0108).
var QuerySet = wire.NewSet(
	subspg.NewRepository, wire.Bind(new(ports.Repository), new(*subspg.Repository)),
	app.NewQueryService, wire.Bind(new(api.Queries), new(*app.QueryService)),
)

// ProviderSet wires the module. Inputs: *config.Config, *zap.Logger, *db.DB,
// tx.Manager, event.Publisher, jobs.Enqueuer, clock.Clock and the api of the modules
// NewModules reaches. Outputs: *Module and api.Queries (QuerySet, which the customers
// module's export reads).
var ProviderSet = wire.NewSet(
	QuerySet,
	NewSettings,
	NewModules,
	app.NewService,
	subshttp.NewHandler,
	subsevents.NewSubscriber, wire.Bind(new(subsevents.Applier), new(*app.Service)),
	subsjobs.NewJobs, wire.Bind(new(subsjobs.Biller), new(*app.Service)),
	NewModule,
)

// NewSettings takes the module's slice of the configuration.
func NewSettings(cfg *config.Config) app.Settings { return app.SettingsFrom(cfg) }
