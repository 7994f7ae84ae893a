// Package notifications owns notifications, templates, channels (email, sms, push,
// webhook, in_app), sending, bulk sends, statistics and the store's own messages. It
// is the module's composition root: ProviderSet wires the repositories, the channels
// (SMTP or the file outbox, the Twilio-style SMS API, FCM, signed webhooks, in-app),
// the customers adapter, the service (api.Notifications), the HTTP handler, the event
// subscriber and the jobs; QuerySet is the query side customers' data export reads.
package notifications

import (
	"github.com/google/wire"

	carts "github.com/gocommerce/commerce/modules/carts/api"
	"github.com/gocommerce/commerce/modules/notifications/adapters/cartsapi"
	"github.com/gocommerce/commerce/modules/notifications/adapters/channels"
	"github.com/gocommerce/commerce/modules/notifications/adapters/customersapi"
	notificationsevents "github.com/gocommerce/commerce/modules/notifications/adapters/events"
	notificationshttp "github.com/gocommerce/commerce/modules/notifications/adapters/http"
	notificationsjobs "github.com/gocommerce/commerce/modules/notifications/adapters/jobs"
	notificationspg "github.com/gocommerce/commerce/modules/notifications/adapters/postgres"
	"github.com/gocommerce/commerce/modules/notifications/api"
	"github.com/gocommerce/commerce/modules/notifications/app"
	"github.com/gocommerce/commerce/modules/notifications/ports"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/modkit"
)

// Module is the notifications module: its name, routes, migrations, subscriptions
// and jobs.
type Module struct{ modkit.Parts }

// NewModule builds the module (without subscriptions or jobs when s or j is nil).
func NewModule(h *notificationshttp.Handler, s *notificationsevents.Subscriber, j *notificationsjobs.Jobs) *Module {
	spec := modkit.Spec{Name: "notifications", Routes: h, OpenAPI: notificationshttp.OpenAPI(), Migrations: Migrations()}
	if s != nil {
		spec.Subscribe = s.Subscribe
	}
	if j != nil {
		spec.Jobs = j
	}
	return &Module{modkit.NewParts(spec)}
}

// Migrations returns the module's migrations without building the module (tests, tools).
func Migrations() db.MigrationSource { return notificationspg.Migrations() }

// NewChannels builds the channels from notifications.* (email to the file outbox
// under data_dir when no SMTP host is set).
func NewChannels(cfg *config.Config) app.Channels { return channels.New(cfg) }

// NewStores builds the module's repositories: the notifications one (QuerySet's), on
// the database the templates and the abandoned-cart reminders, and the carts module's
// idle carts (its read side).
func NewStores(d *db.DB, n ports.NotificationRepository, cq carts.Queries) app.Stores {
	return app.Stores{Notifications: n, Templates: notificationspg.NewTemplateRepository(d),
		Carts: notificationspg.NewCartRepository(d), IdleCarts: cartsapi.NewAdapter(cq)}
}

// QuerySet is the query side: it depends on the database only, so customers (which
// the command side depends on) can read it for its data export. It is part of
// ProviderSet.
var QuerySet = wire.NewSet(
	notificationspg.NewNotificationRepository,
	wire.Bind(new(ports.NotificationRepository), new(*notificationspg.NotificationRepository)),
	app.NewQueries, wire.Bind(new(api.Queries), new(*app.Queries)),
)

// ProviderSet wires the command side. Inputs: *config.Config, *zap.Logger, *db.DB,
// tx.Manager, jobs.Enqueuer, clock.Clock, customers/api.Customers,
// customers/api.AccountLinks and carts/api.Queries. Outputs: *Module,
// *app.Service and api.Notifications.
var ProviderSet = wire.NewSet(
	QuerySet,
	NewSettings,
	NewChannels,
	NewStores,
	customersapi.NewAdapter, wire.Bind(new(ports.Customers), new(*customersapi.Adapter)),
	app.NewService, wire.Bind(new(api.Notifications), new(*app.Service)),
	notificationshttp.NewHandler,
	notificationsevents.NewSubscriber,
	notificationsjobs.NewJobs,
	NewModule,
)

// NewSettings takes the module's slice of the configuration.
func NewSettings(cfg *config.Config) app.Settings { return app.SettingsFrom(cfg) }
