package inventory_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/inventory"
	inventoryevents "github.com/gocommerce/commerce/modules/inventory/adapters/events"
	inventoryhttp "github.com/gocommerce/commerce/modules/inventory/adapters/http"
	inventoryjobs "github.com/gocommerce/commerce/modules/inventory/adapters/jobs"
	inventorypg "github.com/gocommerce/commerce/modules/inventory/adapters/postgres"
	"github.com/gocommerce/commerce/modules/inventory/app"
	"github.com/gocommerce/commerce/modules/inventory/domain"
	"github.com/gocommerce/commerce/modules/inventory/ports"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/auth"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/openapi"
	"github.com/gocommerce/commerce/platform/testdb"
)

// fakeCatalog is a hand-written ports.Catalog: products with variants in memory; the
// totals inventory reports are written to a table through ctx's transaction, as the
// real catalog does, so a rolled-back change leaves no reported total.
type fakeCatalog struct {
	mu       sync.Mutex
	db       *db.DB
	products map[string]*fakeProduct
}

type fakeProduct struct {
	ports.Product
	variants []ports.Variant // the default first
}

func newFakeCatalog(t *testing.T, d *db.DB) *fakeCatalog {
	t.Helper()
	if err := d.Gorm().Exec("CREATE TABLE test_catalog_totals (variant_id text PRIMARY KEY, product_id text NOT NULL, quantity integer NOT NULL)").Error; err != nil {
		t.Fatal(err)
	}
	return &fakeCatalog{db: d, products: map[string]*fakeProduct{}}
}

// add creates a product with n variants (the first is the default) under a policy.
func (f *fakeCatalog) add(name string, threshold int, policy domain.Policy, n int) *fakeProduct {
	f.mu.Lock()
	defer f.mu.Unlock()
	p := &fakeProduct{Product: ports.Product{ID: ids.New(), Name: name, LowStockThreshold: threshold, Currency: "USD"}}
	for i := range n {
		p.variants = append(p.variants, ports.Variant{
			ProductID: p.ID, ProductName: name, LowStockThreshold: threshold, Currency: "USD",
			VariantID: ids.New(), Title: "v", SKU: name + "-" + string(rune('a'+i)), Policy: policy, IsDefault: i == 0,
		})
	}
	f.products[p.ID] = p
	return p
}

func (p *fakeProduct) variant(i int) string { return p.variants[i].VariantID }

func (f *fakeCatalog) update(id, name string, threshold int, currency string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p := f.products[id]
	p.Name, p.LowStockThreshold, p.Currency = name, threshold, currency
	for i := range p.variants {
		p.variants[i].ProductName, p.variants[i].LowStockThreshold, p.variants[i].Currency = name, threshold, currency
	}
}

func (f *fakeCatalog) remove(id string) {
	f.mu.Lock()
	delete(f.products, id)
	f.mu.Unlock()
}

func (f *fakeCatalog) GetVariant(_ context.Context, productID, variantID string) (ports.Variant, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p, ok := f.products[productID]
	if !ok {
		return ports.Variant{}, domain.ErrProductNotFound
	}
	for _, v := range p.variants {
		if v.VariantID == variantID || (variantID == "" && v.IsDefault) {
			return v, nil
		}
	}
	return ports.Variant{}, domain.ErrVariantNotFound
}

func (f *fakeCatalog) GetProduct(_ context.Context, productID string) (ports.Product, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p, ok := f.products[productID]
	if !ok {
		return ports.Product{}, domain.ErrProductNotFound
	}
	return p.Product, nil
}

func (f *fakeCatalog) SetInventoryQuantities(ctx context.Context, totals []ports.VariantTotal) error {
	for _, t := range totals {
		err := f.db.Conn(ctx).Exec("INSERT INTO test_catalog_totals (variant_id, product_id, quantity) VALUES (?, ?, ?) "+
			"ON CONFLICT (variant_id) DO UPDATE SET quantity = excluded.quantity", t.VariantID, t.ProductID, t.Available).Error
		if err != nil {
			return err
		}
	}
	return nil
}

