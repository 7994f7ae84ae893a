package catalog_test

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"github.com/gocommerce/commerce/modules/catalog/api"
	"github.com/gocommerce/commerce/platform/httpxtest"
)

// product.low_stock is "stock below threshold" (decision 0029): it fires when the
// product's total moves from at or above low_stock_threshold to strictly below it (and
// above zero); reaching zero is product.out_of_stock alone. The stock status and the
// inventory_status filter keep "at or below" (as the inventory module's stock_status).
func TestLowStockEvents(t *testing.T) {
	forEngine(t, func(t *testing.T, s *stack) {
		p := s.mustCreate(map[string]any{"title": "Candle", "price": "8.00", "currency": "USD", "inventory_quantity": 20, "low_stock_threshold": 10})
		pid := p["id"].(string)
		if got := s.Events("product.low_stock", "product.out_of_stock"); len(got) != 0 {
			t.Fatalf("create published %v", got)
		}
		// step sets the product's stock and returns the stock events it published.
		step := func(qty int) []string {
			t.Helper()
			before := len(s.Events())
			r := s.Do(http.MethodPatch, "/api/v1/products/"+pid, map[string]any{"inventory_quantity": qty}, "writer")
			if r.Code != 200 || r.Data()["inventory_quantity"] != float64(qty) {
				t.Fatalf("set stock %d: %d %s", qty, r.Code, r.Raw)
			}
			var out []string
			for _, e := range s.Events()[before:] {
				switch e.Type {
				case "product.low_stock", "product.out_of_stock":
					if e.AggregateID != pid || e.Data["inventory_quantity"] != float64(qty) || e.Data["variants"] == nil {
						t.Fatalf("%s data %v", e.Type, e.Data)
					}
					out = append(out, e.Type)
				}
			}
			return out
		}
		low, oos := []string{"product.low_stock"}, []string{"product.out_of_stock"}
		for _, c := range []struct {
			qty  int
			want []string
		}{
			{10, nil}, // 20 → 10: at the threshold is not below it
			{9, low},  // 10 → 9
			{5, nil},  // already below
			{10, nil}, // back to the threshold
			{20, nil}, // up
			{9, low},  // 20 → 9
			{11, nil},
			{0, oos}, // 11 → 0: out of stock only
			{3, nil}, // from zero: up, not a crossing from above
			{20, nil},
			{0, oos}, // 20 → 0
			{10, nil},
			{0, oos}, // 10 → 0
		} {
			if got := step(c.qty); !slices.Equal(got, c.want) {
				t.Fatalf("to %d: events %v, want %v", c.qty, got, c.want)
			}
		}

		// The status filter stays "at or below": 10 with threshold 10 is low_stock.
		step(10)
		if r := s.Do(http.MethodGet, "/api/v1/products?inventory_status=low_stock", nil, "admin"); !slices.Equal(httpxtest.IDs(r.List()), []string{pid}) {
			t.Fatalf("low_stock filter at the threshold: %s", r.Raw)
		}
		if r := s.Do(http.MethodGet, "/api/v1/products?inventory_status=in_stock", nil, "admin"); len(r.List()) != 0 {
			t.Fatalf("in_stock filter at the threshold: %s", r.Raw)
		}
	})
}

// The crossing is on the product's total across its variants, whichever path moves it:
// a variant write, or the inventory module through SetInventoryQuantities.
func TestLowStockEventsOnVariantTotals(t *testing.T) {
	forEngine(t, func(t *testing.T, s *stack) {
		p := s.mustCreate(map[string]any{"title": "Scarf", "price": "15.00", "currency": "USD", "low_stock_threshold": 10})
		pid := p["id"].(string)
		base := "/api/v1/products/" + pid + "/variants"
		red := s.Do(http.MethodPost, base, map[string]any{"title": "Red", "sku": "S-R", "inventory_quantity": 6}, "writer").Data()
		blue := s.Do(http.MethodPost, base, map[string]any{"title": "Blue", "sku": "S-B", "inventory_quantity": 6}, "writer").Data()
		if red == nil || blue == nil {
			t.Fatal("variants not created")
		}
		count := func() int { return len(s.Events("product.low_stock")) }
		if n := count(); n != 0 {
			t.Fatalf("low_stock while rising: %d", n)
		}
		// 12 → 10: at the threshold, nothing.
		if r := s.Do(http.MethodPut, base+"/"+blue["id"].(string), map[string]any{"inventory_quantity": 4}, "writer"); r.Code != 200 || count() != 0 {
			t.Fatalf("12 → 10: %d %s, %d low_stock", r.Code, r.Raw, count())
		}
		// 10 → 9: below.
		if r := s.Do(http.MethodPut, base+"/"+blue["id"].(string), map[string]any{"inventory_quantity": 3}, "writer"); r.Code != 200 || count() != 1 {
			t.Fatalf("10 → 9: %d %s, %d low_stock", r.Code, r.Raw, count())
		}
		if g := s.Do(http.MethodGet, "/api/v1/products/"+pid, nil, "admin").Data(); g["inventory_quantity"] != float64(9) {
			t.Fatalf("total %v", g["inventory_quantity"])
		}

		// The inventory module's path: 9 → 10 → 9 publishes one more low_stock.
		ctx := context.Background()
		var cat api.Catalog = s.svc
		for _, q := range []int{4, 3} {
			if err := cat.SetInventoryQuantities(ctx, []api.InventoryQuantity{{ProductID: pid, VariantID: blue["id"].(string), Quantity: q}}); err != nil {
				t.Fatal(err)
			}
		}
		if count() != 2 {
			t.Fatalf("SetInventoryQuantities 9 → 10 → 9: %d low_stock", count())
		}
		// 9 → 10 → 10 via another variant: the total stays at the threshold, nothing.
		if err := cat.SetInventoryQuantities(ctx, []api.InventoryQuantity{{ProductID: pid, VariantID: blue["id"].(string), Quantity: 4}}); err != nil {
			t.Fatal(err)
		}
		if err := cat.SetInventoryQuantities(ctx, []api.InventoryQuantity{
			{ProductID: pid, VariantID: red["id"].(string), Quantity: 7}, {ProductID: pid, VariantID: blue["id"].(string), Quantity: 3},
		}); err != nil {
			t.Fatal(err)
		}
		if count() != 2 {
			t.Fatalf("total kept at the threshold: %d low_stock", count())
		}
	})
}
