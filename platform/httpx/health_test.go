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
		checks []httpx.Check
		status int
		want   map[string]any
	}{
		{"all ok", []httpx.Check{{Name: "database", Ping: checkDeadline}, {Name: "redis", Ping: nil}, {Name: "queue", Ping: up}}, http.StatusOK,
			map[string]any{"status": "ok", "checks": map[string]any{
				"database": map[string]any{"status": "ok"}, "redis": map[string]any{"status": "disabled"}, "queue": map[string]any{"status": "ok"},
			}}},
		{"one down", []httpx.Check{{Name: "database", Ping: down}, {Name: "redis", Ping: up}}, http.StatusServiceUnavailable,
			map[string]any{"status": "unavailable", "checks": map[string]any{
				"database": map[string]any{"status": "down", "error": "unreachable"}, "redis": map[string]any{"status": "ok"},
			}}},
		{"no checks", nil, http.StatusOK, map[string]any{"status": "ok", "checks": map[string]any{}}},
	}
	for _, tc := range cases {
		s, _ := newServer(t, serverOpts{health: httpx.NewHealth("1.2.3", tc.checks...)})
		w := get(t, s, "/health", nil)
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

	// Without a Health, /health is an unknown route.
	s, _ := newServer(t, serverOpts{})
	if w := get(t, s, "/health", nil); w.Code != http.StatusNotFound {
		t.Fatalf("/health without Health = %d", w.Code)
	}
}
