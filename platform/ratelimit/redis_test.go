package ratelimit

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"go.uber.org/zap"

	"github.com/gocommerce/commerce/platform/config"
)

// Redis tests run on the real clock (throttled's Redis store takes the time from
// Redis): the limits are chosen so that one request leaks out only every 10 s, far
// longer than a test takes, so the counts cannot flake.

func newRedisEnv(t *testing.T, cfg *config.Config, rdb *redis.Client, prefix string) *env {
	t.Helper()
	return newEnvWith(t, cfg, rdb, options{prefix: prefix}, nil, zap.NewNop())
}

func TestRedisStore(t *testing.T) {
	t.Parallel()
	rdb, prefix := redisClient(t)
	e := newRedisEnv(t, testConfig(), rdb, prefix)

	start := time.Now().Unix()
	for _, want := range []int{2, 1, 0} {
		w := e.get("/api/v1/ping", ipA, "")
		status(t, w, http.StatusOK)
		h := rateHeaders(t, w)
		eq(t, h.Limit, 6, "limit")
		eq(t, h.Remaining, want, "remaining")
		eq(t, h.Policy, "6;w=60", "policy")
	}
	w := e.get("/api/v1/ping", ipA, "")
	requireExceeded(t, w, 10)
	h := rateHeaders(t, w)
	eq(t, h.Remaining, 0, "remaining when refused")
	if h.Reset < start+29 || h.Reset > time.Now().Unix()+31 {
		t.Fatalf("reset %d not about 30 s after %d", h.Reset, start)
	}
	status(t, e.get("/api/v1/ping", ipB, ""), http.StatusOK)

	// The state is in Redis under the prefix (usage once the batch is written).
	ctx := context.Background()
	if err := e.limiter.shared.flush(ctx); err != nil {
		t.Fatal(err)
	}
	// (go-redis/redis_rate keeps GCRA state under "rate:" + the limiter's key.)
	for _, k := range []string{"rate:" + prefix + "gcra:m:ip:" + ipA, prefix + "usage:c:ip:" + ipA, prefix + "usage:active"} {
		n, err := rdb.Exists(ctx, k).Result()
		if err != nil || n != 1 {
			t.Fatalf("key %s: exists %d, %v", k, n, err)
		}
	}
	ttl, err := rdb.TTL(ctx, "rate:"+prefix+"gcra:m:ip:"+ipA).Result()
	if err != nil || ttl <= 0 || ttl > 30*time.Second {
		t.Fatalf("GCRA key TTL %v, %v; want (0, 30s]", ttl, err)
	}
}

func TestRedisEndpointAndHourLimits(t *testing.T) {
	t.Parallel()
	rdb, prefix := redisClient(t)
	cfg := testConfig()
	cfg.RateLimiting.Anonymous = config.Limit{RequestsPerMinute: 600, BurstCapacity: 100, RequestsPerHour: 4}
	cfg.RateLimiting.Endpoints = map[string]config.EndpointLimit{"/api/v1/auth/register": {RequestsPerMinute: 2}}
	e := newRedisEnv(t, cfg, rdb, prefix)

	for _, want := range []int{1, 0} {
		w := e.do(req{method: http.MethodPost, path: "/api/v1/auth/register", ip: ipA})
		status(t, w, http.StatusOK)
		eq(t, rateHeaders(t, w).Remaining, want, "register remaining")
		eq(t, rateHeaders(t, w).Policy, "2;w=60", "register policy")
	}
	requireExceeded(t, e.do(req{method: http.MethodPost, path: "/api/v1/auth/register", ip: ipA}), 30)

	// Two of four hourly requests used.
	for _, want := range []int{1, 0} {
		w := e.get("/api/v1/ping", ipA, "")
		status(t, w, http.StatusOK)
		eq(t, rateHeaders(t, w).Remaining, want, "hourly remaining")
		eq(t, rateHeaders(t, w).Policy, "4;w=3600", "hourly policy")
	}
	requireExceeded(t, e.get("/api/v1/ping", ipA, ""), 900)
}

