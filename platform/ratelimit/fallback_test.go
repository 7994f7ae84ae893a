package ratelimit

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/gocommerce/commerce/platform/redisx"
	"github.com/gocommerce/commerce/platform/testredis"
)

const (
	fallbackGauge     = "commerce_rate_limit_fallback"
	fallbackDecisions = "commerce_rate_limit_fallback_decisions_total"
	msgEnter          = "rate-limit store unavailable"
	msgLeave          = "rate-limit store available again"
)

// metric is the value of an unlabelled metric.
func (e *env) metric(name string) float64 {
	e.t.Helper()
	v, ok := metricValue(e.t, e.reg, name, "", "")
	if !ok {
		e.t.Fatalf("metric %s not exported", name)
	}
	return v
}

// requireAdmitted checks a 200 with the rate-limit headers of the anonymous test limit.
func requireAdmitted(t *testing.T, w *httptest.ResponseRecorder, remaining int) {
	t.Helper()
	status(t, w, http.StatusOK)
	h := rateHeaders(t, w)
	eq(t, h.Remaining, remaining, "remaining")
	eq(t, h.Policy, "6;w=60", "policy")
}

// A real Redis stops and comes back: while it is down the process limits in memory with
// the same rules and headers (429 after the limit), says so once in the log and in the
// metrics, and goes back to the shared counters once Redis answers again.
func TestRedisOutageLimitsInMemory(t *testing.T) {
	t.Parallel()
	srv := testredis.Start(t)
	opt, err := redisx.Options(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opt)
	t.Cleanup(func() { _ = rdb.Close() })
	core, logs := observer.New(zapcore.InfoLevel)
	const prefix = "test:outage:"
	e := newEnvWith(t, testConfig(), rdb, options{prefix: prefix}, nil, zap.New(core))
	ctx := context.Background()
	key := func(ip string) string { return "rate:" + prefix + "gcra:m:ip:" + ip }

	// Redis up: the shared counters.
	requireAdmitted(t, e.get("/api/v1/ping", ipA, ""), 2)
	if n, err := rdb.Exists(ctx, key(ipA)).Result(); err != nil || n != 1 {
		t.Fatalf("GCRA key in Redis: %d, %v", n, err)
	}
	eq(t, e.metric(fallbackGauge), 0, "fallback gauge with Redis up")

	srv.Stop()
	// Down: every request is still limited, by this process, with the same limits.
	for _, want := range []int{2, 1, 0} {
		requireAdmitted(t, e.get("/api/v1/ping", ipB, ""), want)
	}
	requireExceeded(t, e.get("/api/v1/ping", ipB, ""), 10)
	for range 5 {
		requireExceeded(t, e.get("/api/v1/ping", ipB, ""), 10)
	}
	requireAdmitted(t, e.get("/api/v1/ping", ipC, ""), 2)
	eq(t, e.metric(fallbackGauge), 1, "fallback gauge with Redis down")
	eq(t, e.metric(fallbackDecisions), 10, "requests decided in memory")
	eq(t, logs.FilterMessageSnippet(msgEnter).Len(), 1, "warnings on entering the fallback")
	eq(t, logs.FilterMessageSnippet(msgEnter).All()[0].Level, zapcore.WarnLevel, "level on entering")
	// The admin view needs the shared counters: 503 at once.
	start := time.Now()
	status(t, e.get("/api/v1/admin/rate-limits", "", "jwt-staff"), http.StatusServiceUnavailable)
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Fatalf("admin view took %v during the outage", d)
	}

	srv.Start()
	// Traffic probes Redis at most once a second, in the background.
	deadline := time.Now().Add(10 * time.Second)
	for e.metric(fallbackGauge) != 0 {
		if time.Now().After(deadline) {
			t.Fatal("still limiting in memory 10 s after Redis came back")
		}
		_ = e.get("/api/v1/ping", ipC, "")
		time.Sleep(50 * time.Millisecond)
	}
	eq(t, logs.FilterMessageSnippet(msgLeave).Len(), 1, "info lines on leaving the fallback")
	eq(t, logs.FilterMessageSnippet(msgLeave).All()[0].Level, zapcore.InfoLevel, "level on leaving")
	eq(t, logs.FilterMessageSnippet(msgEnter).Len(), 1, "warnings after recovery")

	// Back on Redis: a new client is charged in the (restarted, empty) Redis.
	decided := e.metric(fallbackDecisions)
	const ipD = "203.0.113.4"
	requireAdmitted(t, e.get("/api/v1/ping", ipD, ""), 2)
	if n, err := rdb.Exists(ctx, key(ipD)).Result(); err != nil || n != 1 {
		t.Fatalf("GCRA key in Redis after recovery: %d, %v", n, err)
	}
	eq(t, e.metric(fallbackDecisions), decided, "requests decided in memory after recovery")
	status(t, e.get("/api/v1/admin/rate-limits", "", "jwt-staff"), http.StatusOK)
}

