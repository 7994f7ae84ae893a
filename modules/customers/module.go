// Package customers owns customer profiles, addresses, segments, invites and privacy
// operations. It is the composition root of the module: its ProviderSet wires the
// repositories, the adapters to other modules, the service (api.Customers,
// api.AccountLinks, api.Segments), the HTTP handler, the order-event subscriber, the
// jobs and the Module that cmd lists.
package customers

import (
	"time"

	"github.com/google/wire"
	"go.uber.org/zap"

	carts "github.com/gocommerce/commerce/modules/carts/api"
	customersevents "github.com/gocommerce/commerce/modules/customers/adapters/events"
	"github.com/gocommerce/commerce/modules/customers/adapters/exportapi"
	customershttp "github.com/gocommerce/commerce/modules/customers/adapters/http"
	"github.com/gocommerce/commerce/modules/customers/adapters/identityapi"
	"github.com/gocommerce/commerce/modules/customers/adapters/ordersapi"
	customerspg "github.com/gocommerce/commerce/modules/customers/adapters/postgres"
	"github.com/gocommerce/commerce/modules/customers/adapters/statisticsapi"
	"github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/modules/customers/app"
	identity "github.com/gocommerce/commerce/modules/identity/api"
	notifications "github.com/gocommerce/commerce/modules/notifications/api"
	orders "github.com/gocommerce/commerce/modules/orders/api"
	statsapi "github.com/gocommerce/commerce/modules/statistics/api"
	subscriptions "github.com/gocommerce/commerce/modules/subscriptions/api"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/modkit"
)

// Module is the customers module: its name, routes, migrations, event subscriptions
// and jobs.
type Module struct{ modkit.Parts }

// NewModule builds the module.
func NewModule(h *customershttp.Handler, s *customersevents.Subscriber, j *Jobs) *Module {
	return &Module{modkit.NewParts(modkit.Spec{Name: "customers", Routes: h, OpenAPI: customershttp.OpenAPI(),
		Migrations: Migrations(), Subscribe: s.Subscribe, Jobs: j})}
}

// Migrations returns the module's migrations without building the module (tests, tools).
func Migrations() db.MigrationSource { return customerspg.Migrations() }

// TaskPurgeExpiredTokens is the hourly sweep that deletes expired invite and password
// reset tokens.
const TaskPurgeExpiredTokens = "customers:purge_expired_tokens"

// Jobs is the module's background work: the expired-token sweep.
type Jobs struct{ modkit.Sweep }

// NewJobs builds the sweep on the service.
func NewJobs(svc *app.Service, log *zap.Logger) *Jobs {
	return &Jobs{modkit.Sweep{Task: TaskPurgeExpiredTokens, Every: time.Hour, Run: svc.PurgeExpiredTokens,
		Log: log.Named("customers.jobs"), Done: "expired account tokens purged"}}
}

// NewStores builds the module's repositories on the database.
func NewStores(d *db.DB) app.Stores {
	return app.Stores{Customers: customerspg.NewCustomerRepository(d), Addresses: customerspg.NewAddressRepository(d),
		Tokens: customerspg.NewTokenRepository(d), Stats: customerspg.NewOrderStatsRepository(d),
		Segments: customerspg.NewSegmentRepository(d), Audit: customerspg.NewAuditRepository(d)}
}

// NewCollaborators reaches identity's credentials and the modules customers reads
// personal data from, each through its query side (orders.QuerySet, carts.QuerySet,
// notifications.QuerySet, subscriptions.QuerySet), which depends on none of customers'
// services: docs/decisions/0079, 0108.
func NewCollaborators(c identity.Credentials, o orders.Queries, cq carts.Queries, s subscriptions.Queries,
	n notifications.Queries) app.Collaborators {
	return app.Collaborators{Credentials: identityapi.NewAdapter(c), Orders: ordersapi.NewAdapter(o),
		Carts:         exportapi.NewSource(cq.ExportCarts, "cart", func(v carts.ExportedCart) string { return v.ID }),
		Subscriptions: exportapi.NewSource(s.ExportSubscriptions, "subscription", func(v subscriptions.ExportedSubscription) string { return v.ID }),
		Notifications: exportapi.NewSource(n.ExportNotifications, "notification", func(v notifications.Notification) string { return v.ID })}
}

// NewSegments is the module's api.Segments: the hand-made segments (the service) and
// the ones the statistics module computes (statistics/api.Segments, by name).
func NewSegments(svc *app.Service, computed statsapi.Segments) api.Segments {
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
	NewStores,
	NewCollaborators,
	app.NewService, wire.Bind(new(api.Customers), new(*app.Service)),
	wire.Bind(new(api.AccountLinks), new(*app.Service)), wire.Bind(new(api.Addresses), new(*app.Service)),
	NewSegments,
	customershttp.NewHandler,
	customersevents.NewSubscriber, wire.Bind(new(customersevents.OrderRecorder), new(*app.Service)),
	NewJobs,
	NewModule,
)

// NewSettings takes the module's slice of the configuration (token key from
// security.jwt.secret, link base from http.public_url).
func NewSettings(cfg *config.Config) app.Settings { return app.SettingsFrom(cfg) }