// TestRedisSharedAcrossInstances: two servers on one Redis enforce one limit and
// report one usage.
func TestRedisSharedAcrossInstances(t *testing.T) {
	t.Parallel()
	rdb, prefix := redisClient(t)
	a := newRedisEnv(t, testConfig(), rdb, prefix)
	b := newRedisEnv(t, testConfig(), rdb, prefix)

	for i, e := range []*env{a, b, a} {
		w := e.get("/api/v1/ping", ipA, "")
		status(t, w, http.StatusOK)
		eq(t, rateHeaders(t, w).Remaining, 2-i, "shared remaining")
	}
	requireExceeded(t, b.get("/api/v1/ping", ipA, ""), 10)
	requireExceeded(t, a.get("/api/v1/ping", ipA, ""), 10)
	status(t, b.get("/api/v1/ping", "", "key-a"), http.StatusOK)

	// Each instance writes its counts in batches, at most usageFlushInterval later (B's
	// are written here at once); an instance writes its own before reading.
	if err := b.limiter.shared.flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	u := adminView(t, a, "jwt-staff")
	eq(t, u, Usage{
		Global: GlobalUsage{RequestsPerMinute: 6, CurrentUsage: 5 + 1 + 1},
		ByClient: []ClientUsage{
			{ClientID: "ip:" + ipA, RequestsLastMinute: 5, Limit: 6, Remaining: 1},
			{ClientID: "key:keyaaaaa", RequestsLastMinute: 1, Limit: 6, Remaining: 5},
			{ClientID: "staff:stf_1", RequestsLastMinute: 1, Limit: 60, Remaining: 59},
		},
	}, "usage seen by instance A")
	if err := a.limiter.shared.flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	u = adminView(t, b, "jwt-staff")
	eq(t, u.Global.CurrentUsage, 8, "usage seen by instance B")
	eq(t, u.ByClient[0], ClientUsage{ClientID: "ip:" + ipA, RequestsLastMinute: 5, Limit: 6, Remaining: 1}, "busiest client seen by B")
	eq(t, u.ByClient[1], ClientUsage{ClientID: "staff:stf_1", RequestsLastMinute: 2, Limit: 60, Remaining: 58}, "staff seen by B")

	// The gauge reports what each process served.
	if v, _ := metricValue(t, a.reg, "commerce_rate_limit_current_rate", "client_id", "ip:"+ipA); v != 3 {
		t.Fatalf("instance A current_rate = %v, want 3", v)
	}
	if v, _ := metricValue(t, b.reg, "commerce_rate_limit_current_rate", "client_id", "ip:"+ipA); v != 2 {
		t.Fatalf("instance B current_rate = %v, want 2", v)
	}
}

// TestRedisConcurrentInstances: concurrent requests spread over two instances admit
// exactly the burst.
func TestRedisConcurrentInstances(t *testing.T) {
	t.Parallel()
	rdb, prefix := redisClient(t)
	servers := []*env{newRedisEnv(t, testConfig(), rdb, prefix), newRedisEnv(t, testConfig(), rdb, prefix)}
	var (
		wg                         sync.WaitGroup
		mu                         sync.Mutex
		admitted, refused, without int
	)
	for i := 0; i < 30; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := servers[i%2].get("/api/v1/ping", ipA, "")
			mu.Lock()
			defer mu.Unlock()
			switch {
			case w.Header().Get(HeaderLimit) == "":
				without++
			case w.Code == http.StatusOK:
				admitted++
			case w.Code == http.StatusTooManyRequests:
				refused++
			}
		}()
	}
	wg.Wait()
	eq(t, without, 0, "responses without headers")
	eq(t, admitted, 3, "admitted")
	eq(t, refused, 27, "refused")
}

// TestRedisUsagePrunes: old seconds leave a client's hash once it grows past two
// windows, and idle clients leave the active set.
func TestRedisUsagePrunes(t *testing.T) {
	t.Parallel()
	rdb, prefix := redisClient(t)
	local := newTracker(maxTrackedClients)
	s := newSharedUsage(rdb, prefix, local, func(msg string, err error) { t.Errorf("%s: %v", msg, err) })
	ctx := context.Background()
	base := time.Now().Truncate(time.Second)
	for i := 0; i <= 2*window; i++ { // 121 distinct seconds, 2 minutes ago up to now, one batch each
		local.record("ip:x", 6, base.Add(time.Duration(i-2*window)*time.Second))
		if err := s.flush(ctx); err != nil {
			t.Fatal(err)
		}
	}
	n, err := rdb.HLen(ctx, s.clientKey("ip:x")).Result()
	if err != nil {
		t.Fatal(err)
	}
	if n > window+2 {
		t.Fatalf("hash has %d fields, want at most %d", n, window+2)
	}
	got, err := s.snapshot(ctx, base, 100)
	if err != nil {
		t.Fatal(err)
	}
	eq(t, got, []ClientUsage{{ClientID: "ip:x", RequestsLastMinute: window, Limit: 6}}, "snapshot")

	got, err = s.snapshot(ctx, base.Add(2*time.Minute), 100)
	if err != nil {
		t.Fatal(err)
	}
	eq(t, len(got), 0, "clients after two idle minutes")
	if n, _ := rdb.ZCard(ctx, s.activeKey()).Result(); n != 0 {
		t.Fatalf("active set has %d members, want 0", n)
	}
}

