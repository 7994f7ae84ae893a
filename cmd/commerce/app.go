package main

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
	"go.uber.org/zap"
	"golang.org/x/sync/errgroup"

	"github.com/gocommerce/commerce/modules/carts"
	"github.com/gocommerce/commerce/modules/catalog"
	"github.com/gocommerce/commerce/modules/checkout"
	"github.com/gocommerce/commerce/modules/coupons"
	"github.com/gocommerce/commerce/modules/customers"
	"github.com/gocommerce/commerce/modules/identity"
	identityapi "github.com/gocommerce/commerce/modules/identity/api"
	"github.com/gocommerce/commerce/modules/inventory"
	"github.com/gocommerce/commerce/modules/notifications"
	"github.com/gocommerce/commerce/modules/orders"
	"github.com/gocommerce/commerce/modules/payments"
	"github.com/gocommerce/commerce/modules/shipping"
	"github.com/gocommerce/commerce/modules/statistics"
	"github.com/gocommerce/commerce/modules/subscriptions"
	"github.com/gocommerce/commerce/modules/tax"
	"github.com/gocommerce/commerce/modules/webhooks"
	"github.com/gocommerce/commerce/platform/adminui"
	"github.com/gocommerce/commerce/platform/auth"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/jobs/jobsfx"
	"github.com/gocommerce/commerce/platform/metrics"
	"github.com/gocommerce/commerce/platform/modkit"
	"github.com/gocommerce/commerce/platform/openapi"
	"github.com/gocommerce/commerce/platform/ratelimit"
	"github.com/gocommerce/commerce/platform/redisx"
)

