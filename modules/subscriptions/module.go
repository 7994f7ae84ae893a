// Package subscriptions owns subscriptions, their invoices and dunning. It is the
// module's composition root: ProviderSet wires the repository, the adapters to the
// orders, payments, catalog, customers and notifications modules' api packages, the
// service, the HTTP handler, the provider-invoice subscriber and the billing jobs;
// QuerySet is the query side the customers module's data export reads.
package subscriptions

import (
	"github.com/google/wire"

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
	modkit.SubscribeFunc
	modkit.Work
	svc *app.Service
}

// NewModule builds the module.
func NewModule(s *app.Service, h *subshttp.Handler, sub *subsevents.Subscriber, j *subsjobs.Jobs) *Module {
	return &Module{Parts: modkit.NewParts("subscriptions", h, subshttp.OpenAPI()), SubscribeFunc: sub.Subscribe, Work: modkit.Work{Jobs: j}, svc: s}
}

// Migrations returns the module's table migrations.
func (m *Module) Migrations() db.MigrationSource { return Migrations() }

// Service is the module's use cases (cmd and end-to-end tests: the billing sweep).
func (m *Module) Service() *app.Service { return m.svc }

// Migrations returns the module's migrations without building the module (tests, tools).
func Migrations() db.MigrationSource { return subspg.Migrations() }

// NewSettings takes the module's slice of the configuration.
func NewSettings(cfg *config.Config) app.Settings { return app.SettingsFrom(cfg) }

// NewInterval is how often the billing sweep runs (subscriptions.billing_interval).
func NewInterval(cfg *config.Config) subsjobs.Interval {
	return subsjobs.Interval(cfg.Subscriptions.BillingInterval)
}

// QuerySet provides the read side alone: api.Queries from the module's own store
// (the customers module's export reads it; it depends on no other module, so the
// graph stays acyclic: docs/decisions/0108).
var QuerySet = wire.NewSet(
	subspg.NewRepository,
	wire.Bind(new(ports.Repository), new(*subspg.Repository)),
	app.NewQueryService,
	wire.Bind(new(api.Queries), new(*app.QueryService)),
)

// ProviderSet wires the module. Inputs: *config.Config, *zap.Logger, *db.DB,
// tx.Manager, event.Publisher, jobs.Enqueuer, clock.Clock, orders/api.Orders and
// api.Queries, payments/api.Payments, catalog/api.Catalog, customers/api.Customers and
// notifications/api.Notifications. Outputs: *Module and api.Queries (QuerySet, which
// the customers module's export reads).
var ProviderSet = wire.NewSet(
	QuerySet,
	NewSettings,
	NewInterval,
	ordersapi.NewAdapter,
	wire.Bind(new(ports.Orders), new(*ordersapi.Adapter)),
	paymentsapi.NewAdapter,
	wire.Bind(new(ports.Payments), new(*paymentsapi.Adapter)),
	catalogapi.NewAdapter,
	wire.Bind(new(ports.Catalog), new(*catalogapi.Adapter)),
	customersapi.NewAdapter,
	wire.Bind(new(ports.Customers), new(*customersapi.Adapter)),
	notificationsapi.NewAdapter,
	wire.Bind(new(ports.Notifier), new(*notificationsapi.Adapter)),
	wire.Struct(new(app.Modules), "*"),
	app.NewService,
	subshttp.NewHandler,
	subsevents.NewSubscriber,
	wire.Bind(new(subsevents.Applier), new(*app.Service)),
	subsjobs.NewJobs,
	wire.Bind(new(subsjobs.Biller), new(*app.Service)),
	NewModule,
)
