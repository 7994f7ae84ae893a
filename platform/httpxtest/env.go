package httpxtest

import (
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/auth"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/openapi"
	"github.com/gocommerce/commerce/platform/testdb"
)

// Env is what a module's harness is built in: a fresh database of one engine migrated
// with the outbox's and the module's migrations, the default configuration (to adjust
// before Serve) and a fake clock.
//
//	env := httpxtest.NewEnv(t, engine, t0, carts.Migrations())
//	svc := app.NewService(carts.NewSettings(&env.Config), env.DB, repo, env.Outbox(), env.Clock)
//	h := &harness{Harness: env.Serve(principals, docs, carts.NewModule(cartshttp.NewHandler(svc)))}
type Env struct {
	T      testing.TB
	Engine string
	DB     *db.DB
	Config config.Config
	Clock  *clock.Fake
}

// NewEnv opens a fresh database of engine migrated with events.Migrations() and then
// migrations, with the default configuration and a fake clock set at now.
func NewEnv(t testing.TB, engine string, now time.Time, migrations ...db.MigrationSource) *Env {
	t.Helper()
	e := testdb.Open(t, engine, append([]db.MigrationSource{events.Migrations()}, migrations...)...)
	return &Env{T: t, Engine: engine, DB: e.DB, Config: config.Default(), Clock: clock.NewFake(now)}
}

// Outbox is a new outbox on the env's database.
func (e *Env) Outbox() *events.Outbox { return events.NewOutbox(e.DB) }

// Serve returns the harness of modules on the env's database: the real server
// (NewServer, with the env's configuration and no logs) behind authn, every answer
// checked by docs when it is not nil.
func (e *Env) Serve(authn auth.Authenticator, docs *Validator, modules ...httpx.Module) *Harness {
	e.T.Helper()
	return Start(e.T, &e.Config, authn, docs, e.DB, modules...)
}

// Start returns the harness of modules on d: the real server (NewServer, without logs)
// behind authn, every answer checked by docs when it is not nil.
func Start(t testing.TB, cfg *config.Config, authn auth.Authenticator, docs *Validator, d *db.DB, modules ...httpx.Module) *Harness {
	t.Helper()
	srv := NewServer(t, cfg, nil, authn, modules...)
	if docs == nil {
		return New(t, srv, d)
	}
	return New(t, docs.Wrap(t, srv), d)
}

// Docs is NewValidator for the fragment of the module that module builds (a module
// without its collaborators is enough to read its document).
func Docs[M interface{ OpenAPI() openapi.Fragment }](module func() M, undocumentedOK ...int) *Validator {
	return NewValidator(func() openapi.Fragment { return module().OpenAPI() }, undocumentedOK...)
}

// EachEngine runs fn as a parallel subtest per engine (testdb.EachEngine) on the
// harness build makes for that engine.
func EachEngine[H any](t *testing.T, build func(t *testing.T, engine string) H, fn func(t *testing.T, h H)) {
	t.Helper()
	testdb.EachEngine(t, func(t *testing.T, engine string) { fn(t, build(t, engine)) })
}

// ReadWrite is a module's reader and writer API keys: "reader" (prefix "k3") with
// the scope "<module>:read" and "writer" (prefix "k2") with "<module>:write".
func ReadWrite(module string) Principals {
	return Principals{"writer": APIKey("k2", module+":write"), "reader": APIKey("k3", module+":read")}
}

// Override sets extra's members on body, removing those whose value is nil, and
// returns body: a test's request body is a valid default with a few members changed.
func Override(body, extra map[string]any) map[string]any {
	for k, v := range extra {
		if v == nil {
			delete(body, k)
			continue
		}
		body[k] = v
	}
	return body
}