const (
	taskPruneOutbox = "events:prune_outbox"
	// outboxRetention is how long delivered events stay in the outbox.
	outboxRetention = 7 * 24 * time.Hour
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// App is the assembled process: everything serve, worker and the CLI use.
type App struct {
	Cfg      *config.Config
	Log      *zap.Logger
	DB       *db.DB
	Migrator *db.Migrator
	Server   *httpx.Server
	Bus      *events.Bus
	Relay    *events.Relay
	Jobs     *jobsfx.Backend
	Identity identityapi.Identity
	Seeders  *Seeders
	Modules  []modkit.Module
}

// newModules lists every business module (wire has no multibinding).
func newModules(id *identity.Module, cu *customers.Module, ca *catalog.Module, in *inventory.Module, pa *payments.Module, cr *carts.Module, co *coupons.Module, or *orders.Module, ta *tax.Module, sh *shipping.Module, st *statistics.Module, ck *checkout.Module, no *notifications.Module, su *subscriptions.Module, wh *webhooks.Module, rl *ratelimit.AdminModule, me *metrics.Module, ui *adminui.Module) []modkit.Module {
	return []modkit.Module{id, cu, ca, in, pa, cr, co, or, ta, sh, st, ck, no, su, wh, rl, me, ui}
}

// servedOpenAPI is the merged OpenAPI document the server serves, generated from the
// modules' fragments by `make generate` (TestOpenAPIDocumentIsCurrent keeps it true):
// the server neither merges YAML nor links the validator (decision 0228).
//
//go:embed openapi.json
var servedOpenAPI []byte

func newOpenAPIDocument() openapi.Document { return servedOpenAPI }

func newMigrator(d *db.DB, mods []modkit.Module) *db.Migrator {
	return db.NewMigrator(d, modkit.MigrationSources(mods))
}

func newHealth(d *db.DB, rdb *redis.Client) *httpx.Health {
	return httpx.NewHealth(version,
		httpx.Check{Name: "database", Ping: d.Ping},
		// Without Redis the API still serves (rate limits per process): /health is
		// degraded, /ready fails.
		httpx.Check{Name: "redis", Ping: redisx.Ping(rdb), Optional: true},
	)
}

func newServer(cfg *config.Config, log *zap.Logger, authn auth.Authenticator, limiter httpx.RateLimitMiddleware, reg *metrics.Registry, health *httpx.Health, mods []modkit.Module, docs *openapi.Module) (*httpx.Server, error) {
	return httpx.NewServer(cfg, log, authn, limiter, reg.Middleware(), health, append(modkit.HTTPModules(mods), docs))
}

// newBus subscribes every module, each as a consumer named after it.
func newBus(mods []modkit.Module) *events.Bus {
	b := events.NewBus()
	modkit.SubscribeAll(mods, b)
	return b
}

// newRelay builds the relay and routes the outbox to it, so that events no process's
// consumer wants are stored already delivered (docs/decisions/0109); /metrics reports
// the outbox's backlog (docs/operations.md, "Alerting").
func newRelay(d *db.DB, bus *events.Bus, outbox *events.Outbox, log *zap.Logger, reg *metrics.Registry) *events.Relay {
	r := events.NewRelay(d, bus, log)
	outbox.Route(r)
	reg.MustRegister(r.Collector())
	return r
}

func newApp(cfg *config.Config, log *zap.Logger, d *db.DB, m *db.Migrator, s *httpx.Server, bus *events.Bus, relay *events.Relay, j *jobsfx.Backend, id identityapi.Identity, seeders *Seeders, mods []modkit.Module) *App {
	modkit.RegisterJobs(mods, j.Registry)
	j.Registry.Handle(taskPruneOutbox, func(ctx context.Context, _ []byte) error {
		n, err := relay.Prune(ctx, time.Now().UTC().Add(-outboxRetention))
		if n > 0 {
			log.Info("outbox pruned", zap.Int64("events", n))
		}
		return err
	})
	j.Registry.Every(taskPruneOutbox, time.Hour)
	return &App{Cfg: cfg, Log: log, DB: d, Migrator: m, Server: s, Bus: bus, Relay: relay, Jobs: j, Identity: id, Seeders: seeders, Modules: mods}
}

// Migrate applies pending migrations and logs them.
func (a *App) Migrate(ctx context.Context) error {
	applied, err := a.Migrator.Up(ctx)
	for _, name := range applied {
		a.Log.Info("migration applied", zap.String("migration", name))
	}
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

// Serve runs the HTTP API, the outbox relay (unless jobs.serve_relay is false) and (embedded mode) the in-process jobs.
func (a *App) Serve(ctx context.Context) error {
	mode := "production (postgres)"
	if a.Cfg.Embedded() {
		mode = "embedded (sqlite: " + a.Cfg.SQLitePath() + ")"
	}
	a.Log.Info("starting commerce", zap.String("version", version), zap.String("mode", mode),
		zap.String("jobs", a.Jobs.Name), zap.Bool("redis", a.Cfg.Redis.URL != ""), zap.String("addr", a.Cfg.HTTP.Addr))
	if a.Cfg.Embedded() || a.Cfg.Database.AutoMigrate {
		if err := a.Migrate(ctx); err != nil {
			return err
		}
	}
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error { return a.Server.ListenAndServe(ctx) })
	if a.Cfg.Jobs.ServeRelay {
		g.Go(func() error { a.Relay.Run(ctx); return nil })
	}
	if addr := a.Cfg.HTTP.PprofAddr; addr != "" {
		g.Go(func() error { return servePprof(ctx, addr, a.Log) })
	}
	if a.Cfg.Redis.URL == "" { // embedded: jobs run in process
		g.Go(func() error { return ignoreCanceled(a.Jobs.Runner.Run(ctx)) })
	}
	return g.Wait()
}

// Work runs the Asynq workers and scheduler plus the outbox relay.
func (a *App) Work(ctx context.Context) error {
	if a.Cfg.Redis.URL == "" {
		return errors.New("worker: redis.url must be set (embedded mode runs jobs inside serve)")
	}
	a.Log.Info("starting worker", zap.String("version", version), zap.String("jobs", a.Jobs.Name))
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error { a.Relay.Run(ctx); return nil })
	g.Go(func() error { return ignoreCanceled(a.Jobs.Runner.Run(ctx)) })
	return g.Wait()
}

func ignoreCanceled(err error) error {
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// shortCtx is a bounded context for CLI commands.
func shortCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), time.Minute)
}
