// Package customers owns customer profiles, addresses, segments, invites and privacy
// operations. It is the composition root of the module: its ProviderSet wires the
// repositories, the adapters to other modules, the service (api.Customers,
// api.AccountLinks, api.Segments), the HTTP handler, the order-event subscriber, the
// jobs and the Module that cmd lists.
package customers

import (
	"github.com/google/wire"

	"github.com/gocommerce/commerce/modules/customers/adapters/cartsapi"
	customersevents "github.com/gocommerce/commerce/modules/customers/adapters/events"
	customershttp "github.com/gocommerce/commerce/modules/customers/adapters/http"
	"github.com/gocommerce/commerce/modules/customers/adapters/identityapi"
	customersjobs "github.com/gocommerce/commerce/modules/customers/adapters/jobs"
	"github.com/gocommerce/commerce/modules/customers/adapters/notificationsapi"
	"github.com/gocommerce/commerce/modules/customers/adapters/ordersapi"
	customerspg "github.com/gocommerce/commerce/modules/customers/adapters/postgres"
	"github.com/gocommerce/commerce/modules/customers/adapters/statisticsapi"
	"github.com/gocommerce/commerce/modules/customers/adapters/subscriptionsapi"
	"github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/modules/customers/app"
	"github.com/gocommerce/commerce/modules/customers/ports"
	statsapi "github.com/gocommerce/commerce/modules/statistics/api"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/modkit"
)

// Module is the customers module: its name, routes, migrations, event subscriptions
// and jobs.
type Module struct {
	modkit.Parts
	modkit.SubscribeFunc
	modkit.Work
}

// NewModule builds the module.
func NewModule(h *customershttp.Handler, s *customersevents.Subscriber, j *customersjobs.Jobs) *Module {
	return &Module{Parts: modkit.NewParts("customers", h, customershttp.OpenAPI()), SubscribeFunc: s.Subscribe, Work: modkit.Work{Jobs: j}}
}

// Migrations returns the module's table migrations.
func (m *Module) Migrations() db.MigrationSource { return Migrations() }

// Migrations returns the module's migrations without building the module (tests, tools).
func Migrations() db.MigrationSource { return customerspg.Migrations() }

// NewSettings takes the module's slice of the configuration (token key from
// security.jwt.secret, link base from http.public_url).
func NewSettings(cfg *config.Config) app.Settings { return app.SettingsFrom(cfg) }

// Repositories wires the module's stores.
var Repositories = wire.NewSet(
	customerspg.NewCustomerRepository,
	wire.Bind(new(ports.CustomerRepository), new(*customerspg.CustomerRepository)),
	customerspg.NewAddressRepository,
	wire.Bind(new(ports.AddressRepository), new(*customerspg.AddressRepository)),
	customerspg.NewTokenRepository,
	wire.Bind(new(ports.TokenRepository), new(*customerspg.TokenRepository)),
	customerspg.NewOrderStatsRepository,
	wire.Bind(new(ports.OrderStatsRepository), new(*customerspg.OrderStatsRepository)),
	customerspg.NewSegmentRepository,
	wire.Bind(new(ports.SegmentRepository), new(*customerspg.SegmentRepository)),
	customerspg.NewAuditRepository,
	wire.Bind(new(ports.AuditRepository), new(*customerspg.AuditRepository)),
	wire.Struct(new(app.Stores), "*"),
)

// DefaultDataSources binds the ports of the modules customers reads personal data
// from: orders through adapters/ordersapi (on orders/api.Queries), carts through
// adapters/cartsapi (on carts/api.Queries), notifications through
// adapters/notificationsapi (on notifications/api.Queries), and subscriptions through
// adapters/subscriptionsapi (on subscriptions/api.Queries, subscriptions.QuerySet,
// which depends on none of customers' services: docs/decisions/0079, 0108).
var DefaultDataSources = wire.NewSet(
	ordersapi.NewAdapter,
	wire.Bind(new(ports.Orders), new(*ordersapi.Adapter)),
	cartsapi.NewAdapter,
	wire.Bind(new(ports.Carts), new(*cartsapi.Adapter)),
	subscriptionsapi.NewAdapter,
	wire.Bind(new(ports.Subscriptions), new(*subscriptionsapi.Adapter)),
	notificationsapi.NewAdapter,
	wire.Bind(new(ports.Notifications), new(*notificationsapi.Adapter)),
)

// NewSegments is the module's api.Segments: the hand-made segments (the service) and
// the ones the statistics module computes (statistics/api.Segments, by name).
func NewSegments(svc *app.Service, computed statsapi.Segments) *statisticsapi.Segments {
	return statisticsapi.NewSegments(svc, computed)
}

// ProviderSet wires the module. Inputs: *config.Config, *zap.Logger, *db.DB,
// tx.Manager, event.Publisher, clock.Clock, identity/api.Credentials (from
// identity.ProviderSet), orders/api.Queries (orders.QuerySet), carts/api.Queries
// (carts.QuerySet), notifications/api.Queries (notifications.QuerySet),
// subscriptions/api.Queries (subscriptions.QuerySet) and statistics/api.Segments
// (statistics.ProviderSet); none of them depends on customers, so the graph stays
// acyclic.
// Outputs: *Module, *app.Service, api.Customers, api.AccountLinks, api.Segments,
// api.Addresses.
var ProviderSet = wire.NewSet(
	NewSettings,
	Repositories,
	DefaultDataSources,
	identityapi.NewAdapter,
	wire.Bind(new(ports.Credentials), new(*identityapi.Adapter)),
	wire.Struct(new(app.Collaborators), "*"),
	app.NewService,
	wire.Bind(new(api.Customers), new(*app.Service)),
	wire.Bind(new(api.AccountLinks), new(*app.Service)),
	NewSegments,
	wire.Bind(new(api.Segments), new(*statisticsapi.Segments)),
	wire.Bind(new(api.Addresses), new(*app.Service)),
	customershttp.NewHandler,
	customersevents.NewSubscriber,
	wire.Bind(new(customersevents.OrderRecorder), new(*app.Service)),
	customersjobs.NewJobs,
	wire.Bind(new(customersjobs.TokenPurger), new(*app.Service)),
	NewModule,
)