// total is the stock total last reported for a variant (and committed).
func (f *fakeCatalog) total(variantID string) (int, bool) {
	var rows []int
	if err := f.db.Gorm().Raw("SELECT quantity FROM test_catalog_totals WHERE variant_id = ?", variantID).Scan(&rows).Error; err != nil || len(rows) == 0 {
		return 0, false
	}
	return rows[0], true
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
	"writer": {Kind: auth.APIKey, ID: "k1", KeyPrefix: "wr1", Scopes: []string{"inventory:read", "inventory:write"}},
	"reader": {Kind: auth.APIKey, ID: "k2", KeyPrefix: "rd1", Scopes: []string{"inventory:read"}},
	"staff":  {Kind: auth.Staff, ID: "s1", Email: "ops@example.com", Scopes: []string{"admin"}},
	"other":  {Kind: auth.APIKey, ID: "k3", KeyPrefix: "ot1", Scopes: []string{"products:write"}},
}

// stack is the module built by hand on a fresh database.
type stack struct {
	t       *testing.T
	engine  string
	db      *db.DB
	clock   *clock.Fake
	catalog *fakeCatalog
	svc     *app.Service
	module  *inventory.Module
	server  *httpx.Server
	router  routers.Router
}

var t0 = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

func newStack(t *testing.T, engine string) *stack {
	t.Helper()
	e := testdb.Open(t, engine, events.Migrations(), inventory.Migrations())
	clk := clock.NewFake(t0)
	cat := newFakeCatalog(t, e.DB)
	svc := app.NewService(e.DB, app.Repositories{
		Locations:    inventorypg.NewLocationRepository(e.DB),
		Levels:       inventorypg.NewLevelRepository(e.DB),
		Movements:    inventorypg.NewMovementRepository(e.DB),
		Reservations: inventorypg.NewReservationRepository(e.DB),
		Processed:    inventorypg.NewProcessedEvents(e.DB),
	}, cat, events.NewOutbox(e.DB), clk, app.Settings{ReservationTimeout: 30 * time.Minute})
	mod := inventory.NewModule(inventoryhttp.NewHandler(svc), inventoryevents.NewSubscriber(svc, zap.NewNop()), inventoryjobs.NewJobs(svc, zap.NewNop()))
	cfg := config.Default()
	srv, err := httpx.NewServer(&cfg, zap.NewNop(), principals, nil, nil, nil, []httpx.Module{mod})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := openapi.Build([]openapi.Fragment{mod.OpenAPI()})
	if err != nil {
		t.Fatal(err)
	}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	return &stack{t: t, engine: engine, db: e.DB, clock: clk, catalog: cat, svc: svc, module: mod, server: srv, router: router}
}

// do sends a request and validates the answer against the module's OpenAPI fragment.
func (s *stack) do(method, path, cred string, body any) (int, map[string]any) {
	s.t.Helper()
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			s.t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req := httptest.NewRequest(method, "http://example.test"+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if cred != "" {
		req.Header.Set("Authorization", "Bearer "+cred)
	}
	w := httptest.NewRecorder()
	s.server.ServeHTTP(w, req)
	s.validate(req, w)
	var out map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
		s.t.Fatalf("%s %s: body %q", method, path, w.Body.String())
	}
	return w.Code, out
}

func (s *stack) validate(req *http.Request, w *httptest.ResponseRecorder) {
	s.t.Helper()
	route, params, err := s.router.FindRoute(req)
	if err != nil {
		s.t.Errorf("%s %s is not documented: %v", req.Method, req.URL.Path, err)
		return
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request: req, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
		},
		Status: w.Code, Header: w.Header(), Body: io.NopCloser(bytes.NewReader(w.Body.Bytes())),
		Options: &openapi3filter.Options{IncludeResponseStatus: true},
	}
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		s.t.Errorf("%s %s → %d does not match the OpenAPI document: %v\nbody: %s", req.Method, req.URL.Path, w.Code, err, w.Body.String())
	}
}

type outboxEvent struct {
	Type        string
	AggregateID string
	Payload     string
}

