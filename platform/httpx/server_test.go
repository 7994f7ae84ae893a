package httpx_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/httpx"
)

func TestRequestID(t *testing.T) {
	t.Parallel()
	s, _ := newServer(t, serverOpts{})
	generated := regexp.MustCompile(`^req_[0-9a-f]{24}$`)

	w1 := get(t, s, "/api/v1/ping", nil)
	w2 := get(t, s, "/api/v1/ping", nil)
	id1, id2 := w1.Header().Get(httpx.HeaderRequestID), w2.Header().Get(httpx.HeaderRequestID)
	if !generated.MatchString(id1) || !generated.MatchString(id2) || id1 == id2 {
		t.Fatalf("generated ids %q, %q", id1, id2)
	}
	if jsonBody(t, w1)["request_id"] != id1 {
		t.Fatalf("handler saw request id %v, header %q", jsonBody(t, w1)["request_id"], id1)
	}

	for _, valid := range []string{"client-abc_123.x:y", "a", strings.Repeat("z", 128)} {
		w := get(t, s, "/api/v1/ping", map[string]string{httpx.HeaderRequestID: valid})
		if got := w.Header().Get(httpx.HeaderRequestID); got != valid || jsonBody(t, w)["request_id"] != valid {
			t.Fatalf("valid id %q came back as %q", valid, got)
		}
	}
	for _, invalid := range []string{"has spaces in it", strings.Repeat("x", 129), strings.Repeat("y", 200), "ñandú", "a/b", "<script>", "id\"quote"} {
		w := get(t, s, "/api/v1/ping", map[string]string{httpx.HeaderRequestID: invalid})
		if got := w.Header().Get(httpx.HeaderRequestID); !generated.MatchString(got) {
			t.Fatalf("invalid id %q was kept as %q", invalid, got)
		}
	}
	// Error envelopes carry the same id.
	w := get(t, s, "/api/v1/nope", map[string]string{httpx.HeaderRequestID: "trace-42"})
	if errorBody(t, w.Code, w.Body.Bytes())["request_id"] != "trace-42" {
		t.Fatalf("envelope request_id, body %s", w.Body)
	}
}

func TestPanicRecovery(t *testing.T) {
	t.Parallel()
	var statuses seen[int]
	metrics := func(c *gin.Context) {
		c.Next()
		statuses.add(c.Writer.Status())
	}
	core, logs := observer.New(zapcore.DebugLevel)
	s, _ := newServer(t, serverOpts{metrics: metrics, logger: zap.New(core)})
	ts := httptest.NewServer(s)
	defer ts.Close()

	for range 2 { // the server keeps serving after a panic
		res, err := http.Get(ts.URL + "/api/v1/panic")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		_ = res.Body.Close()
		if res.StatusCode != http.StatusInternalServerError {
			t.Fatalf("panic status = %d, body %s", res.StatusCode, body)
		}
		got := errorBody(t, res.StatusCode, body)
		if got["message"] != "Internal server error" || got["code"] != 500.0 || got["category"] != "internal" ||
			got["request_id"] != res.Header.Get(httpx.HeaderRequestID) || len(got) != 4 {
			t.Fatalf("panic envelope = %s", body)
		}
		if strings.Contains(string(body), "kaboom") {
			t.Fatal("panic value leaked to the client")
		}
		res, err = http.Get(ts.URL + "/api/v1/ping")
		if err != nil {
			t.Fatal(err)
		}
		_ = res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("after panic /ping = %d", res.StatusCode)
		}
	}

	// The panic is logged with its request id, and the 500 reaches metrics and the access log.
	panics := logs.FilterMessage("panic").All()
	if len(panics) != 2 || panics[0].ContextMap()["request_id"] == "" || !strings.Contains(fmt.Sprint(panics[0].ContextMap()["panic"]), "kaboom") {
		t.Fatalf("panic log entries = %+v", panics)
	}
	if got := fmt.Sprint(statuses.list()); got != "[500 200 500 200]" {
		t.Fatalf("metrics saw statuses %s, want [500 200 500 200]", got)
	}
	var accessed []string
	for _, e := range logs.FilterMessage("request").All() {
		m := e.ContextMap()
		accessed = append(accessed, fmt.Sprintf("%s %v %v", e.Level, m["route"], m["status"]))
	}
	want := "[error /api/v1/panic 500 info /api/v1/ping 200 error /api/v1/panic 500 info /api/v1/ping 200]"
	if fmt.Sprint(accessed) != want {
		t.Fatalf("access log = %v\n want %s", accessed, want)
	}
}

