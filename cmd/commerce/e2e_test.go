package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/gocommerce/commerce/modules/carts"
	"github.com/gocommerce/commerce/modules/catalog"
	"github.com/gocommerce/commerce/modules/checkout"
	"github.com/gocommerce/commerce/modules/coupons"
	"github.com/gocommerce/commerce/modules/customers"
	"github.com/gocommerce/commerce/modules/identity"
	identityapi "github.com/gocommerce/commerce/modules/identity/api"
	"github.com/gocommerce/commerce/modules/inventory"
	"github.com/gocommerce/commerce/modules/notifications"
	"github.com/gocommerce/commerce/modules/orders"
	"github.com/gocommerce/commerce/modules/payments"
	"github.com/gocommerce/commerce/modules/shipping"
	"github.com/gocommerce/commerce/modules/statistics"
	"github.com/gocommerce/commerce/modules/subscriptions"
	"github.com/gocommerce/commerce/modules/tax"
	"github.com/gocommerce/commerce/modules/webhooks"
	"github.com/gocommerce/commerce/platform/adminui"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/metrics"
	"github.com/gocommerce/commerce/platform/modkit"
	"github.com/gocommerce/commerce/platform/openapi"
	"github.com/gocommerce/commerce/platform/openapi/openapidoc"
	"github.com/gocommerce/commerce/platform/ratelimit"
	"github.com/gocommerce/commerce/platform/testdb"
)

func init() { httpxtest.ReadAsText("text/html", "text/plain", "text/javascript", "text/css") }

// migrationSources are every module's migrations, read from modules built without
// their parts (a module's spec names its migrations); a database of them is a copy of
// one template (testdb).
func migrationSources() []db.MigrationSource { return modkit.MigrationSources(bareModules()) }

// bareModules are every module built without its parts: what a module's spec says
// (migrations, OpenAPI fragment) without anything to run.
func bareModules() []modkit.Module {
	return newModules(identity.NewModule(nil), customers.NewModule(nil, nil, nil), catalog.NewModule(nil),
		inventory.NewModule(nil, nil, nil), payments.NewModule(nil, nil), carts.NewModule(nil, nil), coupons.NewModule(nil, nil),
		orders.NewModule(nil, nil), tax.NewModule(nil, nil), shipping.NewModule(nil, nil), statistics.NewModule(nil, nil, nil),
		checkout.NewModule(nil, nil, nil, nil), notifications.NewModule(nil, nil, nil), subscriptions.NewModule(nil, nil, nil, nil),
		webhooks.NewModule(nil, nil, nil), &ratelimit.AdminModule{}, &metrics.Module{}, &adminui.Module{})
}

// newFragments collects the OpenAPI fragment of every documented module.
func newFragments(mods []modkit.Module) []openapi.Fragment {
	var out []openapi.Fragment
	for _, m := range mods {
		if d, ok := m.(openapi.Documented); ok {
			out = append(out, d.OpenAPI())
		}
	}
	return out
}

// testApp is the whole process wired as in production, on a fresh database.
type testApp struct {
	t      *testing.T
	app    *App
	doc    *openapi3.T
	server http.Handler // app.Server, every answer checked against doc
}

// relay runs the relay rounds times over the outbox, as the worker does, failing the
// test on an error.
func (ta *testApp) relay(rounds int) {
	ta.t.Helper()
	for range rounds {
		if _, err := ta.app.Relay.Drain(context.Background()); err != nil {
			ta.t.Fatal(err)
		}
	}
}

