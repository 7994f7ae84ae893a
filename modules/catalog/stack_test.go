package catalog_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/catalog"
	cataloghttp "github.com/gocommerce/commerce/modules/catalog/adapters/http"
	"github.com/gocommerce/commerce/modules/catalog/adapters/localdisk"
	catalogpg "github.com/gocommerce/commerce/modules/catalog/adapters/postgres"
	"github.com/gocommerce/commerce/modules/catalog/app"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/auth"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/openapi"
	"github.com/gocommerce/commerce/platform/testdb"
)

func init() {
	binary := func(body io.Reader, _ http.Header, _ *openapi3.SchemaRef, _ openapi3filter.EncodingFn) (any, error) {
		b, err := io.ReadAll(body)
		return string(b), err
	}
	for _, ct := range []string{"image/png", "image/jpeg", "image/webp"} {
		openapi3filter.RegisterBodyDecoder(ct, binary)
	}
}

// fakeAuth maps bearer credentials to principals.
type fakeAuth map[string]*auth.Principal

func (f fakeAuth) Authenticate(_ context.Context, cred, _ string) (*auth.Principal, error) {
	if p, ok := f[cred]; ok {
		return p, nil
	}
	return nil, apperr.Unauthorized("Unauthorized: Invalid token")
}

var principals = fakeAuth{
	"admin":    {Kind: auth.APIKey, ID: "k1", KeyPrefix: "k1", Scopes: []string{"admin"}},
	"writer":   {Kind: auth.APIKey, ID: "k2", KeyPrefix: "k2", Scopes: []string{"products:write", "collections:write"}},
	"reader":   {Kind: auth.APIKey, ID: "k3", KeyPrefix: "k3", Scopes: []string{"products:read", "collections:read"}},
	"customer": {Kind: auth.Customer, ID: "c1", Scopes: config.Default().Security.CustomerScopes},
	"orders":   {Kind: auth.APIKey, ID: "k4", KeyPrefix: "k4", Scopes: []string{"orders:read"}},
}

// fakeOrders is ports.Orders with a settable answer.
type fakeOrders struct {
	mu   sync.Mutex
	with map[string]bool
}

func (f *fakeOrders) ProductHasOrders(_ context.Context, id string) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.with[id], nil
}

func (f *fakeOrders) set(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.with[id] = true
}

// stack is the catalog module wired by hand as catalog.ProviderSet wires it (with a
// fake orders port), behind the real router, with responses checked against the
// module's OpenAPI fragment.
type stack struct {
	t       *testing.T
	engine  string
	db      *db.DB
	svc     *app.Service
	srv     *httpx.Server
	router  routers.Router
	orders  *fakeOrders
	uploads string
}

type stackOptions struct {
	maxImageBytes int64
}

func newStack(t *testing.T, engine string, opts ...stackOptions) *stack {
	t.Helper()
	var o stackOptions
	if len(opts) > 0 {
		o = opts[0]
	}
	e := testdb.Open(t, engine, events.Migrations(), catalog.Migrations())
	cfg := config.Default()
	cfg.DataDir = t.TempDir()
	if o.maxImageBytes > 0 {
		cfg.Uploads.MaxSizeBytes = o.maxImageBytes
	}
	storage, err := localdisk.New(catalog.UploadsDir(&cfg), cfg.Uploads.PublicURL)
	if err != nil {
		t.Fatal(err)
	}
	orders := &fakeOrders{with: map[string]bool{}}
	svc := app.NewService(catalog.NewSettings(&cfg), e.DB, app.Stores{
		Products:    catalogpg.NewProductRepository(e.DB),
		Variants:    catalogpg.NewVariantRepository(e.DB),
		Images:      catalogpg.NewImageRepository(e.DB),
		Collections: catalogpg.NewCollectionRepository(e.DB),
	}, storage, orders, events.NewOutbox(e.DB), clock.New(), zap.NewNop())
	mod := catalog.NewModule(cataloghttp.NewHandler(svc, catalog.NewHTTPSettings(&cfg)))
	srv, err := httpx.NewServer(&cfg, zap.NewNop(), principals, nil, nil, nil, []httpx.Module{mod})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := openapi.Build([]openapi.Fragment{mod.OpenAPI()})
	if err != nil {
		t.Fatal(err)
	}
	doc.Servers = openapi3.Servers{{URL: "http://example.test"}}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	return &stack{t: t, engine: engine, db: e.DB, svc: svc, srv: srv, router: router, orders: orders, uploads: catalog.UploadsDir(&cfg)}
}

type response struct {
	Code   int
	Body   map[string]any
	Raw    []byte
	Header http.Header
}

func (r response) data() map[string]any {
	d, _ := r.Body["data"].(map[string]any)
	return d
}

func (r response) list() []map[string]any {
	items, _ := r.Body["data"].([]any)
	out := make([]map[string]any, 0, len(items))
	for _, it := range items {
		m, _ := it.(map[string]any)
		out = append(out, m)
	}
	return out
}

func (r response) pagination() map[string]any {
	meta, _ := r.Body["meta"].(map[string]any)
	p, _ := meta["pagination"].(map[string]any)
	return p
}

