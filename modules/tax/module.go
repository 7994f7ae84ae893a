// Package tax owns tax zones, rates and categories, calculation (EU VAT with VIES
// validation, reverse charge and OSS; US sales tax with economic nexus), OSS returns
// and the recording of orders' taxes. It is the module's composition root: ProviderSet
// wires the repository, the VIES client, the provider (tax.provider), the service
// (api.Tax), the HTTP handler, the order.created subscriber and the Module cmd lists.
package tax

import (
	"fmt"

	"github.com/google/wire"

	"github.com/gocommerce/commerce/modules/tax/adapters/builtin"
	taxevents "github.com/gocommerce/commerce/modules/tax/adapters/events"
	taxhttp "github.com/gocommerce/commerce/modules/tax/adapters/http"
	taxpg "github.com/gocommerce/commerce/modules/tax/adapters/postgres"
	"github.com/gocommerce/commerce/modules/tax/adapters/vies"
	"github.com/gocommerce/commerce/modules/tax/api"
	"github.com/gocommerce/commerce/modules/tax/app"
	"github.com/gocommerce/commerce/modules/tax/ports"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/modkit"
)

// Module is the tax module: its name, routes, migrations and subscription (orders'
// taxes recorded from order.created).
type Module struct{ modkit.Parts }

// NewModule builds the module.
func NewModule(h *taxhttp.Handler, s *taxevents.Subscriber) *Module {
	return &Module{modkit.NewParts(modkit.Spec{Name: "tax", Routes: h, OpenAPI: taxhttp.OpenAPI(),
		Migrations: Migrations(), Subscribe: s.Subscribe})}
}

// Migrations returns the module's migrations (tables and the shipped rates) without
// building the module.
func Migrations() db.MigrationSource { return taxpg.Migrations() }

// NewProvider chooses the tax provider of tax.provider: "builtin" (the default) is the
// module's own engine; no external service is wired yet, so another name stops start-up.
func NewProvider(cfg *config.Config) (ports.Provider, error) {
	switch cfg.Tax.Provider {
	case "", "builtin":
		return builtin.New(), nil
	default:
		return nil, fmt.Errorf("tax.provider: unknown provider %q (known: builtin)", cfg.Tax.Provider)
	}
}

// NewDeps builds the service's repository (on the database) and VIES client
// (tax.vies_url, tax.vies_timeout) next to the provider.
func NewDeps(cfg *config.Config, d *db.DB, p ports.Provider) app.Deps {
	return app.Deps{Repo: taxpg.NewRepository(d), VIES: vies.New(cfg), Provider: p}
}

// ProviderSet wires the module. Inputs: *config.Config, *zap.Logger, *db.DB,
// tx.Manager, clock.Clock. Outputs: *Module, *app.Service, api.Tax.
var ProviderSet = wire.NewSet(
	NewSettings,
	NewProvider,
	NewDeps,
	app.NewService, wire.Bind(new(api.Tax), new(*app.Service)),
	taxhttp.NewHandler,
	taxevents.NewSubscriber, wire.Bind(new(taxevents.OrderRecorder), new(*app.Service)),
	NewModule,
)

// NewSettings takes the module's slice of the configuration (tax.*).
func NewSettings(cfg *config.Config) app.Settings { return app.SettingsFrom(cfg) }
