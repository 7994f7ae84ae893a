package main

import (
	"context"
	"net/http"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/ratelimit"
	"github.com/gocommerce/commerce/platform/testdb"
	"github.com/gocommerce/commerce/platform/testredis"
)

// requireProbe checks a /health or /ready answer: status code, body status and the
// status of each named dependency.
func requireProbe(t *testing.T, ta *testApp, path string, code int, status string, deps map[string]string) {
	t.Helper()
	r := ta.do("GET", path, nil)
	if r.Status != code {
		t.Fatalf("%s: %d, want %d: %s", path, r.Status, code, r.Body)
	}
	body := r.JSON(t)
	checks, _ := body["checks"].(map[string]any)
	if body["status"] != status {
		t.Fatalf("%s: status %v, want %s: %s", path, body["status"], status, r.Body)
	}
	for name, want := range deps {
		c, _ := checks[name].(map[string]any)
		if c["status"] != want {
			t.Fatalf("%s: checks.%s = %v, want %s: %s", path, name, c["status"], want, r.Body)
		}
	}
}

// fallbackGauge reads commerce_rate_limit_fallback from /metrics.
func fallbackGauge(t *testing.T, ta *testApp) int {
	t.Helper()
	r := ta.do("GET", "/metrics", nil)
	m := regexp.MustCompile(`(?m)^commerce_rate_limit_fallback (\d+)$`).FindSubmatch(r.Body)
	if m == nil {
		t.Fatalf("no commerce_rate_limit_fallback in /metrics")
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n
}

// Redis refuses connections from the start: the API serves, /health says degraded
// (200), /ready fails.
func TestHealthReportsRedisDown(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, testdb.Primary(), func(c *config.Config) { c.Redis.URL = "redis://127.0.0.1:1/0" })
	down := map[string]string{"database": "ok", "redis": "down"}
	requireProbe(t, ta, "/health", http.StatusOK, "degraded", down)
	requireProbe(t, ta, "/ready", http.StatusServiceUnavailable, "unavailable", down)
	if r := ta.do("POST", "/api/v1/carts/guest", map[string]any{"currency": "EUR"}); r.Status != http.StatusCreated || r.Header.Get(ratelimit.HeaderLimit) == "" {
		t.Fatalf("guest cart with Redis down: %d %v %s", r.Status, r.Header, r.Body)
	}
}

// A Redis outage while serving (PostgreSQL, a real redis-server stopped and started):
// the API keeps serving and limiting, the probes say what is down, and everything is
// shared through Redis again once it is back.
func TestRedisOutage(t *testing.T) {
	t.Parallel()
	srv := testredis.Start(t)
	ta := newTestApp(t, testdb.Primary(), func(c *config.Config) {
		c.Redis.URL = srv.URL()
		// 4 requests at once, then one every 10 s.
		c.RateLimiting.Anonymous = config.Limit{RequestsPerMinute: 6, BurstCapacity: 3}
	})
	up := map[string]string{"database": "ok", "redis": "ok"}
	down := map[string]string{"database": "ok", "redis": "down"}
	guestCart := func() response {
		t.Helper()
		return ta.do("POST", "/api/v1/carts/guest", map[string]any{"currency": "EUR"})
	}

	requireProbe(t, ta, "/health", http.StatusOK, "ok", up)
	requireProbe(t, ta, "/ready", http.StatusOK, "ok", up)
	if r := guestCart(); r.Status != http.StatusCreated || r.Header.Get(ratelimit.HeaderRemaining) != "3" {
		t.Fatalf("guest cart: %d remaining %q %s", r.Status, r.Header.Get(ratelimit.HeaderRemaining), r.Body)
	}
	if n := fallbackGauge(t, ta); n != 0 {
		t.Fatalf("fallback gauge %d with Redis up", n)
	}

	srv.Stop()
	requireProbe(t, ta, "/health", http.StatusOK, "degraded", down)
	requireProbe(t, ta, "/ready", http.StatusServiceUnavailable, "unavailable", down)
	// Served and limited by this process: its own bucket for the client starts full.
	for _, want := range []string{"3", "2", "1", "0"} {
		r := guestCart()
		if r.Status != http.StatusCreated || r.Header.Get(ratelimit.HeaderRemaining) != want {
			t.Fatalf("guest cart during the outage: %d remaining %q (want %s) %s", r.Status, r.Header.Get(ratelimit.HeaderRemaining), want, r.Body)
		}
	}
	r := guestCart()
	if r.Status != http.StatusTooManyRequests || errorOf(t, r)["code"] != ratelimit.CodeExceeded || r.Header.Get("Retry-After") == "" {
		t.Fatalf("over the limit during the outage: %d %s", r.Status, r.Body)
	}
	if n := fallbackGauge(t, ta); n != 1 {
		t.Fatalf("fallback gauge %d with Redis down", n)
	}

	srv.Start()
	deadline := time.Now().Add(15 * time.Second)
	for {
		_ = guestCart() // traffic probes Redis, at most once a second
		if fallbackGauge(t, ta) == 0 && ta.do("GET", "/ready", nil).Status == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("not back on Redis 15 s after it restarted")
		}
		time.Sleep(100 * time.Millisecond)
	}
	requireProbe(t, ta, "/health", http.StatusOK, "ok", up)
	// Charged in the restarted Redis again.
	_ = guestCart()
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr()})
	defer func() { _ = rdb.Close() }()
	key := "rate:" + ratelimit.DefaultKeyPrefix + "gcra:m:ip:192.0.2.10"
	if n, err := rdb.Exists(context.Background(), key).Result(); err != nil || n != 1 {
		t.Fatalf("rate-limit key %s in Redis after recovery: %d, %v", key, n, err)
	}
}