func (r response) errBody() map[string]any {
	e, _ := r.Body["error"].(map[string]any)
	return e
}

func (r response) errCode() any { return r.errBody()["code"] }

func (r response) errFields() map[string]any {
	f, _ := r.errBody()["fields"].(map[string]any)
	return f
}

// do sends a JSON request (body: nil, a string sent as is, or a value to marshal).
func (s *stack) do(method, path string, body any, cred string) response {
	s.t.Helper()
	var rd io.Reader
	if body != nil {
		switch b := body.(type) {
		case string:
			rd = strings.NewReader(b)
		default:
			raw, err := json.Marshal(b)
			if err != nil {
				s.t.Fatal(err)
			}
			rd = bytes.NewReader(raw)
		}
	}
	req := httptest.NewRequest(method, "http://example.test"+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return s.send(req, cred)
}

func (s *stack) send(req *http.Request, cred string) response {
	s.t.Helper()
	if cred != "" {
		req.Header.Set("Authorization", "Bearer "+cred)
	}
	rec := httptest.NewRecorder()
	s.srv.ServeHTTP(rec, req)
	out := response{Code: rec.Code, Raw: rec.Body.Bytes(), Header: rec.Header()}
	if strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") && rec.Body.Len() > 0 {
		if err := json.Unmarshal(rec.Body.Bytes(), &out.Body); err != nil {
			s.t.Fatalf("%s %s: body is not JSON: %q", req.Method, req.URL.Path, rec.Body.String())
		}
	}
	s.validate(req, out)
	return out
}

// validate checks the response against the OpenAPI fragment: the operation must be
// documented and the status and body must match.
func (s *stack) validate(req *http.Request, res response) {
	s.t.Helper()
	route, params, err := s.router.FindRoute(req)
	if err != nil {
		if res.Code == http.StatusNotFound || res.Code == http.StatusMethodNotAllowed {
			return
		}
		s.t.Errorf("%s %s answered %d but is not documented: %v", req.Method, req.URL.Path, res.Code, err)
		return
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request: req, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
		},
		Status:  res.Code,
		Header:  res.Header,
		Body:    io.NopCloser(bytes.NewReader(res.Raw)),
		Options: &openapi3filter.Options{IncludeResponseStatus: true},
	}
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		s.t.Errorf("%s %s → %d does not match the OpenAPI document: %v\nbody: %s", req.Method, req.URL.Path, res.Code, err, res.Raw)
	}
}

// upload posts a multipart image form.
func (s *stack) upload(cred, productID, filename string, data []byte, fields map[string]string) response {
	s.t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := w.WriteField(k, fields[k]); err != nil {
			s.t.Fatal(err)
		}
	}
	if data != nil {
		fw, err := w.CreateFormFile("file", filename)
		if err != nil {
			s.t.Fatal(err)
		}
		if _, err := fw.Write(data); err != nil {
			s.t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		s.t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodPost, "http://example.test/api/v1/products/"+productID+"/images", &buf)
	req.Header.Set("Content-Type", w.FormDataContentType())
	return s.send(req, cred)
}

// mustCreate creates a product and returns its data.
func (s *stack) mustCreate(body map[string]any) map[string]any {
	s.t.Helper()
	r := s.do(http.MethodPost, "/api/v1/products", body, "admin")
	if r.Code != http.StatusCreated {
		s.t.Fatalf("create product: %d %s", r.Code, r.Raw)
	}
	return r.data()
}

type outboxEvent struct {
	Type        string
	AggregateID string
	Data        map[string]any
}

// events lists the outbox events of the given types (all when none), in order.
func (s *stack) events(types ...string) []outboxEvent {
	s.t.Helper()
	var rows []struct {
		Type        string
		AggregateID string
		Payload     string
	}
	q := s.db.Gorm().Table("outbox_events").Select("type", "aggregate_id", "payload").Order("occurred_at, id")
	if len(types) > 0 {
		q = q.Where("type IN ?", types)
	}
	if err := q.Find(&rows).Error; err != nil {
		s.t.Fatal(err)
	}
	out := make([]outboxEvent, 0, len(rows))
	for _, r := range rows {
		e := outboxEvent{Type: r.Type, AggregateID: r.AggregateID}
		if err := json.Unmarshal([]byte(r.Payload), &e.Data); err != nil {
			s.t.Fatalf("payload of %s: %v", r.Type, err)
		}
		out = append(out, e)
	}
	return out
}

// eventTypes lists the types of the outbox events about an aggregate, in order.
func (s *stack) eventTypes(aggregateID string) []string {
	var out []string
	for _, e := range s.events() {
		if e.AggregateID == aggregateID {
			out = append(out, e.Type)
		}
	}
	return out
}

// forEngine runs f on every engine in parallel with a fresh stack.
func forEngine(t *testing.T, f func(t *testing.T, s *stack), opts ...stackOptions) {
	t.Helper()
	for _, engine := range testdb.Engines() {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			f(t, newStack(t, engine, opts...))
		})
	}
}

func keysOf(m map[string]any) string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}

func ids(items []map[string]any) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		out = append(out, fmt.Sprint(it["id"]))
	}
	return out
}
