package ratelimit

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/redis/go-redis/v9"
	"go.uber.org/zap"

	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/auth"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/metrics"
	"github.com/gocommerce/commerce/platform/testredis"
)

// t0 is a whole second, so Reset values are exact in memory-store tests.
var t0 = time.Unix(1_700_000_000, 0)

// fakeAuth maps credentials to principals.
type fakeAuth map[string]auth.Principal

func (f fakeAuth) Authenticate(_ context.Context, cred, _ string) (*auth.Principal, error) {
	p, ok := f[cred]
	if !ok {
		return nil, apperr.Unauthorized("Unauthorized: Invalid token")
	}
	return &p, nil
}

var principals = fakeAuth{
	"key-a":     {Kind: auth.APIKey, ID: "k1", KeyPrefix: "keyaaaaa", Scopes: []string{"products:read"}},
	"key-b":     {Kind: auth.APIKey, ID: "k2", KeyPrefix: "keybbbbb", Scopes: []string{"products:read"}, RateLimitMultiplier: 2},
	"key-admin": {Kind: auth.APIKey, ID: "k3", KeyPrefix: "keyadmin", Scopes: []string{"admin"}},
	"jwt-x":     {Kind: auth.Customer, ID: "cus_x", Scopes: []string{"products:read"}},
	"jwt-staff": {Kind: auth.Staff, ID: "stf_1", Scopes: []string{"admin"}},
}

// routes is the test module: a few public routes standing in for real modules.
type routes struct{}

func (routes) RegisterRoutes(r *httpx.Routes) {
	ok := func(c *gin.Context) { c.JSON(http.StatusOK, gin.H{"ok": true}) }
	r.Root.GET("/health", ok)
	r.API.GET("/ping", ok)
	r.API.GET("/private", httpx.RequireAuth(), ok)
	r.API.POST("/auth/login", ok)
	r.API.POST("/auth/register", ok)
	r.API.GET("/auth/me", ok)
	r.API.POST("/uploads", ok)
	r.API.POST("/uploads/images", ok)
	r.Root.GET("/ready", ok)
	// Upload routes (multipart bodies) outside /api/v1/uploads, and their neighbours.
	httpxtest.UploadRoutes(r, ok)
}

// testConfig is the default configuration with small, test-friendly limits.
func testConfig() *config.Config {
	cfg := config.Default()
	cfg.Env = "test"
	cfg.RateLimiting.Anonymous = config.Limit{RequestsPerMinute: 6, BurstCapacity: 2, RequestsPerHour: 0}
	cfg.RateLimiting.Default = config.Limit{RequestsPerMinute: 6, BurstCapacity: 2, RequestsPerHour: 0}
	cfg.RateLimiting.JWT = config.Limit{RequestsPerMinute: 60, BurstCapacity: 5, RequestsPerHour: 0}
	return &cfg
}

// env is one server with its limiter.
type env struct {
	t       *testing.T
	limiter *Limiter
	server  *httpx.Server
	reg     *metrics.Registry
	clock   *clock.Fake
}

// newEnv builds a server around a memory-store limiter driven by a fake clock.
func newEnv(t *testing.T, cfg *config.Config) *env {
	t.Helper()
	fc := clock.NewFake(t0)
	return newEnvWith(t, cfg, nil, options{now: fc.Now}, fc, zap.NewNop())
}

// newEnvWith builds a server around a limiter on rdb (nil: memory store).
func newEnvWith(t *testing.T, cfg *config.Config, rdb *redis.Client, o options, fc *clock.Fake, log *zap.Logger) *env {
	t.Helper()
	reg := metrics.New()
	l, err := newLimiter(cfg, rdb, reg, log, o)
	if err != nil {
		t.Fatalf("newLimiter: %v", err)
	}
	srv, err := httpx.NewServer(cfg, zap.NewNop(), principals, ProvideMiddleware(l), nil, nil,
		[]httpx.Module{routes{}, NewAdminModule(l), metrics.NewModule(reg)})
	if err != nil {
		t.Fatalf("NewServer: %v", err)
	}
	return &env{t: t, limiter: l, server: srv, reg: reg, clock: fc}
}

// req is one test request.
type req struct {
	method, path, cred, ip string
}

func (e *env) do(r req) *httptest.ResponseRecorder {
	e.t.Helper()
	if r.method == "" {
		r.method = http.MethodGet
	}
	hr := httptest.NewRequest(r.method, r.path, nil)
	if r.ip != "" {
		hr.RemoteAddr = r.ip + ":40000"
	}
	if r.cred != "" {
		hr.Header.Set("Authorization", "Bearer "+r.cred)
	}
	w := httptest.NewRecorder()
	e.server.ServeHTTP(w, hr)
	return w
}

