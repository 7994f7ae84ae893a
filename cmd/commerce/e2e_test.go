package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/gocommerce/commerce/modules/carts"
	"github.com/gocommerce/commerce/modules/catalog"
	"github.com/gocommerce/commerce/modules/checkout"
	"github.com/gocommerce/commerce/modules/coupons"
	"github.com/gocommerce/commerce/modules/customers"
	"github.com/gocommerce/commerce/modules/identity"
	identityapi "github.com/gocommerce/commerce/modules/identity/api"
	"github.com/gocommerce/commerce/modules/inventory"
	"github.com/gocommerce/commerce/modules/orders"
	"github.com/gocommerce/commerce/modules/payments"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/metrics"
	"github.com/gocommerce/commerce/platform/modkit"
	"github.com/gocommerce/commerce/platform/openapi"
	"github.com/gocommerce/commerce/platform/ratelimit"
	"github.com/gocommerce/commerce/platform/testdb"
)

func init() {
	text := func(body io.Reader, _ http.Header, _ *openapi3.SchemaRef, _ openapi3filter.EncodingFn) (any, error) {
		b, err := io.ReadAll(body)
		return string(b), err
	}
	openapi3filter.RegisterBodyDecoder("text/html", text)
	openapi3filter.RegisterBodyDecoder("text/plain", text)
	openapi3filter.RegisterBodyDecoder("text/javascript", text)
}

// migrationSources are every module's migrations, read from modules that need no
// wiring to say them; a database of them is a copy of one template (testdb).
func migrationSources() []db.MigrationSource {
	return modkit.MigrationSources(newModules(&identity.Module{}, &customers.Module{}, &catalog.Module{}, &inventory.Module{},
		&payments.Module{}, &carts.Module{}, &coupons.Module{}, &orders.Module{}, &checkout.Module{}, &ratelimit.AdminModule{}, &metrics.Module{}))
}

// testApp is the whole process wired as in production, on a fresh database.
type testApp struct {
	t      *testing.T
	app    *App
	doc    *openapi3.T
	router routers.Router
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
	doc, err := openapi.Build(newFragments(a.Modules))
	if err != nil {
		t.Fatal(err)
	}
	doc.Servers = openapi3.Servers{{URL: "http://example.test"}}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	return &testApp{t: t, app: a, doc: doc, router: router}
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

// do sends a request through the real router and validates the response against the
// OpenAPI document: a documented operation must exist and the body must match.
func (ta *testApp) do(method, path string, body any, headers ...string) response {
	ta.t.Helper()
	var rd io.Reader
	if body != nil {
		switch b := body.(type) {
		case string:
			rd = strings.NewReader(b)
		default:
			raw, _ := json.Marshal(b)
			rd = bytes.NewReader(raw)
		}
	}
	req := httptest.NewRequest(method, "http://example.test"+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	req.RemoteAddr = "192.0.2.10:1234"
	rec := httptest.NewRecorder()
	ta.app.Server.ServeHTTP(rec, req)
	res := response{Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
	ta.validate(req, res)
	return res
}

func (ta *testApp) validate(req *http.Request, res response) {
	ta.t.Helper()
	route, params, err := ta.router.FindRoute(req)
	if err != nil {
		if res.Status == http.StatusNotFound || res.Status == http.StatusMethodNotAllowed {
			return // an undocumented path that is also unrouted
		}
		ta.t.Errorf("%s %s answered %d but is not documented: %v", req.Method, req.URL.Path, res.Status, err)
		return
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request: req, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
		},
		Status: res.Status,
		Header: res.Header,
		Body:   io.NopCloser(bytes.NewReader(res.Body)),
		Options: &openapi3filter.Options{
			IncludeResponseStatus: true,
		},
	}
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		ta.t.Errorf("%s %s → %d does not match the OpenAPI document: %v\nbody: %s", req.Method, req.URL.Path, res.Status, err, res.Body)
	}
}

// Every routed operation is documented and every documented operation is routed.
func TestEveryRouteIsDocumented(t *testing.T) {
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
