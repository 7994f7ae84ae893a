package inventory_test

import (
	"context"
	"net/http"
	"sort"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"

	"github.com/gocommerce/commerce/modules/inventory"
	inventoryevents "github.com/gocommerce/commerce/modules/inventory/adapters/events"
	inventoryhttp "github.com/gocommerce/commerce/modules/inventory/adapters/http"
	inventoryjobs "github.com/gocommerce/commerce/modules/inventory/adapters/jobs"
	"github.com/gocommerce/commerce/modules/inventory/api"
	"github.com/gocommerce/commerce/modules/inventory/app"
	"github.com/gocommerce/commerce/modules/inventory/domain"
	"github.com/gocommerce/commerce/modules/inventory/ports"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/testdb"
)

// fakeCatalog is a hand-written ports.Catalog: products with variants in memory; the
// totals inventory reports are written to a table through ctx's transaction, as the
// real catalog does, so a rolled-back change leaves no reported total.
type fakeCatalog struct {
	mu       sync.Mutex
	db       *db.DB
	products map[string]*fakeProduct
	// settle waits for the service's background catalog syncs (reservations report
	// their totals after they commit: docs/decisions/0229).
	settle func()
	// reads counts the variant lookups (GetVariant, also through GetVariants).
	reads int
}

type fakeProduct struct {
	ports.Product
	variants []ports.Variant // the default first
}

// testTables is the fake catalog's table of reported totals.
var testTables = testdb.Tables("inventory_test",
	"CREATE TABLE test_catalog_totals (variant_id text PRIMARY KEY, product_id text NOT NULL, quantity integer NOT NULL)")

func newFakeCatalog(t *testing.T, d *db.DB) *fakeCatalog {
	t.Helper()
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
	f.reads++
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

func (f *fakeCatalog) GetVariants(ctx context.Context, refs []ports.VariantRef) ([]ports.Variant, error) {
	out := make([]ports.Variant, len(refs))
	for i, r := range refs {
		v, err := f.GetVariant(ctx, r.ProductID, r.VariantID)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
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
	if f.settle != nil {
		f.settle()
	}
	var rows []int
	if err := f.db.Gorm().Raw("SELECT quantity FROM test_catalog_totals WHERE variant_id = ?", variantID).Scan(&rows).Error; err != nil || len(rows) == 0 {
		return 0, false
	}
	return rows[0], true
}

var principals = httpxtest.Principals{
	"writer": httpxtest.APIKey("wr1", "inventory:read", "inventory:write"),
	"reader": httpxtest.APIKey("rd1", "inventory:read"),
	"staff":  httpxtest.Staff("s1", "ops@example.com"),
	"other":  httpxtest.APIKey("ot1", "products:write"),
}

// docs checks every response against the module's OpenAPI fragment.
var docs = httpxtest.Docs(func() *inventory.Module { return inventory.NewModule(nil, nil, nil) })

// stack is the module built by hand on a fresh database.
type stack struct {
	*httpxtest.Harness
	t       *testing.T
	engine  string
	db      *db.DB
	clock   *clock.Fake
	catalog *fakeCatalog
	svc     *app.Service
	module  *inventory.Module
}

var t0 = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

func newStack(t *testing.T, engine string) *stack {
	t.Helper()
	env := httpxtest.NewEnv(t, engine, t0, inventory.Migrations(), testTables)
	clk := env.Clock
	cat := newFakeCatalog(t, env.DB)
	svc := app.NewService(env.DB, inventory.NewRepositories(env.DB), cat, env.Outbox(), clk, app.Settings{ReservationTimeout: 30 * time.Minute}, zaptest.NewLogger(t))
	cat.settle = svc.WaitCatalogSync
	t.Cleanup(svc.WaitCatalogSync)
	mod := inventory.NewModule(inventoryhttp.NewHandler(svc), inventoryevents.NewSubscriber(svc, zap.NewNop()), inventoryjobs.NewJobs(svc, zap.NewNop()))
	return &stack{Harness: env.Serve(principals, docs, mod), t: t, engine: engine, db: env.DB, clock: clk, catalog: cat, svc: svc, module: mod}
}

// forEngine runs fn as a parallel subtest per engine (testdb.EachEngine) on a fresh
// stack.
func forEngine(t *testing.T, fn func(t *testing.T, s *stack)) {
	httpxtest.EachEngine(t, newStack, fn)
}

// location creates a location as "writer" and answers its id.
func (s *stack) location(body map[string]any) string {
	s.t.Helper()
	return s.Must(http.StatusCreated, http.MethodPost, "/api/v1/inventory/locations", body, "writer").Data()["id"].(string)
}

// stocked adds a product with n variants under policy deny (fakeCatalog.add) whose
// default variant has quantity available at the default location.
func (s *stack) stocked(name string, threshold, n, quantity int) *fakeProduct {
	s.t.Helper()
	p := s.catalog.add(name, threshold, domain.PolicyDeny, n)
	s.set(p, 0, defaultLoc, quantity)
	return p
}

// set sets the available quantity of p's variant i at a location through the service,
// failing the test on an error.
func (s *stack) set(p *fakeProduct, i int, locationID string, quantity int) {
	s.t.Helper()
	cmd := api.SetCommand{ProductID: p.ID, VariantID: p.variant(i), LocationID: locationID, Quantity: quantity}
	if _, err := s.svc.Set(context.Background(), cmd); err != nil {
		s.t.Fatal(err)
	}
}

// do sends a request as cred and returns the status and the decoded body.
func (s *stack) do(method, path, cred string, body any) (int, map[string]any) {
	s.t.Helper()
	r := s.Do(method, path, body, cred)
	return r.Code, r.Body
}

// refusesQueries checks that GET path answers each query string with a validation
// error (400).
func (s *stack) refusesQueries(path string, queries ...string) {
	s.t.Helper()
	for _, q := range queries {
		if code, body := s.do("GET", path+"?"+q, "reader", nil); code != 400 || errCode(body) != float64(400) {
			s.t.Errorf("%s: %d %v", q, code, body)
		}
	}
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

func errCode(body map[string]any) any { return httpxtest.Response{Body: body}.Err()["code"] }

func data(body map[string]any) map[string]any { return httpxtest.Response{Body: body}.Data() }

func list(body map[string]any) []map[string]any { return httpxtest.Response{Body: body}.List() }

func pagination(body map[string]any) map[string]any {
	return httpxtest.Response{Body: body}.Pagination()
}

var num = httpxtest.Num