// outbox returns the stored events of a type, oldest first, with decoded payloads.
func (s *stack) outbox(eventType string) []map[string]any {
	s.t.Helper()
	var rows []outboxEvent
	if err := s.db.Gorm().Table("outbox_events").Select("type", "aggregate_id", "payload").
		Where("type = ?", eventType).Order("occurred_at, id").Find(&rows).Error; err != nil {
		s.t.Fatal(err)
	}
	out := make([]map[string]any, len(rows))
	for i, r := range rows {
		if err := json.Unmarshal([]byte(r.Payload), &out[i]); err != nil {
			s.t.Fatal(err)
		}
		out[i]["_aggregate_id"] = r.AggregateID
	}
	return out
}

// level reads a variant's quantities at a location straight from the table.
func (s *stack) level(variantID, locationID string) (available, reserved, incoming int) {
	s.t.Helper()
	var rows []struct{ Available, Reserved, Incoming int }
	if err := s.db.Gorm().Table("inventory_levels").Select("available, reserved, incoming").
		Where("variant_id = ? AND location_id = ?", variantID, locationID).Find(&rows).Error; err != nil {
		s.t.Fatal(err)
	}
	if len(rows) != 1 {
		s.t.Fatalf("level %s@%s: %d rows", variantID, locationID, len(rows))
	}
	return rows[0].Available, rows[0].Reserved, rows[0].Incoming
}

// movements returns a variant's movements (oldest first) straight from the table.
func (s *stack) movements(variantID string) []movementRecord {
	s.t.Helper()
	var rows []movementRecord
	if err := s.db.Gorm().Table("inventory_movements").Where("variant_id = ?", variantID).
		Order("created_at, id").Find(&rows).Error; err != nil {
		s.t.Fatal(err)
	}
	return rows
}

type movementRecord struct {
	ID             string
	LocationID     string
	MovementType   string
	Quantity       int
	QuantityBefore int
	QuantityAfter  int
	Reason         string
	Reference      string
	TransferID     *string
	ReservationID  *string
}

// checkLedger asserts the invariants every level keeps: the movements of each location
// chain (before of one = after of the previous), each quantity is after - before, the
// last after is the level's available, and the catalog was told the sum.
func (s *stack) checkLedger(variantID string) {
	s.t.Helper()
	byLoc := map[string][]movementRecord{}
	for _, m := range s.movements(variantID) {
		byLoc[m.LocationID] = append(byLoc[m.LocationID], m)
	}
	total := 0
	locs := make([]string, 0, len(byLoc))
	for loc := range byLoc {
		locs = append(locs, loc)
	}
	sort.Strings(locs)
	for _, loc := range locs {
		prev := 0
		for _, m := range byLoc[loc] {
			if m.QuantityBefore != prev || m.Quantity != m.QuantityAfter-m.QuantityBefore {
				s.t.Fatalf("ledger of %s@%s broken at %+v (previous after %d)", variantID, loc, m, prev)
			}
			prev = m.QuantityAfter
		}
		available, _, _ := s.level(variantID, loc)
		if available != prev {
			s.t.Fatalf("level %s@%s available %d, movements end at %d", variantID, loc, available, prev)
		}
		total += available
	}
	if got, ok := s.catalog.total(variantID); len(locs) > 0 && (!ok || got != total) {
		s.t.Fatalf("catalog total of %s = %d (%v), want %d", variantID, got, ok, total)
	}
}

func errCode(body map[string]any) any {
	e, _ := body["error"].(map[string]any)
	return e["code"]
}

func data(body map[string]any) map[string]any {
	d, _ := body["data"].(map[string]any)
	return d
}

func list(body map[string]any) []map[string]any {
	raw, _ := body["data"].([]any)
	out := make([]map[string]any, len(raw))
	for i, r := range raw {
		out[i], _ = r.(map[string]any)
	}
	return out
}

func pagination(body map[string]any) map[string]any {
	meta, _ := body["meta"].(map[string]any)
	p, _ := meta["pagination"].(map[string]any)
	return p
}

// num reads a JSON number as an int.
func num(v any) int {
	f, _ := v.(float64)
	return int(f)
}