func newTestApp(t *testing.T, engine string, mutate func(*config.Config)) *testApp {
	t.Helper()
	cfg := config.Default()
	cfg.Env = "test"
	cfg.DataDir = t.TempDir()
	cfg.Database.URL = testdb.MigratedURL(t, engine, migrationSources()...)
	cfg.Security.JWT.Secret = strings.Repeat("k", 40)
	cfg.Security.BcryptCost = 4
	cfg.Log.Level = "error"
	// Scenarios make many anonymous requests from one address; platform/ratelimit tests
	// the limits themselves.
	cfg.RateLimiting.Anonymous = config.Limit{RequestsPerMinute: 10000, BurstCapacity: 10000, RequestsPerHour: 100000}
	if mutate != nil {
		mutate(&cfg)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	a, cleanup, err := initApp(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cleanup)
	if err := a.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	doc, err := openapidoc.Build(newFragments(a.Modules))
	if err != nil {
		t.Fatal(err)
	}
	// A documented operation must exist and the body must match; an undocumented path
	// may answer only 404 or 405.
	docs := httpxtest.NewDocValidator(func() []openapi.Fragment { return newFragments(a.Modules) },
		http.StatusNotFound, http.StatusMethodNotAllowed)
	return &testApp{t: t, app: a, doc: doc, server: docs.Wrap(t, a.Server)}
}

// adminAuth creates an API key with the admin scope and returns its Authorization
// header, as do's headers.
func (ta *testApp) adminAuth() []string {
	ta.t.Helper()
	_, key, err := ta.app.Identity.CreateAPIKey(context.Background(), identityapi.CreateAPIKeyCommand{Name: "admin", Scopes: []string{"admin"}})
	if err != nil {
		ta.t.Fatal(err)
	}
	return []string{"Authorization", "Bearer " + key}
}

type response struct {
	Status int
	Header http.Header
	Body   []byte
}

func (r response) JSON(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("body is not a JSON object: %v\n%s", err, r.Body)
	}
	return m
}

// do sends a request through the real router (see send).
func (ta *testApp) do(method, path string, body any, headers ...string) response {
	ta.t.Helper()
	return ta.send(httpxtest.NewRequest(ta.t, method, path, body), headers...)
}

// send serves req from 192.0.2.10 with the headers (name, value pairs) and validates
// the response against the OpenAPI document.
func (ta *testApp) send(req *http.Request, headers ...string) response {
	ta.t.Helper()
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	req.RemoteAddr = "192.0.2.10:1234"
	rec := httptest.NewRecorder()
	ta.server.ServeHTTP(rec, req)
	return response{Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
}

// Every routed operation is documented and every documented operation is routed.
func TestEveryRouteIsDocumented(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, testdb.Primary(), nil)
	routed := map[string]bool{}
	for _, r := range ta.app.Server.Engine.Routes() {
		parts := strings.Split(r.Path, "/")
		for i, p := range parts {
			if strings.HasPrefix(p, ":") || strings.HasPrefix(p, "*") {
				parts[i] = "{" + p[1:] + "}"
			}
		}
		routed[r.Method+" "+strings.Join(parts, "/")] = true
	}
	documented := map[string]bool{}
	for path, item := range ta.doc.Paths.Map() {
		for method := range item.Operations() {
			documented[normalize(strings.ToUpper(method)+" "+path)] = true
		}
	}
	var undocumented, unrouted []string
	for k := range routed {
		if !documented[normalize(k)] {
			undocumented = append(undocumented, k)
		}
	}
	normRouted := map[string]bool{}
	for k := range routed {
		normRouted[normalize(k)] = true
	}
	for k := range documented {
		if !normRouted[k] {
			unrouted = append(unrouted, k)
		}
	}
	sort.Strings(undocumented)
	sort.Strings(unrouted)
	if len(undocumented) > 0 {
		t.Errorf("routes missing from the OpenAPI document: %v", undocumented)
	}
	if len(unrouted) > 0 {
		t.Errorf("documented operations with no route: %v", unrouted)
	}
}

// normalize replaces parameter names so {id} and {customer_id} compare equal.
func normalize(k string) string {
	parts := strings.Split(k, "/")
	for i, p := range parts {
		if strings.HasPrefix(p, "{") {
			parts[i] = "{}"
		}
	}
	return strings.Join(parts, "/")
}

// onEachEngine runs the test in parallel with the others (it calls t.Parallel, so the
// caller must not), body as one subtest per database engine, each with a fresh app
// whose configuration mutate adjusts (nil for the defaults).
func onEachEngine(t *testing.T, mutate func(*config.Config), body func(t *testing.T, ta *testApp)) {
	t.Helper()
	t.Parallel()
	for _, engine := range testdb.Engines() {
		t.Run(engine, func(t *testing.T) { body(t, newTestApp(t, engine, mutate)) })
	}
}
