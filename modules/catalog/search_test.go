package catalog_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/commerce/modules/catalog/app"
	"github.com/gocommerce/commerce/platform/testdb"
)

// TestSearchUsesIndexes seeds a large catalog and checks that q is served by the GIN
// indexes on Postgres (full text and trigram), not a sequential scan. The plan is the
// one recorded in docs/decisions/0020-product-search.md.
func TestSearchUsesIndexes(t *testing.T) {
	if !slices.Contains(testdb.Engines(), "postgres") {
		t.Skip("postgres not under test")
	}
	t.Parallel()
	s := newStack(t, "postgres")
	ctx := context.Background()
	start := time.Now()
	if _, err := s.svc.SeedProducts(ctx, app.SeedCommand{Count: 10000, VariantsPerProduct: 1}); err != nil {
		t.Fatal(err)
	}
	seeded := time.Since(start)
	for i := 0; i < 5; i++ {
		s.mustCreate(map[string]any{"title": "Aurora Borealis Lamp", "price": "49.00", "currency": "USD", "tags": []string{"northern"}})
	}
	if err := s.db.Gorm().Exec("ANALYZE products").Error; err != nil {
		t.Fatal(err)
	}
	const query = `SELECT products.id FROM products
WHERE products.status = 'active'
  AND (products.search_vector @@ websearch_to_tsquery('english', 'aurora')
       OR products.search_text LIKE '%aurora%' ESCAPE '\')
ORDER BY ts_rank(products.search_vector, websearch_to_tsquery('english', 'aurora')) DESC,
         products.created_at DESC, products.id DESC
LIMIT 20`
	var plan []string
	if err := s.db.Gorm().Raw("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) " + query).Scan(&plan).Error; err != nil {
		t.Fatal(err)
	}
	text := strings.Join(plan, "\n")
	t.Logf("seeded 10000 products in %v; plan:\n%s", seeded, text)
	for _, want := range []string{"Bitmap Index Scan on idx_products_search_vector", "Bitmap Index Scan on idx_products_search_trgm"} {
		if !strings.Contains(text, want) {
			t.Errorf("plan lacks %q", want)
		}
	}
	if strings.Contains(text, "Seq Scan on products") {
		t.Errorf("q runs a sequential scan")
	}
	// The same search through the API.
	r := s.Do(http.MethodGet, "/api/v1/products?q=aurora", nil, "reader")
	if r.Code != 200 || r.Pagination()["total"] != float64(5) {
		t.Fatalf("search: %d %s", r.Code, r.Raw)
	}
	r = s.Do(http.MethodGet, "/api/v1/products?q=walnut+lamp&per_page=5", nil, "reader")
	if r.Code != 200 || r.Pagination()["total"].(float64) < 1 {
		t.Fatalf("seeded search: %d %s", r.Code, r.Raw)
	}
	for _, it := range r.List() {
		if title := strings.ToLower(it["title"].(string)); !strings.Contains(title, "walnut") || !strings.Contains(title, "lamp") {
			t.Errorf("walnut lamp search found %q", it["title"])
		}
	}
	if r := s.Do(http.MethodGet, "/api/v1/products?per_page=100&page=3&sort=price&order=asc", nil, "reader"); len(r.List()) != 100 || r.Pagination()["total"] != float64(10005) {
		t.Fatalf("large list: %v", r.Pagination())
	}
}

// TestSeedProducts checks the seed helper on every engine.
func TestSeedProducts(t *testing.T) {
	forEngine(t, func(t *testing.T, s *stack) {
		ids, err := s.svc.SeedProducts(context.Background(), app.SeedCommand{Count: 600, VariantsPerProduct: 3, TitlePrefix: "Demo"})
		if err != nil || len(ids) != 600 {
			t.Fatalf("seed: %d %v", len(ids), err)
		}
		r := s.Do(http.MethodGet, "/api/v1/products/"+ids[599]+"?include=variants", nil, "reader")
		d := r.Data()
		vs := d["variants"].([]any)
		if r.Code != 200 || len(vs) != 3 || d["has_variants"] != true || !strings.HasPrefix(d["title"].(string), "Demo ") ||
			d["inventory_quantity"] != float64(3*int(vs[0].(map[string]any)["inventory_quantity"].(float64))) {
			t.Fatalf("seeded product: %d %s", r.Code, r.Raw)
		}
		if r := s.Do(http.MethodGet, "/api/v1/products?per_page=1", nil, "reader"); r.Pagination()["total"] != float64(600) {
			t.Fatalf("seeded count: %s", r.Raw)
		}
		if r := s.Do(http.MethodGet, "/api/v1/products?q=walnut&tags=eco&per_page=100", nil, "reader"); r.Code != 200 {
			t.Fatalf("seeded search: %d", r.Code)
		}
	})
}