// Redis refuses connections (a closed port, no Redis needed): limited in memory, one
// warning.
func TestRedisDownLimitsInMemory(t *testing.T) {
	t.Parallel()
	rdb := testredis.Down(t)

	core, logs := observer.New(zapcore.WarnLevel)
	e := newEnvWith(t, testConfig(), rdb, options{prefix: "test:down:"}, nil, zap.New(core))
	for _, want := range []int{2, 1, 0} {
		requireAdmitted(t, e.get("/api/v1/ping", ipA, ""), want)
	}
	for range 7 {
		requireExceeded(t, e.get("/api/v1/ping", ipA, ""), 10)
	}
	if n := logs.Len(); n != 1 {
		t.Fatalf("%d warnings logged, want 1: %v", n, logs.All())
	}
	if v, _ := metricValue(t, e.reg, "commerce_rate_limit_hits_total", "client_type", "anonymous"); v != 10 {
		t.Fatalf("hits = %v, want 10", v)
	}
	if v, _ := metricValue(t, e.reg, "commerce_rate_limit_rejected_total", "client_type", "anonymous"); v != 7 {
		t.Fatalf("rejected = %v, want 7", v)
	}
	eq(t, e.metric(fallbackGauge), 1, "fallback gauge")
	w := e.get("/api/v1/admin/rate-limits", "", "jwt-staff")
	status(t, w, http.StatusServiceUnavailable)
}

// A Redis that accepts connections and never answers (go-redis's defaults would wait 3 s
// per read) costs the first request at most the store timeout; the next ones do not wait
// for it at all. The client is the production one (redisx: short timeouts, context
// deadlines honoured).
func TestRedisHungAddsNoSeconds(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu    sync.Mutex
		conns []net.Conn
	)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	opt, err := redisx.Options("redis://" + ln.Addr().String() + "/0")
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opt)
	t.Cleanup(func() {
		_ = rdb.Close()
		_ = ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			_ = c.Close()
		}
	})
	e := newEnvWith(t, testConfig(), rdb, options{prefix: "test:hung:"}, nil, zap.NewNop())

	// 20 requests of one client at once when Redis stops answering: they do not queue
	// behind each other's timeouts, and exactly the burst is admitted.
	start := time.Now()
	var wg sync.WaitGroup
	codes := make(chan int, 20)
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := e.get("/api/v1/ping", ipA, "")
			if w.Header().Get(HeaderLimit) == "" {
				t.Errorf("response %d without rate-limit headers", w.Code)
			}
			codes <- w.Code
		}()
	}
	wg.Wait()
	close(codes)
	if d := time.Since(start); d > 4*storeTimeout {
		t.Fatalf("20 concurrent requests took %v with Redis hung", d)
	}
	counts := map[int]int{}
	for c := range codes {
		counts[c]++
	}
	eq(t, counts, map[int]int{http.StatusOK: 3, http.StatusTooManyRequests: 17}, "statuses")

	start = time.Now()
	for i := range 10 {
		t0 := time.Now()
		w := e.get("/api/v1/ping", ipB, "")
		if d := time.Since(t0); d > 2*storeTimeout {
			t.Fatalf("request %d took %v", i, d)
		}
		if i < 3 {
			requireAdmitted(t, w, 2-i)
		} else {
			requireExceeded(t, w, 10)
		}
	}
	if d := time.Since(start); d > 4*storeTimeout {
		t.Fatalf("10 requests took %v with Redis hung", d)
	}
	eq(t, e.metric(fallbackGauge), 1, "fallback gauge")
}

// While Redis is down, probes report the caller's figures from the memory store, charge
// nothing, and are not counted as requests decided in memory.
func TestRedisDownProbesReportFromMemory(t *testing.T) {
	t.Parallel()
	rdb := testredis.Down(t)
	e := newEnvWith(t, testConfig(), rdb, options{prefix: "test:down-probe:"}, nil, zap.NewNop())

	w := e.get("/health", ipA, "")
	requireAdmitted(t, w, 3)
	eq(t, e.metric(fallbackGauge), 1, "fallback gauge after a probe found Redis down")
	for _, want := range []int{2, 1} {
		requireAdmitted(t, e.get("/api/v1/ping", ipA, ""), want)
		for _, p := range []string{"/health", "/ready", "/metrics"} {
			requireAdmitted(t, e.get(p, ipA, ""), want)
		}
	}
	requireAdmitted(t, e.get("/api/v1/ping", ipA, ""), 0)
	requireExceeded(t, e.get("/api/v1/ping", ipA, ""), 10)
	requireAdmitted(t, e.get("/health", ipA, ""), 0)
	eq(t, e.metric(fallbackDecisions), 4, "requests decided in memory (probes not counted)")
	if v, _ := metricValue(t, e.reg, "commerce_rate_limit_hits_total", "client_type", "anonymous"); v != 4 {
		t.Fatalf("hits = %v, want 4 (probes are not hits)", v)
	}
}