func TestErrorEnvelope(t *testing.T) {
	t.Parallel()
	s, _ := newServer(t, serverOpts{})

	// A spec code: code is the string, status the HTTP status.
	expectError(t, get(t, s, "/api/v1/conflict", nil), http.StatusConflict, map[string]any{
		"code": "EMAIL_TAKEN", "status": 409, "message": "Email already registered", "category": "conflict",
	})
	// The cause is never shown.
	w := get(t, s, "/api/v1/wrapped", nil)
	expectError(t, w, http.StatusNotFound, map[string]any{
		"code": "CART_NOT_FOUND", "status": 404, "message": "Cart not found", "category": "not_found",
	})
	// Internal errors hide their message and cause.
	w = get(t, s, "/api/v1/internal", nil)
	expectError(t, w, http.StatusInternalServerError, map[string]any{
		"code": 500, "message": "Internal server error", "category": "internal",
	})
	if strings.Contains(w.Body.String(), "secret") || strings.Contains(w.Body.String(), "10.0.0.5") {
		t.Fatalf("internal error leaked: %s", w.Body)
	}
	// Extra members join the error object.
	expectError(t, get(t, s, "/api/v1/extra", nil), http.StatusTooManyRequests, map[string]any{
		"code": 429, "message": "Rate limit exceeded", "category": "rate_limit", "retry_after": 30,
	})
	// Unknown routes.
	expectError(t, get(t, s, "/api/v1/nope", nil), http.StatusNotFound, map[string]any{
		"code": 404, "message": "Not found: GET /api/v1/nope", "category": "not_found",
	})
	expectError(t, do(t, s, request{method: http.MethodPost, path: "/nowhere?x=1", body: strings.NewReader("{}"), contentType: "application/json"}),
		http.StatusNotFound, map[string]any{"code": 404, "message": "Not found: POST /nowhere", "category": "not_found"})
	// Root routes outside /api/v1 work.
	if w := get(t, s, "/api/v2/webhooks", nil); w.Code != http.StatusOK {
		t.Fatalf("/api/v2/webhooks = %d", w.Code)
	}
	// A known path with another method: 405 with gin's Allow header.
	w = do(t, s, request{method: http.MethodPatch, path: "/api/v1/ping"})
	expectError(t, w, http.StatusMethodNotAllowed, map[string]any{
		"code": 405, "message": "Method not allowed", "category": "request",
	})
	if allow := w.Header().Get("Allow"); allow != "GET" {
		t.Fatalf("Allow = %q, want GET", allow)
	}
}

// TestStatusTable checks ADR 0001's kind → status and category table.
func TestStatusTable(t *testing.T) {
	t.Parallel()
	cases := []struct {
		kind     apperr.Kind
		status   int
		category string
	}{
		{apperr.Invalid, 400, "validation"},
		{apperr.Unauthenticated, 401, "auth"},
		{apperr.PaymentRequired, 402, "payment"},
		{apperr.Forbidden, 403, "auth"},
		{apperr.NotFound, 404, "not_found"},
		{apperr.Conflict, 409, "conflict"},
		{apperr.Gone, 410, "gone"},
		{apperr.TooLarge, 413, "request"},
		{apperr.MethodNotAllowed, 405, "request"},
		{apperr.UnsupportedMediaType, 415, "request"},
		{apperr.RateLimited, 429, "rate_limit"},
		{apperr.Internal, 500, "internal"},
		{apperr.Unavailable, 503, "unavailable"},
	}
	for _, tc := range cases {
		for _, code := range []string{"", "SOME_CODE"} {
			err := fmt.Errorf("wrapped: %w", apperr.New(tc.kind, code, "msg"))
			if got := httpx.StatusOf(err); got != tc.status {
				t.Fatalf("StatusOf(kind %d) = %d, want %d", tc.kind, got, tc.status)
			}
			w := httptest.NewRecorder()
			c, _ := gin.CreateTestContext(w)
			c.Request = httptest.NewRequest(http.MethodGet, "/", nil)
			httpx.Error(c, err)
			if w.Code != tc.status || !c.IsAborted() {
				t.Fatalf("kind %d: status %d (aborted %v), want %d", tc.kind, w.Code, c.IsAborted(), tc.status)
			}
			got := errorBody(t, w.Code, w.Body.Bytes())
			if got["category"] != tc.category {
				t.Fatalf("kind %d: category %v, want %s", tc.kind, got["category"], tc.category)
			}
			switch {
			case tc.kind == apperr.Internal:
				if got["code"] != 500.0 || got["message"] != "Internal server error" || got["status"] != nil {
					t.Fatalf("internal: %v", got)
				}
			case code == "":
				if got["code"] != float64(tc.status) || got["status"] != nil || got["message"] != "msg" {
					t.Fatalf("generic kind %d: %v", tc.kind, got)
				}
			default:
				if got["code"] != code || got["status"] != float64(tc.status) || got["message"] != "msg" {
					t.Fatalf("coded kind %d: %v", tc.kind, got)
				}
			}
		}
	}
	if httpx.StatusOf(errors.New("plain")) != 500 {
		t.Fatal("plain error is not 500")
	}
}

