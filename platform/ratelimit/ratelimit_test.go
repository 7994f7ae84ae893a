package ratelimit

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/config"
)

const (
	ipA = "203.0.113.1"
	ipB = "203.0.113.2"
	ipC = "203.0.113.3"
)

// unix is t0+d in Unix seconds, rounded up like X-RateLimit-Reset.
func unix(d time.Duration) int64 { return ceilUnix(t0.Add(d)) }

// TestHeadersOnEveryResponse uses the default limits: anonymous 60/min burst 10
// (11 at once), API key 1000 burst 100, JWT 500 burst 50.
func TestHeadersOnEveryResponse(t *testing.T) {
	t.Parallel()
	cfg := config.Default()
	e := newEnv(t, &cfg)

	w := e.get("/api/v1/ping", ipA, "")
	status(t, w, http.StatusOK)
	// One request of a fresh client: 10 more may follow at once; the bucket (1 s per
	// request) is full again after 1 s.
	eq(t, rateHeaders(t, w), headers{Limit: 60, Remaining: 10, Reset: unix(time.Second), Policy: "60;w=60"}, "first anonymous request")
	eq(t, w.Header().Get(HeaderRetryAfter), "", "Retry-After on success")

	// Errors carry them too: unknown route, missing credentials.
	w = e.get("/api/v1/nope", ipA, "")
	status(t, w, http.StatusNotFound)
	eq(t, rateHeaders(t, w), headers{Limit: 60, Remaining: 9, Reset: unix(2 * time.Second), Policy: "60;w=60"}, "404")
	w = e.get("/api/v1/private", ipA, "")
	status(t, w, http.StatusUnauthorized)
	eq(t, rateHeaders(t, w), headers{Limit: 60, Remaining: 8, Reset: unix(3 * time.Second), Policy: "60;w=60"}, "401")

	w = e.get("/api/v1/ping", "", "key-a")
	status(t, w, http.StatusOK)
	eq(t, rateHeaders(t, w), headers{Limit: 1000, Remaining: 100, Reset: unix(60 * time.Millisecond), Policy: "1000;w=60"}, "API key")

	w = e.get("/api/v1/ping", "", "jwt-x")
	status(t, w, http.StatusOK)
	eq(t, rateHeaders(t, w), headers{Limit: 500, Remaining: 50, Reset: unix(120 * time.Millisecond), Policy: "500;w=60"}, "JWT")

	// A bad credential on a public route counts as anonymous.
	w = e.get("/api/v1/ping", ipB, "bogus")
	status(t, w, http.StatusOK)
	eq(t, rateHeaders(t, w).Limit, 60, "bad credential limit")

	// 11 at once, then refused.
	for i := 0; i < 8; i++ {
		status(t, e.get("/api/v1/ping", ipA, ""), http.StatusOK)
	}
	w = e.get("/api/v1/ping", ipA, "")
	requireExceeded(t, w, 1)
	eq(t, rateHeaders(t, w), headers{Limit: 60, Remaining: 0, Reset: unix(11 * time.Second), Policy: "60;w=60"}, "12th request")
}

// TestBurstSemantics: 6 per minute with burst 2 is 3 requests at once, then one
// every 10 s.
func TestBurstSemantics(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testConfig())

	for i, want := range []int{2, 1, 0} {
		w := e.get("/api/v1/ping", ipA, "")
		status(t, w, http.StatusOK)
		eq(t, rateHeaders(t, w), headers{Limit: 6, Remaining: want, Reset: unix(time.Duration(i+1) * 10 * time.Second), Policy: "6;w=60"}, "request")
	}
	w := e.get("/api/v1/ping", ipA, "")
	requireExceeded(t, w, 10)
	eq(t, rateHeaders(t, w), headers{Limit: 6, Remaining: 0, Reset: unix(30 * time.Second), Policy: "6;w=60"}, "refused request")

	// Another address has its own allowance.
	w = e.get("/api/v1/ping", ipB, "")
	status(t, w, http.StatusOK)
	eq(t, rateHeaders(t, w).Remaining, 2, "other address")

	// One request has leaked out after 10 s.
	e.clock.Advance(10 * time.Second)
	w = e.get("/api/v1/ping", ipA, "")
	status(t, w, http.StatusOK)
	eq(t, rateHeaders(t, w), headers{Limit: 6, Remaining: 0, Reset: unix(40 * time.Second), Policy: "6;w=60"}, "after 10s")
	requireExceeded(t, e.get("/api/v1/ping", ipA, ""), 10)
	e.clock.Advance(5 * time.Second)
	requireExceeded(t, e.get("/api/v1/ping", ipA, ""), 5)
	e.clock.Advance(4500 * time.Millisecond)
	requireExceeded(t, e.get("/api/v1/ping", ipA, ""), 1) // 0.5 s rounds up to 1

	// Idle for Reset: the full burst again.
	e.clock.Advance(time.Minute)
	w = e.get("/api/v1/ping", ipA, "")
	status(t, w, http.StatusOK)
	eq(t, rateHeaders(t, w).Remaining, 2, "after reset")
}

