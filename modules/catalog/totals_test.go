package catalog_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"gorm.io/gorm"

	"github.com/gocommerce/commerce/modules/catalog/api"
)

// countStatements counts the product counts (SELECT count(*)) sent to the stack's
// database from now on.
func countStatements(t *testing.T, s *stack) *atomic.Int64 {
	t.Helper()
	var n atomic.Int64
	err := s.db.Gorm().Callback().Query().After("gorm:query").Register("test:count_products", func(tx *gorm.DB) {
		if tx.Statement.Table == "products" && strings.Contains(strings.ToLower(tx.Statement.SQL.String()), "count(") {
			n.Add(1)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return &n
}

// listTotal lists products (the path and query after /api/v1/products?) and returns
// the pagination total.
func listTotal(t *testing.T, s *stack, query string) int {
	t.Helper()
	r := s.Do(http.MethodGet, "/api/v1/products?"+query, nil, "admin")
	if r.Code != http.StatusOK {
		t.Fatalf("list %s: %d %s", query, r.Code, r.Raw)
	}
	return int(r.Pagination()["total"].(float64))
}

func TestListTotalsCache(t *testing.T) {
	forEngine(t, func(t *testing.T, s *stack) {
		counts := countStatements(t, s)
		var first map[string]any
		for i := range 3 {
			p := s.mustCreate(map[string]any{"title": "Cached " + string(rune('A'+i)), "price": "1.00", "currency": "USD", "vendor": "Acme"})
			if first == nil {
				first = p
			}
		}
		expect := func(query string, total int, newCounts int64) {
			t.Helper()
			before := counts.Load()
			if got := listTotal(t, s, query); got != total {
				t.Fatalf("%s: total %d, want %d", query, got, total)
			}
			if got := counts.Load() - before; got != newCounts {
				t.Fatalf("%s: %d counts sent, want %d", query, got, newCounts)
			}
		}

		// A full page needs the count once per filter; order and page do not matter.
		expect("per_page=2", 3, 1)
		expect("per_page=2", 3, 0)
		expect("per_page=2&page=2&sort=title&order=asc", 3, 0)
		expect("per_page=2&vendor=Acme", 3, 1)
		expect("per_page=2&vendor=Acme", 3, 0)
		// A page that is neither full nor past the end tells the total without a count.
		expect("per_page=5&vendor=Nobody", 0, 0)
		expect("per_page=5", 3, 0)

		// Writes through this process are seen by the next list at once.
		s.mustCreate(map[string]any{"title": "Cached D", "price": "1.00", "currency": "USD", "vendor": "Acme"})
		expect("per_page=2", 4, 1)
		expect("per_page=2", 4, 0)
		id := first["id"].(string)
		if r := s.Do(http.MethodPatch, "/api/v1/products/"+id, map[string]any{"vendor": "Other"}, "admin"); r.Code != http.StatusOK {
			t.Fatalf("patch: %d %s", r.Code, r.Raw)
		}
		expect("per_page=2&vendor=Acme", 3, 1)
		if r := s.Do(http.MethodDelete, "/api/v1/products/"+id, nil, "admin"); r.Code != http.StatusNoContent {
			t.Fatalf("delete: %d %s", r.Code, r.Raw)
		}
		expect("per_page=2", 3, 1)
	})
}

// A stock change runs in the caller's transaction: its commit, not the catalog's
// return, must drop the totals, even when a list cached a total in between.
func TestListTotalsAfterStockChangeInCallerTransaction(t *testing.T) {
	forEngine(t, func(t *testing.T, s *stack) {
		ctx := context.Background()
		var variants []string
		var products []string
		for i := range 3 {
			p := s.mustCreate(map[string]any{"title": "Stock " + string(rune('A'+i)), "price": "1.00", "currency": "USD", "inventory_quantity": 0})
			products = append(products, p["id"].(string))
			variants = append(variants, p["variants"].([]any)[0].(map[string]any)["id"].(string))
		}
		const query = "per_page=2&inventory_status=out_of_stock"
		if got := listTotal(t, s, query); got != 3 {
			t.Fatalf("out of stock: %d", got)
		}
		err := s.db.InTx(ctx, func(ctx context.Context) error {
			if err := s.svc.SetInventoryQuantities(ctx, []api.InventoryQuantity{{ProductID: products[0], VariantID: variants[0], Quantity: 5}}); err != nil {
				return err
			}
			if s.engine == "postgres" {
				// Another request (its own goroutine) lists before the commit (SQLite's
				// single connection would wait for the commit instead) and caches the
				// old total.
				got := make(chan int)
				go func() {
					n := -1
					defer func() { got <- n }() // also when listTotal fails the test
					n = listTotal(t, s, query)
				}()
				if n := <-got; n != 3 {
					t.Fatalf("out of stock before the commit: %d", n)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if got := listTotal(t, s, query); got != 2 {
			t.Fatalf("out of stock after the commit: %d, want 2", got)
		}
	})
}

// ProductCollections (coupons, on every cart change) reads the products and their
// memberships, and the smart collections from a cache that collection writes drop.
func TestProductCollectionsCache(t *testing.T) {
	forEngine(t, func(t *testing.T, s *stack) {
		ctx := context.Background()
		var smartReads atomic.Int64
		err := s.db.Gorm().Callback().Query().After("gorm:query").Register("test:smart_reads", func(tx *gorm.DB) {
			if strings.Contains(tx.Statement.SQL.String(), "collection_type") {
				smartReads.Add(1)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		a := s.mustCreate(map[string]any{"title": "A", "price": "10.00", "currency": "USD", "tags": []string{"sun"}})["id"].(string)
		b := s.mustCreate(map[string]any{"title": "B", "price": "60.00", "currency": "USD"})["id"].(string)
		create := func(body map[string]any) string {
			t.Helper()
			r := s.Do(http.MethodPost, "/api/v1/collections", body, "writer")
			if r.Code != http.StatusCreated {
				t.Fatalf("create collection: %d %s", r.Code, r.Raw)
			}
			return r.Data()["id"].(string)
		}
		manual := create(map[string]any{"title": "Manual"})
		hidden := create(map[string]any{"title": "Hidden", "is_active": false})
		for _, cid := range []string{manual, hidden} {
			if r := s.Do(http.MethodPost, "/api/v1/collections/"+cid+"/products", map[string]any{"product_id": b}, "writer"); r.Code != http.StatusCreated {
				t.Fatalf("add member: %d %s", r.Code, r.Raw)
			}
		}
		smart := create(map[string]any{"title": "Sunny", "collection_type": "smart", "rules": []map[string]any{{"column": "tag", "relation": "equals", "condition": "sun"}}})

		check := func(want map[string][]string, reads int64) {
			t.Helper()
			before := smartReads.Load()
			got, err := s.svc.ProductCollections(ctx, []string{b, a, "not-an-id", a, "0190a7f0-0000-7000-8000-000000000000"})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("product collections %v, want %v", got, want)
			}
			for id, cols := range want {
				if !slices.Equal(got[id], cols) {
					t.Fatalf("product collections %v, want %v", got, want)
				}
			}
			if n := smartReads.Load() - before; n != reads {
				t.Fatalf("%d smart collection reads, want %d", n, reads)
			}
		}
		check(map[string][]string{a: {smart}, b: {manual}}, 1)
		check(map[string][]string{a: {smart}, b: {manual}}, 0)
		// A rule change through this process is seen at once.
		r := s.Do(http.MethodPatch, "/api/v1/collections/"+smart, map[string]any{"rules": []map[string]any{{"column": "price", "relation": "greater_than", "condition": "50"}}}, "writer")
		if r.Code != http.StatusOK {
			t.Fatalf("patch rules: %d %s", r.Code, r.Raw)
		}
		check(map[string][]string{a: {}, b: {manual, smart}}, 1)
		if r := s.Do(http.MethodDelete, "/api/v1/collections/"+smart, nil, "writer"); r.Code != http.StatusNoContent {
			t.Fatalf("delete: %d %s", r.Code, r.Raw)
		}
		check(map[string][]string{a: {}, b: {manual}}, 1)
	})
}