func TestAuthentication(t *testing.T) {
	t.Parallel()
	s, a := newServer(t, serverOpts{})
	put := func(header map[string]string) *httptest.ResponseRecorder {
		return do(t, s, request{method: http.MethodPut, path: "/api/v1/products/p1", header: header})
	}
	missing := map[string]any{"code": 401, "message": "Unauthorized: Missing authorization header", "category": "auth"}
	badToken := map[string]any{"code": 401, "message": "Unauthorized: Invalid or expired token", "category": "auth"}

	expectError(t, put(nil), http.StatusUnauthorized, missing)
	expectError(t, put(map[string]string{"Authorization": "   "}), http.StatusUnauthorized, missing)
	expectError(t, put(bearer("bogus")), http.StatusUnauthorized, badToken)
	expectError(t, put(bearer("reader")), http.StatusForbidden, map[string]any{
		"code": 403, "message": "Forbidden: Insufficient permissions. Required: products:write", "category": "auth",
	})
	for _, h := range []string{"Bearer writer", "bearer   writer ", "BEARER writer", "writer", "Bearer admin"} {
		if w := put(map[string]string{"Authorization": h}); w.Code != http.StatusOK {
			t.Fatalf("Authorization %q: %d %s", h, w.Code, w.Body)
		}
	}
	// The authenticator gets the bare credential and the client IP.
	put(bearer("writer"))
	if got := a.lastCall(); got != "writer@192.0.2.1" {
		t.Fatalf("authenticator called with %q", got)
	}

	// RequireAny names every accepted scope.
	expectError(t, do(t, s, request{method: http.MethodDelete, path: "/api/v1/products/p1", header: bearer("writer")}),
		http.StatusForbidden, map[string]any{
			"code": 403, "message": "Forbidden: Insufficient permissions. Required: products:admin or admin", "category": "auth",
		})
	if w := do(t, s, request{method: http.MethodDelete, path: "/api/v1/products/p1", header: bearer("admin")}); w.Code != http.StatusOK {
		t.Fatalf("admin delete = %d", w.Code)
	}

	// RequireOrHeader: a principal with the scope, or a guest's header; 401 without either.
	guest := func(header map[string]string) *httptest.ResponseRecorder {
		return do(t, s, request{method: http.MethodPost, path: "/api/v1/guest-carts", header: header})
	}
	expectError(t, guest(nil), http.StatusUnauthorized, missing)
	expectError(t, guest(bearer("reader")), http.StatusForbidden, map[string]any{
		"code": 403, "message": "Forbidden: Insufficient permissions. Required: products:write", "category": "auth",
	})
	for _, h := range []map[string]string{{"X-Session-Token": "tok"}, bearer("writer")} {
		if w := guest(h); w.Code != http.StatusOK {
			t.Fatalf("RequireOrHeader %v: %d %s", h, w.Code, w.Body)
		}
	}

	// RequireAuth: any principal.
	expectError(t, get(t, s, "/api/v1/me", nil), http.StatusUnauthorized, missing)
	expectError(t, get(t, s, "/api/v1/me", bearer("nope")), http.StatusUnauthorized, badToken)
	if w := get(t, s, "/api/v1/me", bearer("reader")); w.Code != http.StatusOK || jsonBody(t, w)["client"] != "key:abcd1234" {
		t.Fatalf("/me = %d %s", w.Code, w.Body)
	}

	// Optional: anonymous passes, a bad credential is still a 401.
	if w := get(t, s, "/api/v1/catalog", nil); w.Code != http.StatusOK || jsonBody(t, w)["authenticated"] != false {
		t.Fatalf("optional anonymous = %d %s", w.Code, w.Body)
	}
	expectError(t, get(t, s, "/api/v1/catalog", bearer("bogus")), http.StatusUnauthorized, badToken)
	if w := get(t, s, "/api/v1/catalog", bearer("reader")); w.Code != http.StatusOK || jsonBody(t, w)["authenticated"] != true {
		t.Fatalf("optional authenticated = %d %s", w.Code, w.Body)
	}

	// Public routes ignore a bad credential; the client id falls back to the IP.
	if w := get(t, s, "/api/v1/ping", bearer("bogus")); w.Code != http.StatusOK || jsonBody(t, w)["client"] != "ip:192.0.2.1" {
		t.Fatalf("public with bad credential = %d %s", w.Code, w.Body)
	}
	if w := get(t, s, "/api/v1/ping", bearer("writer")); jsonBody(t, w)["client"] != "staff:s1" {
		t.Fatalf("public with staff credential: %s", w.Body)
	}
}