// TestSustainedRate: after the burst, exactly requests_per_minute per minute.
func TestSustainedRate(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testConfig())
	admitted := 0
	for s := 0; s <= 120; s++ { // one attempt per second for two minutes, both ends included
		if e.get("/api/v1/ping", ipA, "").Code == http.StatusOK {
			admitted++
		}
		e.clock.Advance(time.Second)
	}
	eq(t, admitted, 3+12, "admitted in two minutes") // burst+1 at 0-2 s, then at 10, 20, ... 120 s
}

func TestAPIKeyMultiplierAndJWT(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testConfig())

	// key-a: multiplier 0 means 1: 6/min burst 2.
	for _, want := range []int{2, 1, 0} {
		w := e.get("/api/v1/ping", "", "key-a")
		status(t, w, http.StatusOK)
		eq(t, rateHeaders(t, w).Remaining, want, "key-a remaining")
	}
	requireExceeded(t, e.get("/api/v1/ping", "", "key-a"), 10)

	// key-b: multiplier 2: 12/min burst 4 (one request every 5 s).
	for _, want := range []int{4, 3, 2, 1, 0} {
		w := e.get("/api/v1/ping", "", "key-b")
		status(t, w, http.StatusOK)
		h := rateHeaders(t, w)
		eq(t, h.Limit, 12, "key-b limit")
		eq(t, h.Policy, "12;w=60", "key-b policy")
		eq(t, h.Remaining, want, "key-b remaining")
	}
	w := e.get("/api/v1/ping", "", "key-b")
	requireExceeded(t, w, 5)
	eq(t, rateHeaders(t, w).Reset, unix(25*time.Second), "key-b reset")

	// The key's limit is its own: the same address without the key is not limited.
	status(t, e.get("/api/v1/ping", "192.0.2.1", ""), http.StatusOK)

	// Customer and staff tokens use rate_limiting.jwt.
	w = e.get("/api/v1/ping", "", "jwt-x")
	status(t, w, http.StatusOK)
	eq(t, rateHeaders(t, w), headers{Limit: 60, Remaining: 5, Reset: unix(time.Second), Policy: "60;w=60"}, "customer")
	w = e.get("/api/v1/ping", "", "jwt-staff")
	status(t, w, http.StatusOK)
	eq(t, rateHeaders(t, w).Remaining, 5, "staff has its own bucket")
}

func TestScale(t *testing.T) {
	t.Parallel()
	base := config.Limit{RequestsPerMinute: 1000, BurstCapacity: 100, RequestsPerHour: 50000}
	eq(t, scale(base, 0), base, "multiplier 0")
	eq(t, scale(base, 1), base, "multiplier 1")
	eq(t, scale(base, -3), base, "negative multiplier")
	eq(t, scale(base, 2.5), config.Limit{RequestsPerMinute: 2500, BurstCapacity: 250, RequestsPerHour: 125000}, "multiplier 2.5")
	eq(t, scale(base, 0.0001), config.Limit{RequestsPerMinute: 1, BurstCapacity: 0, RequestsPerHour: 5}, "tiny multiplier")
	eq(t, scale(config.Limit{RequestsPerMinute: 10}, 3), config.Limit{RequestsPerMinute: 30}, "no hourly limit stays none")
	eq(t, scale(base, 1e12).RequestsPerMinute, maxRate, "huge multiplier is capped")
}