// Many concurrent requests from one client on two instances sharing Redis: exactly the
// burst is admitted and none passes without limits (the check is one atomic script per
// rule, so contention cannot make it give up and fail open).
func TestRedisContentionNeverFailsOpen(t *testing.T) {
	t.Parallel()
	rdb, prefix := redisClient(t)
	cfg := testConfig()
	cfg.RateLimiting.Anonymous = config.Limit{RequestsPerMinute: 6, BurstCapacity: 9}
	a := newRedisEnv(t, cfg, rdb, prefix)
	b := newRedisEnv(t, cfg, rdb, prefix)
	var ok, limited, unlimited atomic.Int64
	var wg sync.WaitGroup
	for i := range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := a
			if i%2 == 1 {
				e = b
			}
			w := e.do(req{path: "/api/v1/ping", ip: ipA})
			switch {
			case w.Code == http.StatusTooManyRequests:
				limited.Add(1)
			case w.Header().Get("X-RateLimit-Limit") == "":
				unlimited.Add(1)
			default:
				ok.Add(1)
			}
		}()
	}
	wg.Wait()
	if ok.Load() != 10 || unlimited.Load() != 0 || limited.Load() != 190 {
		t.Fatalf("admitted %d, refused %d, passed without limits %d; want 10, 190, 0", ok.Load(), limited.Load(), unlimited.Load())
	}
}

// With Redis, probes report the caller's figures from the shared counters and charge
// nothing: no key is written for a client that only probes, and the requests between
// the probes see the allowance untouched (decision 0104).
func TestRedisExemptPathsPeek(t *testing.T) {
	t.Parallel()
	rdb, prefix := redisClient(t)
	e := newRedisEnv(t, testConfig(), rdb, prefix)
	ctx := context.Background()
	key := "rate:" + prefix + "gcra:m:ip:" + ipA

	w := e.get("/health", ipA, "")
	status(t, w, http.StatusOK)
	h := rateHeaders(t, w)
	eq(t, [3]any{h.Limit, h.Remaining, h.Policy}, [3]any{6, 3, "6;w=60"}, "figures of a fresh client")
	if n, err := rdb.Exists(ctx, key).Result(); err != nil || n != 0 {
		t.Fatalf("a probe wrote the client's key: exists %d, %v", n, err)
	}
	w = e.get("/api/v1/ping", ipA, "")
	status(t, w, http.StatusOK)
	first := rateHeaders(t, w)
	eq(t, first.Remaining, 2, "remaining after one request")
	for range 5 {
		for _, p := range []string{"/health", "/ready", "/metrics"} {
			w := e.get(p, ipA, "")
			status(t, w, http.StatusOK)
			h := rateHeaders(t, w)
			eq(t, [3]any{h.Limit, h.Remaining, h.Policy}, [3]any{6, 2, "6;w=60"}, p+" figures")
			if h.Reset < first.Reset-1 || h.Reset > first.Reset {
				t.Fatalf("%s reset %d, the request's %d", p, h.Reset, first.Reset)
			}
		}
	}
	for _, want := range []int{1, 0} {
		w := e.get("/api/v1/ping", ipA, "")
		status(t, w, http.StatusOK)
		eq(t, rateHeaders(t, w).Remaining, want, "remaining after the probes")
	}
	requireExceeded(t, e.get("/api/v1/ping", ipA, ""), 10)
	w = e.get("/health", ipA, "")
	status(t, w, http.StatusOK)
	eq(t, rateHeaders(t, w).Remaining, 0, "a limited client's probe")
}

// A busy client served from a lease: its probes show what its requests show (the
// leased, unused requests count as remaining), mostly without a Redis round trip, and
// never charge it.
func TestRedisExemptPathsPeekWithLeases(t *testing.T) {
	t.Parallel()
	e, counter := busyRedisEnv(t)

	const n = 200
	var last int
	for i := range n {
		w := e.get("/api/v1/ping", ipA, "")
		status(t, w, http.StatusOK)
		last = rateHeaders(t, w).Remaining
		w = e.get("/health", ipA, "")
		status(t, w, http.StatusOK)
		h := rateHeaders(t, w)
		eq(t, h.Policy, "10000;w=3600", "probe policy")
		// The hourly allowance refills by about 3 per second.
		if h.Remaining < last || h.Remaining > last+1 {
			t.Fatalf("round %d: probe says %d remaining, the request %d", i, h.Remaining, last)
		}
	}
	if last > 10_000-n+3 || last < 10_000-n-1 {
		t.Fatalf("remaining %d after %d requests and %d probes", last, n, n)
	}
	if got := counter.n.Load(); got > n/5 {
		t.Fatalf("%d script runs for %d requests and %d probes, want at most %d", got, n, n, n/5)
	}
}
