package ratelimit

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/gocommerce/commerce/platform/metrics"
	"github.com/gocommerce/commerce/platform/openapi"
	"github.com/gocommerce/commerce/platform/openapi/openapidoc"
)

// adminView decodes GET /api/v1/admin/rate-limits.
func adminView(t *testing.T, e *env, cred string) Usage {
	t.Helper()
	w := e.get("/api/v1/admin/rate-limits", "", cred)
	status(t, w, http.StatusOK)
	rateHeaders(t, w) // limited like any other route
	var raw map[string]map[string]json.RawMessage
	if err := json.Unmarshal(w.Body.Bytes(), &raw); err != nil {
		t.Fatalf("body %s: %v", w.Body.String(), err)
	}
	data := raw["data"]
	eq(t, len(raw), 1, "top-level members")
	eq(t, len(data), 2, "data members (global, by_client)")
	var u Usage
	if err := json.Unmarshal(w.Body.Bytes(), &struct{ Data *Usage }{&u}); err != nil {
		t.Fatalf("body %s: %v", w.Body.String(), err)
	}
	// The exact member names.
	var shape struct {
		Data struct {
			Global   map[string]int   `json:"global"`
			ByClient []map[string]any `json:"by_client"`
		} `json:"data"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &shape); err != nil {
		t.Fatal(err)
	}
	eq(t, len(shape.Data.Global), 2, "global members")
	for _, c := range shape.Data.ByClient {
		for _, k := range []string{"client_id", "requests_last_minute", "limit", "remaining"} {
			if _, ok := c[k]; !ok {
				t.Fatalf("by_client entry %v lacks %s", c, k)
			}
		}
		eq(t, len(c), 4, "by_client members")
	}
	return u
}

func TestAdminView(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testConfig())
	for i := 0; i < 4; i++ { // the 4th is refused but still seen
		e.get("/api/v1/ping", ipA, "")
	}
	e.get("/api/v1/ping", "", "key-a")
	e.get("/api/v1/ping", "", "key-a")
	e.get("/api/v1/ping", "", "key-b")
	e.get("/api/v1/ping", "", "jwt-x")

	// Not an admin: 403; anonymous: 401 (both limited like any other request).
	w := e.get("/api/v1/admin/rate-limits", "", "jwt-x")
	status(t, w, http.StatusForbidden)
	rateHeaders(t, w)
	status(t, e.get("/api/v1/admin/rate-limits", ipB, ""), http.StatusUnauthorized)

	u := adminView(t, e, "jwt-staff")
	eq(t, u, Usage{
		Global: GlobalUsage{RequestsPerMinute: 6, CurrentUsage: 4 + 2 + 1 + 2 + 1 + 1},
		ByClient: []ClientUsage{
			{ClientID: "ip:" + ipA, RequestsLastMinute: 4, Limit: 6, Remaining: 2},
			{ClientID: "customer:cus_x", RequestsLastMinute: 2, Limit: 60, Remaining: 58},
			{ClientID: "key:keyaaaaa", RequestsLastMinute: 2, Limit: 6, Remaining: 4},
			{ClientID: "ip:" + ipB, RequestsLastMinute: 1, Limit: 6, Remaining: 5},
			{ClientID: "key:keybbbbb", RequestsLastMinute: 1, Limit: 12, Remaining: 11},
			{ClientID: "staff:stf_1", RequestsLastMinute: 1, Limit: 60, Remaining: 59},
		},
	}, "usage")

	// An API key admin sees the same view.
	e.clock.Advance(30 * time.Second)
	u = adminView(t, e, "key-admin")
	eq(t, u.Global.CurrentUsage, 12, "current usage after 30s")

	// A minute later only the requests of the last minute count; idle clients are gone.
	e.clock.Advance(40 * time.Second)
	u = adminView(t, e, "jwt-staff")
	eq(t, u, Usage{
		Global: GlobalUsage{RequestsPerMinute: 6, CurrentUsage: 2},
		ByClient: []ClientUsage{
			{ClientID: "key:keyadmin", RequestsLastMinute: 1, Limit: 6, Remaining: 5},
			{ClientID: "staff:stf_1", RequestsLastMinute: 1, Limit: 60, Remaining: 59},
		},
	}, "usage a minute later")
}

func TestAdminViewEmpty(t *testing.T) {
	t.Parallel()
	cfg := testConfig()
	cfg.RateLimiting.Enabled = false
	e := newEnv(t, cfg)
	w := e.get("/api/v1/admin/rate-limits", "", "jwt-staff")
	status(t, w, http.StatusOK)
	eq(t, w.Body.String(), `{"data":{"global":{"requests_per_minute":6,"current_usage":0},"by_client":[]}}`, "body")
}

func TestTracker(t *testing.T) {
	t.Parallel()
	tr := newTracker(2)
	at := func(s int64) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	tr.record("a", 10, at(0))
	tr.record("a", 10, at(0))
	tr.record("a", 10, at(30))
	tr.record("b", 5, at(30))
	tr.record("c", 5, at(30)) // full: not tracked
	byID := func(s int64) map[string]int {
		m := map[string]int{}
		for _, u := range tr.snapshot(at(s)) {
			m[u.ClientID] = u.RequestsLastMinute
		}
		return m
	}
	eq(t, byID(59), map[string]int{"a": 3, "b": 1}, "at 59s")
	eq(t, byID(60), map[string]int{"a": 1, "b": 1}, "at 60s (second 0 left the window)")
	tr.record("a", 10, at(120)) // bucket of second 0 reused
	eq(t, byID(120), map[string]int{"a": 1}, "at 120s")
	eq(t, len(tr.clients), 1, "idle clients dropped")
	tr.record("c", 5, at(121)) // room again
	eq(t, byID(121), map[string]int{"a": 1, "c": 1}, "at 121s")
	tr.record("d", 5, at(200)) // full, but the others are idle: pruned to make room
	eq(t, byID(200), map[string]int{"d": 1}, "at 200s")
}

// metricValue finds a sample of a family by label value ("" for no match required).
func metricValue(t *testing.T, reg *metrics.Registry, name, label, value string) (float64, bool) {
	t.Helper()
	fams, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fams {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			if labelValue(m, label) == value {
				if f.GetType() == dto.MetricType_COUNTER {
					return m.GetCounter().GetValue(), true
				}
				return m.GetGauge().GetValue(), true
			}
		}
	}
	return 0, false
}

func labelValue(m *dto.Metric, name string) string {
	for _, l := range m.GetLabel() {
		if l.GetName() == name {
			return l.GetValue()
		}
	}
	return ""
}

func seriesCount(t *testing.T, reg *metrics.Registry, name string) int {
	t.Helper()
	fams, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fams {
		if f.GetName() == name {
			return len(f.GetMetric())
		}
	}
	return 0
}

func TestMetrics(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testConfig())
	for i := 0; i < 4; i++ {
		e.get("/api/v1/ping", ipA, "")
	}
	e.get("/api/v1/ping", "", "key-a")
	e.get("/api/v1/ping", "", "jwt-x")
	e.get("/health", ipA, "") // exempt: not counted

	want := func(name, label, value string, v float64) {
		t.Helper()
		got, ok := metricValue(t, e.reg, name, label, value)
		if !ok || got != v {
			t.Fatalf("%s{%s=%q} = %v (present %v), want %v", name, label, value, got, ok, v)
		}
	}
	want("commerce_rate_limit_hits_total", "client_type", "anonymous", 4)
	want("commerce_rate_limit_hits_total", "client_type", "authenticated", 2)
	want("commerce_rate_limit_rejected_total", "client_type", "anonymous", 1)
	want("commerce_rate_limit_rejected_total", "client_type", "authenticated", 0)
	want("commerce_rate_limit_current_rate", "client_id", "ip:"+ipA, 4)
	want("commerce_rate_limit_current_rate", "client_id", "key:keyaaaaa", 1)
	want("commerce_rate_limit_current_rate", "client_id", "customer:cus_x", 1)
	eq(t, seriesCount(t, e.reg, "commerce_rate_limit_current_rate"), 3, "current_rate series")

	// Exposed on /metrics.
	w := e.get("/metrics", "", "")
	status(t, w, http.StatusOK)
	for _, s := range []string{
		`commerce_rate_limit_hits_total{client_type="anonymous"} 4`,
		`commerce_rate_limit_current_rate{client_id="ip:` + ipA + `"} 4`,
	} {
		if !strings.Contains(w.Body.String(), s) {
			t.Fatalf("/metrics lacks %s", s)
		}
	}

	// Idle clients leave the gauge.
	e.clock.Advance(61 * time.Second)
	eq(t, seriesCount(t, e.reg, "commerce_rate_limit_current_rate"), 0, "current_rate series after a minute")
	want("commerce_rate_limit_hits_total", "client_type", "anonymous", 4)
}

func TestAdminModuleOpenAPI(t *testing.T) {
	t.Parallel()
	m := NewAdminModule(nil)
	eq(t, m.Name(), "ratelimit", "name")
	doc, err := openapidoc.Build([]openapi.Fragment{m.OpenAPI()})
	if err != nil {
		t.Fatalf("fragment: %v", err)
	}
	item := doc.Paths.Value("/api/v1/admin/rate-limits")
	if item == nil || item.Get == nil {
		t.Fatal("GET /api/v1/admin/rate-limits is not documented")
	}

	// Real responses match the documented schemas.
	e := newEnv(t, testConfig())
	for i := 0; i < 4; i++ {
		e.get("/api/v1/ping", ipA, "")
	}
	check := func(w *httptest.ResponseRecorder, code string) {
		t.Helper()
		schema := item.Get.Responses.Value(code).Value.Content.Get("application/json").Schema.Value
		var body any
		if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
			t.Fatal(err)
		}
		if err := schema.VisitJSON(body); err != nil {
			t.Fatalf("%s body %s does not match the schema: %v", code, w.Body.String(), err)
		}
	}
	check(e.get("/api/v1/admin/rate-limits", "", "jwt-staff"), "200")
	check(e.get("/api/v1/admin/rate-limits", "", "jwt-x"), "403")
	check(e.get("/api/v1/ping", ipA, ""), "429")
}

// unsent hands each counted request to Redis once: a second batch holds only what was
// counted since the first, also within the same second.
func TestTrackerUnsent(t *testing.T) {
	t.Parallel()
	tr := newTracker(10)
	tr.record("a", 6, t0)
	tr.record("a", 6, t0)
	tr.record("b", 60, t0.Add(time.Second))
	got := map[string]map[int64]int64{}
	for _, d := range tr.unsent() {
		got[d.id] = d.secs
	}
	eq(t, got, map[string]map[int64]int64{"a": {t0.Unix(): 2}, "b": {t0.Unix() + 1: 1}}, "first batch")
	eq(t, len(tr.unsent()), 0, "nothing new")
	tr.record("a", 6, t0)
	d := tr.unsent()
	eq(t, len(d), 1, "clients in the second batch")
	eq(t, d[0].secs, map[int64]int64{t0.Unix(): 1}, "second batch")
	// A bucket reused for a later second starts from zero sent.
	tr.record("a", 6, t0.Add(window*time.Second))
	d = tr.unsent()
	eq(t, d[0].secs, map[int64]int64{t0.Unix() + window: 1}, "reused bucket")
}
