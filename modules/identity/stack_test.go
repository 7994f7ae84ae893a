package identity_test

import (
	"net/http"
	"testing"

	"github.com/gin-gonic/gin"
	goredis "github.com/redis/go-redis/v9"
	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/identity"
	"github.com/gocommerce/commerce/modules/identity/adapters/customersapi"
	identityhttp "github.com/gocommerce/commerce/modules/identity/adapters/http"
	identityjwt "github.com/gocommerce/commerce/modules/identity/adapters/jwt"
	identitypg "github.com/gocommerce/commerce/modules/identity/adapters/postgres"
	"github.com/gocommerce/commerce/modules/identity/app"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/testdb"
	"github.com/gocommerce/commerce/platform/testredis"
)

const testSecret = "test-secret-0123456789-abcdefghijklmnop"

// stack is the identity module (wired by hand the way identity.ProviderSet wires it, on
// a fake of customers/api.Customers) plus a test-only protected module, behind the real
// router.
type stack struct {
	*httpxtest.Harness
	t        *testing.T
	cfg      config.Config
	db       *db.DB
	identity *app.Service
	authn    *app.Authenticator
	cache    *app.KeyCache
	revs     *app.Revocations
	creds    *app.CredentialService
}

type stackOptions struct {
	db       *db.DB          // share a database (a second "process")
	redis    *goredis.Client // broadcast key invalidations
	settings func(*app.Settings)
	dataDir  string // share the embedded mode's signal file (default: a new directory)
}

func newStack(t *testing.T, engine string) *stack {
	t.Helper()
	return newStackWith(t, engine, stackOptions{})
}

func newStackWith(t *testing.T, engine string, o stackOptions) *stack {
	t.Helper()
	d := o.db
	if d == nil {
		d = testdb.Open(t, engine, events.Migrations(), identity.Migrations(), testTables).DB
	}
	cfg := config.Default()
	cfg.Security.JWT.Secret = testSecret
	cfg.Security.BcryptCost = 4
	cfg.DataDir = t.TempDir() // the embedded mode's API key signal file lives there
	if o.dataDir != "" {
		cfg.DataDir = o.dataDir
	}
	clk := clock.New()
	log := zap.NewNop()

	custSvc := newFakeCustomers(t, d)

	settings := identity.NewSettings(&cfg)
	if o.settings != nil {
		o.settings(&settings)
	}
	keys := identitypg.NewAPIKeyRepository(d)
	tokens, err := identityjwt.NewTokens(&cfg, clk)
	if err != nil {
		t.Fatal(err)
	}
	cache := app.NewKeyCache(settings, clk)
	inv := identity.NewInvalidations(&cfg, o.redis, log)
	revs := app.NewRevocations(settings, identitypg.NewTokenRevocationRepository(d), d, inv, clk, log)
	credRepo := identitypg.NewCredentialRepository(d)
	svc := app.NewService(settings, d, credRepo, identitypg.NewStaffRepository(d), keys,
		customersapi.NewAdapter(custSvc), tokens, cache, revs, inv, clk, log)
	authn, cleanup, err := app.NewAuthenticator(settings, tokens, keys, cache, revs, inv, clk, log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cleanup)

	srv := httpxtest.NewServer(t, &cfg, log, authn, identity.NewModule(identityhttp.NewHandler(svc)), protectedModule{})
	return &stack{Harness: httpxtest.New(t, srv, d), t: t, cfg: cfg, db: d, identity: svc, authn: authn, cache: cache, revs: revs,
		creds: app.NewCredentialService(settings, credRepo, revs, clk)}
}

// protectedModule is a test-only module with protected routes.
type protectedModule struct{}

func (protectedModule) RegisterRoutes(r *httpx.Routes) {
	whoami := func(c *gin.Context) {
		p := httpx.Principal(c)
		c.JSON(http.StatusOK, gin.H{
			"kind": p.Kind, "id": p.ID, "email": p.Email, "scopes": p.Scopes,
			"key_prefix": p.KeyPrefix, "rate_limit_multiplier": p.RateLimitMultiplier,
		})
	}
	r.API.POST("/test/products", httpx.Require("products:write"), whoami)
	r.API.GET("/test/me", httpx.RequireAuth(), whoami)
}

// do sends a request with the Authorization header value authorization ("" for none).
func (s *stack) do(method, path string, body any, authorization string) httpxtest.Response {
	s.t.Helper()
	if authorization != "" {
		authorization = "Authorization: " + authorization
	}
	return s.Do(method, path, body, authorization)
}

func (s *stack) register(email, password, first, last string) httpxtest.Response {
	s.t.Helper()
	return s.do(http.MethodPost, "/api/v1/auth/register", map[string]string{
		"email": email, "password": password, "first_name": first, "last_name": last,
	}, "")
}

// mustRegister registers and returns the access token, refresh token and customer id.
func (s *stack) mustRegister(email string) (access, refresh, id string) {
	s.t.Helper()
	r := s.register(email, "correct-horse-1", "Test", "User")
	if r.Code != http.StatusCreated {
		s.t.Fatalf("register %s: %d %s", email, r.Code, r.Raw)
	}
	return r.Body["access_token"].(string), r.Body["refresh_token"].(string), r.Body["customer"].(map[string]any)["id"].(string)
}

// assertError checks an error envelope: status, message, code (string or the status),
// category and a request id.
func assertError(t *testing.T, r httpxtest.Response, status int, message string, code any, category string) {
	t.Helper()
	httpxtest.AssertError(t, r, status, code, category)
	if message != "" && r.Err()["message"] != message {
		t.Errorf("message %q, want %q", r.Err()["message"], message)
	}
}

// eachEngine runs fn on a fresh stack per engine (postgres and sqlite).
func eachEngine(t *testing.T, fn func(t *testing.T, s *stack)) {
	testdb.EachEngine(t, func(t *testing.T, engine string) { fn(t, newStack(t, engine)) })
}

func testRedis(t *testing.T) *goredis.Client {
	t.Helper()
	opt, err := goredis.ParseURL(testredis.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	c := goredis.NewClient(opt)
	t.Cleanup(func() { _ = c.Close() })
	return c
}