func TestRateLimitHook(t *testing.T) {
	t.Parallel()
	var seenClients seen[string]
	limiter := func(c *gin.Context) {
		seenClients.add(httpx.ClientID(c))
		c.Header("X-RateLimit-Limit", "10")
		if c.GetHeader("X-Test-Over") != "" {
			httpx.Abort(c, apperr.New(apperr.RateLimited, "", "Rate limit exceeded"))
			return
		}
		c.Next()
	}
	s, _ := newServer(t, serverOpts{limiter: limiter})
	if w := get(t, s, "/api/v1/ping", bearer("reader")); w.Code != http.StatusOK || w.Header().Get("X-RateLimit-Limit") != "10" {
		t.Fatalf("limited route = %d, headers %v", w.Code, w.Header())
	}
	// The limiter runs before body rules and route auth.
	w := do(t, s, request{method: http.MethodPut, path: "/api/v1/products/p1", body: strings.NewReader("x"), contentType: "text/plain",
		header: map[string]string{"X-Test-Over": "1"}})
	expectError(t, w, http.StatusTooManyRequests, map[string]any{"code": 429, "message": "Rate limit exceeded", "category": "rate_limit"})
	// It runs after authentication: it sees the principal.
	if clients := seenClients.list(); len(clients) != 2 || clients[0] != "key:abcd1234" || clients[1] != "ip:192.0.2.1" {
		t.Fatalf("limiter saw clients %v", clients)
	}
}

func TestCORS(t *testing.T) {
	t.Parallel()
	s, _ := newServer(t, serverOpts{})
	preflight := map[string]string{
		"Origin":                         "https://shop.example.com",
		"Access-Control-Request-Method":  "PUT",
		"Access-Control-Request-Headers": "Authorization, Content-Type, Idempotency-Key",
	}
	// Even on a protected route: the preflight never reaches authentication.
	w := do(t, s, request{method: http.MethodOptions, path: "/api/v1/products/p1", header: preflight})
	if w.Code != http.StatusNoContent {
		t.Fatalf("preflight status = %d, body %s", w.Code, w.Body)
	}
	h := w.Header()
	if h.Get("Access-Control-Allow-Origin") != "*" || !containsFold(h.Get("Access-Control-Allow-Methods"), "PUT") ||
		!containsFold(h.Get("Access-Control-Allow-Headers"), "authorization") || !containsFold(h.Get("Access-Control-Allow-Headers"), "idempotency-key") ||
		h.Get("Access-Control-Max-Age") != "43200" || h.Get("Access-Control-Allow-Credentials") != "" {
		t.Fatalf("preflight headers = %v", h)
	}
	// Actual requests expose the rate-limit and request-id headers.
	w = get(t, s, "/api/v1/ping", map[string]string{"Origin": "https://shop.example.com"})
	expose := w.Header().Get("Access-Control-Expose-Headers")
	for _, name := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-Request-ID", "Retry-After"} {
		if !containsFold(expose, name) {
			t.Fatalf("Access-Control-Expose-Headers %q lacks %s", expose, name)
		}
	}
	if w.Code != http.StatusOK || w.Header().Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("simple request = %d %v", w.Code, w.Header())
	}

	// Listed origins with credentials.
	listed, _ := newServer(t, serverOpts{cfg: func(c *config.Config) {
		c.HTTP.CORS.AllowedOrigins = []string{"https://shop.example.com"}
		c.HTTP.CORS.AllowCredentials = true
	}})
	w = do(t, listed, request{method: http.MethodOptions, path: "/api/v1/items", header: preflight})
	if w.Code != http.StatusNoContent || w.Header().Get("Access-Control-Allow-Origin") != "https://shop.example.com" ||
		w.Header().Get("Access-Control-Allow-Credentials") != "true" {
		t.Fatalf("listed origin preflight = %d %v", w.Code, w.Header())
	}
	other := map[string]string{"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"}
	if w = do(t, listed, request{method: http.MethodOptions, path: "/api/v1/items", header: other}); w.Header().Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("unlisted origin allowed: %v", w.Header())
	}

	// Disabled: no CORS headers.
	off, _ := newServer(t, serverOpts{cfg: func(c *config.Config) { c.HTTP.CORS.Enabled = false }})
	w = do(t, off, request{method: http.MethodOptions, path: "/api/v1/items", header: preflight})
	if w.Header().Get("Access-Control-Allow-Origin") != "" || w.Code == http.StatusNoContent {
		t.Fatalf("CORS disabled but preflight answered %d %v", w.Code, w.Header())
	}
}

