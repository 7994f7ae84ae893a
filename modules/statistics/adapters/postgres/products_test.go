package postgres_test

import (
	"context"
	"fmt"
	"testing"

	statspg "github.com/gocommerce/commerce/modules/statistics/adapters/postgres"
	"github.com/gocommerce/commerce/modules/statistics/ports"
	"github.com/gocommerce/commerce/platform/testdb"
)

// TestSaveProductReplacesItsVariants: saving a product again (as every stock change
// does) leaves exactly its current variants with their current figures: changed ones
// updated, a dropped one removed, a new one added, and another product's untouched.
func TestSaveProductReplacesItsVariants(t *testing.T) {
	testdb.EachOpen(t, func(t *testing.T, e *testdb.Engine) {
		ctx := context.Background()
		r := statspg.NewRepository(e.DB)
		cost := int64(450)
		save := func(p ports.Product) {
			t.Helper()
			if err := r.SaveProducts(ctx, []ports.Product{p}); err != nil {
				t.Fatal(err)
			}
		}
		save(ports.Product{ID: "p2", Title: "Other", Currency: "USD", Variants: []ports.Variant{{ID: "v9", Title: "Only", InventoryQuantity: 4}}})
		save(ports.Product{ID: "p1", Title: "Mug", Currency: "USD", InventoryQuantity: 10, Variants: []ports.Variant{
			{ID: "v1", Title: "Red", SKU: "R", InventoryQuantity: 7}, {ID: "v2", Title: "Blue", SKU: "B", InventoryQuantity: 3}}})
		save(ports.Product{ID: "p1", Title: "Mug 2", Currency: "USD", InventoryQuantity: 5, Tracked: true, Variants: []ports.Variant{
			{ID: "v2", Title: "Navy", SKU: "N", Cost: &cost, InventoryQuantity: 1}, {ID: "v3", Title: "Green", SKU: "G", InventoryQuantity: 4}}})

		type variant struct {
			product, title, sku string
			qty                 int
		}
		got := map[string]variant{}
		rows, err := e.DB.Gorm().Raw("SELECT variant_id, product_id, title, sku, inventory_quantity FROM statistics_variants").Rows()
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = rows.Close() }()
		for rows.Next() {
			var id string
			var v variant
			if err := rows.Scan(&id, &v.product, &v.title, &v.sku, &v.qty); err != nil {
				t.Fatal(err)
			}
			got[id] = v
		}
		want := map[string]variant{"v2": {"p1", "Navy", "N", 1}, "v3": {"p1", "Green", "G", 4}, "v9": {"p2", "Only", "", 4}}
		if len(got) != len(want) {
			t.Fatalf("variants: got %v, want %v", got, want)
		}
		for id, w := range want {
			if got[id] != w {
				t.Errorf("variant %s: got %+v, want %+v", id, got[id], w)
			}
		}
		var title string
		var qty int
		var tracked bool
		if err := e.DB.Gorm().Raw("SELECT title, inventory_quantity, tracked FROM statistics_products WHERE product_id = 'p1'").Row().Scan(&title, &qty, &tracked); err != nil {
			t.Fatal(err)
		}
		if title != "Mug 2" || qty != 5 || !tracked {
			t.Errorf("product: %q %d %v", title, qty, tracked)
		}
		save(ports.Product{ID: "p1", Title: "Mug 2", Currency: "USD"}) // no variants left
		var n int
		if err := e.DB.Gorm().Raw("SELECT COUNT(*) FROM statistics_variants WHERE product_id = 'p1'").Row().Scan(&n); err != nil || n != 0 {
			t.Errorf("p1's variants after it has none: %d (%v)", n, err)
		}
	}, statspg.Migrations())
}

// TestSaveProductsInOneBatch: distinct products saved together, past the round size
// of variants (1,000), each with exactly its variants; a product re-saved in a later
// batch loses the variants it dropped, the others are untouched.
func TestSaveProductsInOneBatch(t *testing.T) {
	testdb.EachOpen(t, func(t *testing.T, e *testdb.Engine) {
		ctx := context.Background()
		r := statspg.NewRepository(e.DB)
		product := func(id string, variants int) ports.Product {
			p := ports.Product{ID: id, Title: "T " + id, Currency: "USD", InventoryQuantity: variants}
			for i := range variants {
				p.Variants = append(p.Variants, ports.Variant{ID: fmt.Sprintf("%s-v%d", id, i), Title: "V", InventoryQuantity: 1})
			}
			return p
		}
		if err := r.SaveProducts(ctx, []ports.Product{product("a", 600), product("b", 600), product("c", 1)}); err != nil {
			t.Fatal(err)
		}
		count := func(q string, args ...any) int {
			t.Helper()
			var n int
			if err := e.DB.Gorm().Raw(q, args...).Row().Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		if n := count("SELECT COUNT(*) FROM statistics_variants"); n != 1201 {
			t.Fatalf("%d variants saved, want 1201", n)
		}
		if err := r.SaveProducts(ctx, []ports.Product{product("a", 2), product("c", 0)}); err != nil {
			t.Fatal(err)
		}
		for id, want := range map[string]int{"a": 2, "b": 600, "c": 0} {
			if n := count("SELECT COUNT(*) FROM statistics_variants WHERE product_id = ?", id); n != want {
				t.Errorf("product %s: %d variants, want %d", id, n, want)
			}
		}
		if n := count("SELECT inventory_quantity FROM statistics_products WHERE product_id = 'a'"); n != 2 {
			t.Errorf("product a's stock %d, want 2", n)
		}
	}, statspg.Migrations())
}
