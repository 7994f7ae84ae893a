// Package customers owns customer profiles. It is the composition root of the module:
// its ProviderSet wires the repository, the service (which implements api.Customers),
// the HTTP handler and the Module that cmd lists.
package customers

import (
	"github.com/google/wire"

	customershttp "github.com/gocommerce/commerce/modules/customers/adapters/http"
	customerspg "github.com/gocommerce/commerce/modules/customers/adapters/postgres"
	"github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/modules/customers/app"
	"github.com/gocommerce/commerce/modules/customers/ports"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/openapi"
)

// Module is the customers module: its name, routes and migrations.
type Module struct {
	handler *customershttp.Handler
}

// NewModule builds the module around its HTTP handler.
func NewModule(h *customershttp.Handler) *Module { return &Module{handler: h} }

// Name names the module.
func (m *Module) Name() string { return "customers" }

// RegisterRoutes mounts the module's endpoints.
func (m *Module) RegisterRoutes(r *httpx.Routes) { m.handler.RegisterRoutes(r) }

// Migrations returns the module's table migrations.
func (m *Module) Migrations() db.MigrationSource { return customerspg.Migrations() }

// OpenAPI returns the module's OpenAPI fragment (openapi.Documented).
func (m *Module) OpenAPI() openapi.Fragment {
	return openapi.Fragment{Module: "customers", Data: customershttp.OpenAPI()}
}

// Migrations returns the module's migrations without building the module (tests, tools).
func Migrations() db.MigrationSource { return customerspg.Migrations() }

// ProviderSet wires the module. Inputs: *db.DB, tx.Manager, events.Publisher,
// clock.Clock. Outputs: *Module, *app.Service and api.Customers.
var ProviderSet = wire.NewSet(
	customerspg.NewCustomerRepository,
	wire.Bind(new(ports.CustomerRepository), new(*customerspg.CustomerRepository)),
	app.NewService,
	wire.Bind(new(api.Customers), new(*app.Service)),
	customershttp.NewHandler,
	NewModule,
)