func TestAuthAndEndpointLimits(t *testing.T) {
	t.Parallel()
	cfg := testConfig()
	cfg.RateLimiting.Anonymous = config.Limit{RequestsPerMinute: 600, BurstCapacity: 100}
	cfg.RateLimiting.Auth = config.EndpointLimit{RequestsPerMinute: 4}
	cfg.RateLimiting.Endpoints = map[string]config.EndpointLimit{
		"/api/v1/auth/login":    {RequestsPerMinute: 3},
		"/api/v1/auth/register": {RequestsPerMinute: 2},
		"/api/v1/uploads/":      {RequestsPerMinute: 2}, // trailing slash is ignored
	}
	e := newEnv(t, cfg)
	post := func(path, ip string) *httptest.ResponseRecorder {
		return e.do(req{method: http.MethodPost, path: path, ip: ip})
	}

	// Login: its own 3/min (20 s per request), plus the shared auth 4/min; the headers
	// describe the login limit, the lower remaining.
	for i, want := range []int{2, 1, 0} {
		w := post("/api/v1/auth/login", ipA)
		status(t, w, http.StatusOK)
		eq(t, rateHeaders(t, w), headers{Limit: 3, Remaining: want, Reset: unix(time.Duration(i+1) * 20 * time.Second), Policy: "3;w=60"}, "login")
	}
	w := post("/api/v1/auth/login", ipA)
	requireExceeded(t, w, 20)
	eq(t, rateHeaders(t, w).Policy, "3;w=60", "refused login policy")

	// Another auth path shares the auth bucket (3 of 4 used; the refused login used none).
	w = e.get("/api/v1/auth/me", ipA, "")
	status(t, w, http.StatusOK)
	eq(t, rateHeaders(t, w), headers{Limit: 4, Remaining: 0, Reset: unix(time.Minute), Policy: "4;w=60"}, "auth/me")
	w = e.get("/api/v1/auth/me", ipA, "")
	requireExceeded(t, w, 15)
	eq(t, rateHeaders(t, w).Policy, "4;w=60", "refused auth policy")

	// Other paths only see the client limit: 101 at once, less the 4 admitted requests
	// above and this one (the refused ones did not reach the client limit).
	w = e.get("/api/v1/ping", ipA, "")
	status(t, w, http.StatusOK)
	eq(t, rateHeaders(t, w), headers{Limit: 600, Remaining: 96, Reset: unix(500 * time.Millisecond), Policy: "600;w=60"}, "ping")

	// Register: 2/min, below the auth limit.
	for _, want := range []int{1, 0} {
		w := post("/api/v1/auth/register", ipB)
		status(t, w, http.StatusOK)
		eq(t, rateHeaders(t, w).Remaining, want, "register remaining")
		eq(t, rateHeaders(t, w).Limit, 2, "register limit")
	}
	requireExceeded(t, post("/api/v1/auth/register", ipB), 30)
	// The login endpoint of the same client is still open (separate endpoint bucket).
	status(t, post("/api/v1/auth/login", ipB), http.StatusOK)

	// Uploads: the exact path and the paths below it share one bucket.
	w = post("/api/v1/uploads", ipC)
	status(t, w, http.StatusOK)
	eq(t, rateHeaders(t, w), headers{Limit: 2, Remaining: 1, Reset: unix(30 * time.Second), Policy: "2;w=60"}, "upload")
	w = post("/api/v1/uploads/images", ipC)
	status(t, w, http.StatusOK)
	eq(t, rateHeaders(t, w).Remaining, 0, "upload below the path")
	requireExceeded(t, post("/api/v1/uploads/images", ipC), 30)
	requireExceeded(t, post("/api/v1/uploads", ipC), 30)
	status(t, e.get("/api/v1/ping", ipC, ""), http.StatusOK)
	// Another client's upload allowance is untouched.
	status(t, post("/api/v1/uploads", ipB), http.StatusOK)
}

func TestHourLimit(t *testing.T) {
	t.Parallel()
	cfg := testConfig()
	cfg.RateLimiting.Anonymous = config.Limit{RequestsPerMinute: 600, BurstCapacity: 100, RequestsPerHour: 5}
	e := newEnv(t, cfg)

	for i, want := range []int{4, 3, 2, 1, 0} {
		w := e.get("/api/v1/ping", ipA, "")
		status(t, w, http.StatusOK)
		eq(t, rateHeaders(t, w), headers{Limit: 5, Remaining: want, Reset: unix(time.Duration(i+1) * 12 * time.Minute), Policy: "5;w=3600"}, "hourly")
	}
	w := e.get("/api/v1/ping", ipA, "")
	requireExceeded(t, w, 720)
	eq(t, rateHeaders(t, w), headers{Limit: 5, Remaining: 0, Reset: unix(time.Hour), Policy: "5;w=3600"}, "refused hourly")

	// The per-minute limit is far from used: the hour decides.
	e.clock.Advance(11 * time.Minute)
	requireExceeded(t, e.get("/api/v1/ping", ipA, ""), 60)
	e.clock.Advance(time.Minute)
	status(t, e.get("/api/v1/ping", ipA, ""), http.StatusOK)
}