// get is GET path from ip (anonymous) or with cred.
func (e *env) get(path, ip, cred string) *httptest.ResponseRecorder {
	e.t.Helper()
	return e.do(req{path: path, ip: ip, cred: cred})
}

// headers are the four rate-limit headers.
type headers struct {
	Limit, Remaining int
	Reset            int64
	Policy           string
}

func rateHeaders(t *testing.T, w *httptest.ResponseRecorder) headers {
	t.Helper()
	var h headers
	var err error
	for name, dst := range map[string]*int{HeaderLimit: &h.Limit, HeaderRemaining: &h.Remaining} {
		if *dst, err = strconv.Atoi(w.Header().Get(name)); err != nil {
			t.Fatalf("header %s = %q: %v", name, w.Header().Get(name), err)
		}
	}
	if h.Reset, err = strconv.ParseInt(w.Header().Get(HeaderReset), 10, 64); err != nil {
		t.Fatalf("header %s = %q: %v", HeaderReset, w.Header().Get(HeaderReset), err)
	}
	h.Policy = w.Header().Get(HeaderPolicy)
	return h
}

func requireNoRateHeaders(t *testing.T, w *httptest.ResponseRecorder) {
	t.Helper()
	for _, name := range []string{HeaderLimit, HeaderRemaining, HeaderReset, HeaderPolicy, HeaderRetryAfter} {
		if v := w.Header().Get(name); v != "" {
			t.Fatalf("header %s = %q, want none", name, v)
		}
	}
}

// requireExceeded checks a 429: status, Retry-After and the exact body.
func requireExceeded(t *testing.T, w *httptest.ResponseRecorder, retry int) {
	t.Helper()
	status(t, w, http.StatusTooManyRequests)
	eq(t, w.Header().Get(HeaderRetryAfter), strconv.Itoa(retry), "Retry-After")
	var body map[string]map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
		t.Fatalf("body %s: %v", w.Body.String(), err)
	}
	eq(t, len(body), 1, "top-level members")
	e := body["error"]
	if e["request_id"] == "" || e["request_id"] == nil {
		t.Fatalf("no request_id in %s", w.Body.String())
	}
	eq(t, e, map[string]any{
		"code":        "RATE_LIMIT_EXCEEDED",
		"message":     "Rate limit exceeded. Try again in " + strconv.Itoa(retry) + " seconds.",
		"retry_after": float64(retry),
		"category":    "rate_limit",
		"request_id":  e["request_id"],
	}, "429 body")
}

// redisClient connects to the test Redis (TEST_REDIS_URL, as the Makefile sets it;
// default redis://127.0.0.1:6379/0) and returns a key prefix unique to the test; keys
// under it are removed at the end. Redis tests are skipped only under -short.
func redisClient(t *testing.T) (*redis.Client, string) {
	t.Helper()
	opts, err := redis.ParseURL(testredis.URL(t))
	if err != nil {
		t.Fatalf("TEST_REDIS_URL: %v", err)
	}
	rdb := redis.NewClient(opts)
	ctx := context.Background()
	if err := rdb.Ping(ctx).Err(); err != nil {
		t.Fatalf("Redis at %s: %v (run with -short to skip)", opts.Addr, err)
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	prefix := "test:ratelimit:" + hex.EncodeToString(b) + ":"
	t.Cleanup(func() {
		var keys []string
		// GCRA state lives under "rate:" + our prefix.
		for _, pattern := range []string{prefix + "*", "rate:" + prefix + "*"} {
			iter := rdb.Scan(ctx, 0, pattern, 100).Iterator()
			for iter.Next(ctx) {
				keys = append(keys, iter.Val())
			}
		}
		if len(keys) > 0 {
			_ = rdb.Del(ctx, keys...).Err()
		}
		_ = rdb.Close()
	})
	return rdb, prefix
}

// eq fails the test unless got deep-equals want.
func eq[T any](t *testing.T, got, want T, what string) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s = %#v, want %#v", what, got, want)
	}
}

// status fails the test unless the response has the status.
func status(t *testing.T, w *httptest.ResponseRecorder, want int) {
	t.Helper()
	if w.Code != want {
		t.Fatalf("status = %d, want %d; body %s", w.Code, want, w.Body.String())
	}
}
