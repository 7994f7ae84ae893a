package httpx_test

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/httpx"
)

func TestHealth(t *testing.T) {
	t.Parallel()
	up := func(context.Context) error { return nil }
	down := func(context.Context) error { return errors.New("dial tcp 10.0.0.9:5432: password=hunter2") }
	var sawDeadline bool
	checkDeadline := func(ctx context.Context) error {
		_, sawDeadline = ctx.Deadline()
		return nil
	}

	cases := []struct {
		name   string
		path   string
		checks []httpx.Check
		status int
		want   map[string]any
	}{
		{"all ok", "/health", []httpx.Check{{Name: "database", Ping: checkDeadline}, {Name: "redis", Ping: nil}, {Name: "queue", Ping: up}}, http.StatusOK,
			map[string]any{"status": "ok", "checks": map[string]any{
				"database": map[string]any{"status": "ok"}, "redis": map[string]any{"status": "disabled"}, "queue": map[string]any{"status": "ok"},
			}}},
		{"required down", "/health", []httpx.Check{{Name: "database", Ping: down}, {Name: "redis", Ping: up, Optional: true}}, http.StatusServiceUnavailable,
			map[string]any{"status": "unavailable", "checks": map[string]any{
				"database": map[string]any{"status": "down", "error": "unreachable"}, "redis": map[string]any{"status": "ok"},
			}}},
		// An optional dependency down: the API serves, /health says so with 200.
		{"optional down", "/health", []httpx.Check{{Name: "database", Ping: up}, {Name: "redis", Ping: down, Optional: true}}, http.StatusOK,
			map[string]any{"status": "degraded", "checks": map[string]any{
				"database": map[string]any{"status": "ok"}, "redis": map[string]any{"status": "down", "error": "unreachable"},
			}}},
		{"both down", "/health", []httpx.Check{{Name: "database", Ping: down}, {Name: "redis", Ping: down, Optional: true}}, http.StatusServiceUnavailable,
			map[string]any{"status": "unavailable", "checks": map[string]any{
				"database": map[string]any{"status": "down", "error": "unreachable"}, "redis": map[string]any{"status": "down", "error": "unreachable"},
			}}},
		{"no checks", "/health", nil, http.StatusOK, map[string]any{"status": "ok", "checks": map[string]any{}}},
		// /ready is strict: every configured dependency must answer.
		{"ready, all ok", "/ready", []httpx.Check{{Name: "database", Ping: up}, {Name: "redis", Ping: nil, Optional: true}}, http.StatusOK,
			map[string]any{"status": "ok", "checks": map[string]any{
				"database": map[string]any{"status": "ok"}, "redis": map[string]any{"status": "disabled"},
			}}},
		{"ready, optional down", "/ready", []httpx.Check{{Name: "database", Ping: up}, {Name: "redis", Ping: down, Optional: true}}, http.StatusServiceUnavailable,
			map[string]any{"status": "unavailable", "checks": map[string]any{
				"database": map[string]any{"status": "ok"}, "redis": map[string]any{"status": "down", "error": "unreachable"},
			}}},
		{"ready, required down", "/ready", []httpx.Check{{Name: "database", Ping: down}, {Name: "redis", Ping: up, Optional: true}}, http.StatusServiceUnavailable,
			map[string]any{"status": "unavailable", "checks": map[string]any{
				"database": map[string]any{"status": "down", "error": "unreachable"}, "redis": map[string]any{"status": "ok"},
			}}},
	}
	for _, tc := range cases {
		s, _ := newServer(t, serverOpts{health: httpx.NewHealth("1.2.3", tc.checks...)})
		w := get(t, s, tc.path, nil)
		if w.Code != tc.status {
			t.Fatalf("%s: status %d, want %d (%s)", tc.name, w.Code, tc.status, w.Body)
		}
		if strings.Contains(w.Body.String(), "hunter2") || strings.Contains(w.Body.String(), "10.0.0.9") {
			t.Fatalf("%s: health leaked the error: %s", tc.name, w.Body)
		}
		got := jsonBody(t, w)
		if got["version"] != "1.2.3" {
			t.Fatalf("%s: version %v", tc.name, got["version"])
		}
		if ts, _ := got["time"].(string); ts == "" {
			t.Fatalf("%s: no time", tc.name)
		} else if _, err := time.Parse(time.RFC3339, ts); err != nil {
			t.Fatalf("%s: time %q: %v", tc.name, ts, err)
		}
		// latency_ms is omitted when 0; drop it for comparison.
		checks, _ := got["checks"].(map[string]any)
		for _, c := range checks {
			delete(c.(map[string]any), "latency_ms")
		}
		delete(got, "version")
		delete(got, "time")
		if !reflect.DeepEqual(got, tc.want) {
			t.Fatalf("%s: body %v\n want %v", tc.name, got, tc.want)
		}
	}
	if !sawDeadline {
		t.Fatal("health checks run without a deadline")
	}

	// Without a Health, /health and /ready are unknown routes.
	s, _ := newServer(t, serverOpts{})
	for _, p := range []string{"/health", "/ready"} {
		if w := get(t, s, p, nil); w.Code != http.StatusNotFound {
			t.Fatalf("%s without Health = %d", p, w.Code)
		}
	}
}

// A dependency that hangs does not delay the others' answers, and the probe answers
// within the check timeout.
func TestHealthChecksRunAtOnce(t *testing.T) {
	t.Parallel()
	hang := func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() }
	slow := func(context.Context) error { time.Sleep(300 * time.Millisecond); return nil }
	s, _ := newServer(t, serverOpts{health: httpx.NewHealth("1", httpx.Check{Name: "database", Ping: slow},
		httpx.Check{Name: "a", Ping: slow, Optional: true}, httpx.Check{Name: "b", Ping: slow, Optional: true})})
	start := time.Now()
	if w := get(t, s, "/ready", nil); w.Code != http.StatusOK {
		t.Fatalf("/ready = %d %s", w.Code, w.Body)
	}
	if d := time.Since(start); d > 800*time.Millisecond {
		t.Fatalf("three 300 ms checks took %v", d)
	}
	s, _ = newServer(t, serverOpts{health: httpx.NewHealth("1", httpx.Check{Name: "database", Ping: slow}, httpx.Check{Name: "redis", Ping: hang, Optional: true})})
	start = time.Now()
	w := get(t, s, "/health", nil)
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"status":"degraded"`) {
		t.Fatalf("/health with a hung optional check = %d %s", w.Code, w.Body)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("/health took %v", d)
	}
}
