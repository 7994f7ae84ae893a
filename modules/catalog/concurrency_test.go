package catalog_test

import (
	"net/http"
	"sort"
	"testing"

	"github.com/gocommerce/commerce/platform/httpxtest"
)

// TestConcurrentWrites: unique generated slugs, one winner per SKU and contiguous image
// positions hold under concurrent requests on both engines (row locks on Postgres,
// one writer on SQLite, unique indexes on both).
func TestConcurrentWrites(t *testing.T) {
	forEngine(t, func(t *testing.T, s *stack) {
		const n = 8
		run := func(f func(i int) httpxtest.Response) []httpxtest.Response { return httpxtest.Concurrently(n, f) }
		// Same title at once: every product gets a distinct slug, nobody gets a 409.
		slugs := map[string]bool{}
		for _, r := range run(func(int) httpxtest.Response {
			return s.Do(http.MethodPost, "/api/v1/products", map[string]any{"title": "Same Title", "price": "1.00", "currency": "USD"}, "writer")
		}) {
			if r.Code != 201 {
				t.Fatalf("concurrent create: %d %s", r.Code, r.Raw)
			}
			slugs[r.Data()["slug"].(string)] = true
		}
		if len(slugs) != n || !slugs["same-title"] {
			t.Fatalf("slugs %v", slugs)
		}
		// Same SKU at once: exactly one variant.
		p := s.mustCreate(map[string]any{"title": "Race", "price": "1.00", "currency": "USD"})
		pid := p["id"].(string)
		created, taken := 0, 0
		for _, r := range run(func(i int) httpxtest.Response {
			return s.Do(http.MethodPost, "/api/v1/products/"+pid+"/variants", map[string]any{"title": "V", "sku": "ONE-SKU"}, "writer")
		}) {
			switch {
			case r.Code == 201:
				created++
			case r.Code == 409 && r.Err()["code"] == "VARIANT_SKU_TAKEN":
				taken++
			default:
				t.Fatalf("concurrent sku: %d %s", r.Code, r.Raw)
			}
		}
		if created != 1 || taken != n-1 {
			t.Fatalf("sku race: %d created, %d taken", created, taken)
		}
		// Uploads at once: positions 1..n, each exactly once.
		png := pngBytes(t, 2, 2, false)
		for _, r := range run(func(i int) httpxtest.Response {
			return s.upload("writer", pid, "x.png", png, map[string]string{"position": "1"})
		}) {
			if r.Code != 201 {
				t.Fatalf("concurrent upload: %d %s", r.Code, r.Raw)
			}
		}
		r := s.Do(http.MethodGet, "/api/v1/products/"+pid+"/images", nil, "reader")
		var pos []int
		for _, it := range r.List() {
			pos = append(pos, int(it["position"].(float64)))
		}
		sort.Ints(pos)
		for i, p := range pos {
			if p != i+1 {
				t.Fatalf("positions %v", pos)
			}
		}
		if len(pos) != n {
			t.Fatalf("%d images", len(pos))
		}
	})
}