func TestDisabled(t *testing.T) {
	t.Parallel()
	cfg := testConfig()
	cfg.RateLimiting.Enabled = false
	cfg.RateLimiting.Anonymous = config.Limit{} // not validated when disabled
	e := newEnv(t, cfg)
	for i := 0; i < 20; i++ {
		w := e.get("/api/v1/ping", ipA, "")
		status(t, w, http.StatusOK)
		requireNoRateHeaders(t, w)
		w = e.do(req{method: http.MethodPost, path: "/api/v1/auth/login", ip: ipA})
		status(t, w, http.StatusOK)
		requireNoRateHeaders(t, w)
		w = e.get("/health", ipA, "")
		status(t, w, http.StatusOK)
		requireNoRateHeaders(t, w)
	}
}

// Probes and metrics are outside the limits (decision 0093) but still report the
// caller's current figures, computed without charging the caller (decision 0104).
func TestExemptPathsReportWithoutCharging(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testConfig())
	exempt := []string{"/health", "/ready", "/metrics"}

	// A fresh client: the whole burst (3) is available, and the bucket is full now.
	for _, p := range exempt {
		w := e.get(p, ipA, "")
		status(t, w, http.StatusOK)
		eq(t, rateHeaders(t, w), headers{Limit: 6, Remaining: 3, Reset: unix(0), Policy: "6;w=60"}, p+" of a fresh client")
	}
	w := e.get("/api/v1/ping", ipA, "")
	status(t, w, http.StatusOK)
	eq(t, rateHeaders(t, w), headers{Limit: 6, Remaining: 2, Reset: unix(10 * time.Second), Policy: "6;w=60"}, "first request")
	// The probes show the same figures as the last response, however often they are called.
	for range 5 {
		for _, p := range exempt {
			w := e.get(p, ipA, "")
			status(t, w, http.StatusOK)
			eq(t, rateHeaders(t, w), headers{Limit: 6, Remaining: 2, Reset: unix(10 * time.Second), Policy: "6;w=60"}, p+" after one request")
			eq(t, w.Header().Get(HeaderRetryAfter), "", p+" Retry-After")
		}
	}
	// ...and took nothing: the client still has exactly its two requests.
	for _, want := range []int{1, 0} {
		w := e.get("/api/v1/ping", ipA, "")
		status(t, w, http.StatusOK)
		eq(t, rateHeaders(t, w).Remaining, want, "remaining after the probes")
	}
	requireExceeded(t, e.get("/api/v1/ping", ipA, ""), 10)
	// A limited client still gets its probes answered, with Remaining 0.
	for _, p := range exempt {
		w := e.get(p, ipA, "")
		status(t, w, http.StatusOK)
		eq(t, rateHeaders(t, w), headers{Limit: 6, Remaining: 0, Reset: unix(30 * time.Second), Policy: "6;w=60"}, p+" of a limited client")
		eq(t, w.Header().Get(HeaderRetryAfter), "", p+" Retry-After when limited")
	}
	// The figures follow the refill.
	e.clock.Advance(10 * time.Second)
	eq(t, rateHeaders(t, e.get("/health", ipA, "")).Remaining, 1, "remaining 10 s later")

	// The caller is whoever the credentials say: an API key with multiplier 2.
	w = e.get("/health", ipA, "key-b")
	eq(t, rateHeaders(t, w), headers{Limit: 12, Remaining: 5, Reset: unix(10 * time.Second), Policy: "12;w=60"}, "API key's figures")
	// The hourly rule is reported when it is the tighter one.
	cfg := testConfig()
	cfg.RateLimiting.Anonymous = config.Limit{RequestsPerMinute: 600, BurstCapacity: 100, RequestsPerHour: 5}
	h := newEnv(t, cfg)
	status(t, h.get("/api/v1/ping", ipB, ""), http.StatusOK)
	eq(t, rateHeaders(t, h.get("/health", ipB, "")), headers{Limit: 5, Remaining: 4, Reset: unix(12 * time.Minute), Policy: "5;w=3600"}, "hourly figures")
}