func containsFold(list, name string) bool {
	for _, v := range strings.Split(list, ",") {
		if strings.EqualFold(strings.TrimSpace(v), name) {
			return true
		}
	}
	return false
}

func TestBadTrustedProxies(t *testing.T) {
	t.Parallel()
	cfg := config.Default()
	cfg.HTTP.TrustedProxies = []string{"not-an-ip"}
	if _, err := httpx.NewServer(&cfg, zap.NewNop(), nil, nil, nil, nil, nil); err == nil {
		t.Fatal("bad http.trusted_proxies accepted")
	}
}

func TestGracefulShutdown(t *testing.T) {
	t.Parallel()
	m := &testModule{slowStarted: make(chan struct{}), slowRelease: make(chan struct{})}
	s, _ := newServer(t, serverOpts{module: m})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, ln) }()

	type result struct {
		status int
		body   string
		err    error
	}
	slow := make(chan result, 1)
	go func() {
		res, err := http.Get("http://" + addr + "/api/v1/slow")
		if err != nil {
			slow <- result{err: err}
			return
		}
		b, err := io.ReadAll(res.Body)
		_ = res.Body.Close()
		slow <- result{status: res.StatusCode, body: string(b), err: err}
	}()
	select {
	case <-m.slowStarted:
	case <-time.After(5 * time.Second):
		t.Fatal("slow request never started")
	}

	cancel()
	// Shutdown closes the listener first: wait until new connections are refused.
	deadline := time.Now().Add(5 * time.Second)
	for {
		conn, err := net.DialTimeout("tcp", addr, 100*time.Millisecond)
		if err != nil {
			break
		}
		_ = conn.Close()
		if time.Now().After(deadline) {
			t.Fatal("listener still accepting after cancel")
		}
		time.Sleep(5 * time.Millisecond)
	}
	select {
	case err := <-served:
		t.Fatalf("Serve returned %v before the in-flight request finished", err)
	default:
	}

	close(m.slowRelease)
	select {
	case r := <-slow:
		if r.err != nil || r.status != http.StatusOK || !strings.Contains(r.body, `"slow":true`) {
			t.Fatalf("in-flight request = %+v", r)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("in-flight request did not complete")
	}
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("Serve = %v, want nil", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after shutdown")
	}
}

func TestServeReportsListenerFailure(t *testing.T) {
	t.Parallel()
	s, _ := newServer(t, serverOpts{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_ = ln.Close()
	done := make(chan error, 1)
	go func() { done <- s.Serve(context.Background(), ln) }()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("Serve on a closed listener returned nil")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve on a closed listener did not return")
	}
}

// Route names a matched request by its template and any other as "unmatched".
func TestRoute(t *testing.T) {
	t.Parallel()
	r := gin.New()
	var got []string
	r.Use(func(c *gin.Context) { c.Next(); got = append(got, httpx.Route(c)) })
	r.GET("/items/:id", func(c *gin.Context) { c.Status(http.StatusNoContent) })
	for _, p := range []string{"/items/7", "/nope"} {
		r.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, p, nil))
	}
	if fmt.Sprint(got) != "[/items/:id unmatched]" {
		t.Fatalf("routes = %v", got)
	}
}
