// Package webhooks owns outbound webhooks: endpoints, the signed deliveries of every
// committed event to the endpoints subscribed to its type, retries with backoff and
// jitter, redelivery, and the address policy that keeps deliveries off private
// networks in production. It is the module's composition root: ProviderSet wires the
// repositories, the sender, the service, the HTTP handler, the "*" subscriber and the
// delivery jobs.
package webhooks

import (
	"net"

	"github.com/google/wire"

	webhooksevents "github.com/gocommerce/commerce/modules/webhooks/adapters/events"
	webhookshttp "github.com/gocommerce/commerce/modules/webhooks/adapters/http"
	webhooksjobs "github.com/gocommerce/commerce/modules/webhooks/adapters/jobs"
	webhookspg "github.com/gocommerce/commerce/modules/webhooks/adapters/postgres"
	"github.com/gocommerce/commerce/modules/webhooks/adapters/sender"
	"github.com/gocommerce/commerce/modules/webhooks/app"
	"github.com/gocommerce/commerce/modules/webhooks/ports"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/modkit"
)

// Module is the webhooks module: its name, routes, migrations, subscription and jobs.
type Module struct{ modkit.Parts }

// NewModule builds the module.
func NewModule(h *webhookshttp.Handler, s *webhooksevents.Subscriber, j *webhooksjobs.Jobs) *Module {
	return &Module{modkit.NewParts(modkit.Spec{Name: "webhooks", Routes: h, OpenAPI: webhookshttp.OpenAPI(),
		Migrations: Migrations(), Subscribe: s.Subscribe, Jobs: j})}
}

// Migrations returns the module's migrations without building the module (tests, tools).
func Migrations() db.MigrationSource { return webhookspg.Migrations() }

// NewResolver is the system resolver.
func NewResolver() ports.Resolver { return net.DefaultResolver }

// NewSender builds the HTTP sender under the settings' address policy.
func NewSender(s app.Settings, r ports.Resolver) (*sender.Sender, error) {
	policy, err := app.NewPolicy(s)
	if err != nil {
		return nil, err
	}
	return sender.New(policy, r), nil
}

// ProviderSet wires the module. Inputs: *config.Config, *zap.Logger, *db.DB,
// tx.Manager, event.Publisher, jobs.Enqueuer, clock.Clock. Outputs: *Module and
// *app.Service.
var ProviderSet = wire.NewSet(
	NewSettings,
	NewResolver,
	NewSender, wire.Bind(new(ports.Sender), new(*sender.Sender)),
	webhookspg.NewEndpointRepository, wire.Bind(new(ports.EndpointRepository), new(*webhookspg.EndpointRepository)),
	webhookspg.NewDeliveryRepository, wire.Bind(new(ports.DeliveryRepository), new(*webhookspg.DeliveryRepository)),
	app.NewService, wire.Bind(new(webhooksevents.Fanout), new(*app.Service)),
	webhookshttp.NewHandler,
	webhooksevents.NewSubscriber,
	webhooksjobs.NewJobs,
	NewModule,
)

// NewSettings takes the module's slice of the configuration.
func NewSettings(cfg *config.Config) app.Settings { return app.SettingsFrom(cfg) }
