// Package identity owns credentials, staff users, JWTs, API keys and scopes. It is the
// module's composition root: ProviderSet wires repositories, adapters, the service
// (api.Identity), the authenticator (auth.Authenticator) and the HTTP handler.
package identity

import (
	"github.com/google/wire"
	goredis "github.com/redis/go-redis/v9"
	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/identity/adapters/customersapi"
	identityhttp "github.com/gocommerce/commerce/modules/identity/adapters/http"
	identityjwt "github.com/gocommerce/commerce/modules/identity/adapters/jwt"
	identitypg "github.com/gocommerce/commerce/modules/identity/adapters/postgres"
	identityredis "github.com/gocommerce/commerce/modules/identity/adapters/redis"
	"github.com/gocommerce/commerce/modules/identity/api"
	"github.com/gocommerce/commerce/modules/identity/app"
	"github.com/gocommerce/commerce/modules/identity/ports"
	"github.com/gocommerce/commerce/platform/auth"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/openapi"
)

// Module is the identity module: its name, routes and migrations.
type Module struct {
	handler *identityhttp.Handler
}

// NewModule builds the module around its HTTP handler.
func NewModule(h *identityhttp.Handler) *Module { return &Module{handler: h} }

// Name names the module.
func (m *Module) Name() string { return "identity" }

// RegisterRoutes mounts the authentication endpoints.
func (m *Module) RegisterRoutes(r *httpx.Routes) { m.handler.RegisterRoutes(r) }

// Migrations returns the module's table migrations.
func (m *Module) Migrations() db.MigrationSource { return identitypg.Migrations() }

// OpenAPI returns the module's OpenAPI fragment (openapi.Documented).
func (m *Module) OpenAPI() openapi.Fragment {
	return openapi.Fragment{Module: "identity", Data: identityhttp.OpenAPI()}
}

// Migrations returns the module's migrations without building the module (tests, tools).
func Migrations() db.MigrationSource { return identitypg.Migrations() }

// ProviderSet wires the module. Inputs: *config.Config, *zap.Logger, *db.DB,
// tx.Manager, clock.Clock, *redis.Client (nil without Redis) and customers/api.Customers
// (from customers.ProviderSet). Outputs: *Module, api.Identity (*app.Service),
// auth.Authenticator (*app.Authenticator, whose cleanup stops its background work) and
// api.Credentials (*app.CredentialService, which does not depend on customers: the
// customers module consumes it, so the graph stays acyclic).
var ProviderSet = wire.NewSet(
	NewSettings,
	identitypg.NewCredentialRepository,
	wire.Bind(new(ports.CredentialRepository), new(*identitypg.CredentialRepository)),
	app.NewCredentialService,
	wire.Bind(new(api.Credentials), new(*app.CredentialService)),
	identitypg.NewStaffRepository,
	wire.Bind(new(ports.StaffRepository), new(*identitypg.StaffRepository)),
	identitypg.NewAPIKeyRepository,
	wire.Bind(new(ports.APIKeyRepository), new(*identitypg.APIKeyRepository)),
	customersapi.NewAdapter,
	wire.Bind(new(ports.Customers), new(*customersapi.Adapter)),
	identityjwt.NewTokens,
	wire.Bind(new(ports.Tokens), new(*identityjwt.Tokens)),
	NewInvalidations,
	wire.Bind(new(ports.KeyInvalidations), new(*identityredis.Invalidations)),
	app.NewKeyCache,
	app.NewService,
	wire.Bind(new(api.Identity), new(*app.Service)),
	app.NewAuthenticator,
	wire.Bind(new(auth.Authenticator), new(*app.Authenticator)),
	identityhttp.NewHandler,
	NewModule,
)

// NewSettings takes identity's slice of the configuration.
func NewSettings(cfg *config.Config) app.Settings { return app.SettingsFrom(cfg) }

// NewInvalidations builds the cross-process API key invalidation channel (Redis
// pub/sub; inert when rdb is nil).
func NewInvalidations(rdb *goredis.Client, log *zap.Logger) *identityredis.Invalidations {
	return identityredis.NewInvalidations(rdb, log)
}