// The upload limit (rate_limiting.endpoints./api/v1/uploads, 10 per minute by default)
// applies to every route that takes multipart bodies, whatever its path, in one bucket
// per client; other routes only see the client's limits (decision 0105).
func TestUploadLimitOnEveryUploadRoute(t *testing.T) {
	t.Parallel()
	cfg := config.Default() // the defaults: uploads 10/min; API keys 1000/min burst 100
	e := newEnv(t, &cfg)
	upload := func(path, cred string) *httptest.ResponseRecorder {
		return e.do(req{method: http.MethodPost, path: path, cred: cred})
	}
	for i := range 10 {
		// Two upload routes registered with AllowMultipart share the bucket.
		path := "/api/v1/things/1/files"
		if i%2 == 1 {
			path = "/api/v1/things/2/pictures"
		}
		w := upload(path, "key-a")
		status(t, w, http.StatusOK)
		eq(t, rateHeaders(t, w), headers{Limit: 10, Remaining: 9 - i, Reset: unix(time.Duration(i+1) * 6 * time.Second), Policy: "10;w=60"}, "upload")
	}
	w := upload("/api/v1/things/3/files", "key-a")
	requireExceeded(t, w, 6)
	eq(t, rateHeaders(t, w), headers{Limit: 10, Remaining: 0, Reset: unix(time.Minute), Policy: "10;w=60"}, "11th upload")
	requireExceeded(t, upload("/api/v1/things/1/pictures", "key-a"), 6)

	// Other routes of the same client, including a JSON POST on an upload route's
	// neighbour, only see the key's own limit (10 admitted uploads of 101 at once).
	w = e.get("/api/v1/ping", "", "key-a")
	status(t, w, http.StatusOK)
	eq(t, rateHeaders(t, w), headers{Limit: 1000, Remaining: 90, Reset: unix(660 * time.Millisecond), Policy: "1000;w=60"}, "other route")
	status(t, e.do(req{method: http.MethodPost, path: "/api/v1/things/1", cred: "key-a"}), http.StatusOK)
	// The same path with another method is not an upload route.
	status(t, e.get("/api/v1/things/1/files", "", "key-a"), http.StatusOK)
	// Another client's uploads are untouched; a minute later the client uploads again.
	status(t, upload("/api/v1/things/1/files", "key-admin"), http.StatusOK)
	e.clock.Advance(6 * time.Second)
	status(t, upload("/api/v1/things/1/files", "key-a"), http.StatusOK)

	// Without the entry, uploads only get the client's limits.
	cfg = config.Default()
	delete(cfg.RateLimiting.Endpoints, UploadsPath)
	n := newEnv(t, &cfg)
	for range 11 {
		status(t, n.do(req{method: http.MethodPost, path: "/api/v1/things/1/files", cred: "key-a"}), http.StatusOK)
	}
}

func TestInvalidConfig(t *testing.T) {
	t.Parallel()
	cfg := testConfig()
	cfg.RateLimiting.JWT.RequestsPerMinute = 0
	if _, err := New(cfg, nil, nil, nil); err == nil {
		t.Fatal("New accepted rate_limiting.jwt.requests_per_minute = 0")
	}
}

// TestConcurrentRequests: the limit holds under concurrency (run with -race).
func TestConcurrentRequests(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testConfig())
	var (
		wg                  sync.WaitGroup
		mu                  sync.Mutex
		admitted, refused   int
		missingHeaderStatus []int
	)
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := e.get("/api/v1/ping", ipA, "")
			mu.Lock()
			defer mu.Unlock()
			switch {
			case w.Header().Get(HeaderLimit) == "":
				missingHeaderStatus = append(missingHeaderStatus, w.Code)
			case w.Code == http.StatusOK:
				admitted++
			case w.Code == http.StatusTooManyRequests:
				refused++
			}
		}()
	}
	wg.Wait()
	eq(t, len(missingHeaderStatus), 0, "responses without headers")
	eq(t, admitted, 3, "admitted")
	eq(t, refused, 47, "refused")
}

func TestNormalizePath(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"":                  "",
		"/":                 "/",
		"//":                "/",
		"/api/v1/uploads/":  "/api/v1/uploads",
		"api/v1/auth/login": "/api/v1/auth/login",
		"/health":           "/health",
	} {
		eq(t, normalizePath(in), want, "normalizePath("+in+")")
	}
	eq(t, isAuthPath("/api/v1/auth/login"), true, "auth path")
	eq(t, isAuthPath("/api/v1/admin/auth/login"), true, "staff auth path")
	eq(t, isAuthPath("/api/v1/authors"), false, "not an auth path")
	eq(t, isExempt("/health/"), true, "exempt with slash")
	eq(t, isExempt("/healthz"), false, "not exempt")
}
