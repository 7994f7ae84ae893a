//go:build wireinject

package main

import (
	"github.com/google/wire"

	"github.com/gocommerce/commerce/modules/carts"
	"github.com/gocommerce/commerce/modules/catalog"
	catalogports "github.com/gocommerce/commerce/modules/catalog/ports"
	"github.com/gocommerce/commerce/modules/checkout"
	"github.com/gocommerce/commerce/modules/coupons"
	"github.com/gocommerce/commerce/modules/customers"
	"github.com/gocommerce/commerce/modules/identity"
	"github.com/gocommerce/commerce/modules/inventory"
	"github.com/gocommerce/commerce/modules/notifications"
	"github.com/gocommerce/commerce/modules/orders"
	"github.com/gocommerce/commerce/modules/payments"
	"github.com/gocommerce/commerce/modules/shipping"
	shippingports "github.com/gocommerce/commerce/modules/shipping/ports"
	"github.com/gocommerce/commerce/modules/statistics"
	"github.com/gocommerce/commerce/modules/subscriptions"
	"github.com/gocommerce/commerce/modules/tax"
	"github.com/gocommerce/commerce/modules/webhooks"
	"github.com/gocommerce/commerce/platform/adminui"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/jobs/jobsfx"
	"github.com/gocommerce/commerce/platform/log"
	"github.com/gocommerce/commerce/platform/metrics"
	"github.com/gocommerce/commerce/platform/openapi"
	"github.com/gocommerce/commerce/platform/ratelimit"
	"github.com/gocommerce/commerce/platform/redisx"
	"github.com/gocommerce/commerce/platform/tx"
)

var platformSet = wire.NewSet(
	log.Provide,
	db.Open,
	wire.Bind(new(tx.Manager), new(*db.DB)),
	redisx.Provide,
	clock.New,
	events.NewOutbox,
	wire.Bind(new(event.Publisher), new(*events.Outbox)),
	newRelay,
	newBus,
	jobsfx.ProviderSet,
	metrics.New,
	metrics.NewModule,
	adminui.NewModule,
	ratelimit.ProviderSet,
	openapi.NewModule,
	newOpenAPIDocument,
	newHealth,
	newServer,
	newMigrator,
)

// initApp assembles the whole process from its configuration.
func initApp(cfg *config.Config) (*App, func(), error) {
	wire.Build(
		platformSet,
		identity.ProviderSet,
		customers.ProviderSet,
		catalog.ProviderSet,
		inventory.ProviderSet,
		payments.ProviderSet,
		carts.ProviderSet,
		coupons.ProviderSet,
		orders.ProviderSet,
		tax.ProviderSet,
		shipping.ProviderSet,
		// Labels are stored where product images are (decision 0155).
		wire.Bind(new(shippingports.LabelStorage), new(catalogports.ImageStorage)),
		statistics.ProviderSet,
		checkout.ProviderSet,
		notifications.ProviderSet,
		webhooks.ProviderSet,
		subscriptions.ProviderSet,
		newModules,
		newSeeders,
		newApp,
	)
	return nil, nil, nil
}
