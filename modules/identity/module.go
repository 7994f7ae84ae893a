// Package identity owns credentials, staff users, JWTs, API keys and scopes. It is the
// module's composition root: ProviderSet wires repositories, adapters, the service
// (api.Identity), the authenticator (auth.Authenticator) and the HTTP handler.
package identity

import (
	"context"

	"github.com/google/wire"
	goredis "github.com/redis/go-redis/v9"
	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/identity/adapters/customersapi"
	"github.com/gocommerce/commerce/modules/identity/adapters/filesignal"
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
	"github.com/gocommerce/commerce/platform/modkit"
)

// Module is the identity module: its name, routes and migrations.
type Module struct{ modkit.Parts }

// NewModule builds the module around its HTTP handler.
func NewModule(h *identityhttp.Handler) *Module {
	return &Module{modkit.NewParts(modkit.Spec{Name: "identity", Routes: h, OpenAPI: identityhttp.OpenAPI(),
		Migrations: Migrations()})}
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
	identitypg.NewCredentialRepository, wire.Bind(new(ports.CredentialRepository), new(*identitypg.CredentialRepository)),
	app.NewCredentialService, wire.Bind(new(api.Credentials), new(*app.CredentialService)),
	identitypg.NewStaffRepository, wire.Bind(new(ports.StaffRepository), new(*identitypg.StaffRepository)),
	identitypg.NewAPIKeyRepository, wire.Bind(new(ports.APIKeyRepository), new(*identitypg.APIKeyRepository)),
	identitypg.NewTokenRevocationRepository,
	wire.Bind(new(ports.TokenRevocationRepository), new(*identitypg.TokenRevocationRepository)),
	app.NewRevocations,
	customersapi.NewAdapter, wire.Bind(new(ports.Customers), new(*customersapi.Adapter)),
	identityjwt.NewTokens, wire.Bind(new(ports.Tokens), new(*identityjwt.Tokens)),
	NewInvalidations, wire.Bind(new(ports.KeyInvalidations), new(*Invalidations)),
	app.NewKeyCache,
	app.NewService, wire.Bind(new(api.Identity), new(*app.Service)),
	app.NewAuthenticator, wire.Bind(new(auth.Authenticator), new(*app.Authenticator)),
	identityhttp.NewHandler,
	NewModule,
)

// NewSettings takes identity's slice of the configuration.
func NewSettings(cfg *config.Config) app.Settings { return app.SettingsFrom(cfg) }

// Invalidations carries API key invalidations and customer token revocations to the
// other processes: over Redis pub/sub when Redis is configured, and in the embedded
// mode (SQLite) also through the data directory's signal file, which the CLI, another
// process on the same machine, writes when it revokes or deletes a key
// (docs/decisions/0011, 0096).
type Invalidations struct {
	redis *identityredis.Invalidations
	file  *filesignal.Signal // nil unless embedded
	log   *zap.Logger
}

var _ ports.KeyInvalidations = (*Invalidations)(nil)

// NewInvalidations builds the cross-process API key invalidation channels (Redis
// pub/sub is inert when rdb is nil).
func NewInvalidations(cfg *config.Config, rdb *goredis.Client, log *zap.Logger) *Invalidations {
	i := &Invalidations{redis: identityredis.NewInvalidations(rdb, log), log: log.Named("identity.invalidations")}
	if cfg.Embedded() {
		i.file = filesignal.New(cfg.DataDir, log)
	}
	return i
}

// Publish announces a message (a key prefix or a revocation signal) on every channel;
// the first failure is returned after all were tried.
func (i *Invalidations) Publish(ctx context.Context, msg string) error {
	err := i.redis.Publish(ctx, msg)
	if i.file != nil {
		if ferr := i.file.Publish(ctx, msg); err == nil {
			err = ferr
		}
	}
	return err
}

// Subscribe listens on every channel. A signal file that cannot be watched is logged,
// not fatal: the once-a-second re-check still covers it.
func (i *Invalidations) Subscribe(fn func(prefix string)) (func(), error) {
	stopRedis, err := i.redis.Subscribe(fn)
	if err != nil {
		return nil, err
	}
	stopFile := func() {}
	if i.file != nil {
		if stop, err := i.file.Subscribe(fn); err != nil {
			i.log.Warn("api key signal file not watched; revocations by the CLI take up to the re-check interval", zap.Error(err))
		} else {
			stopFile = stop
		}
	}
	return func() { stopFile(); stopRedis() }, nil
}
