package catalog_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/catalog/api"
)

func TestCatalogAPI(t *testing.T) {
	forEngine(t, func(t *testing.T, s *stack) {
		ctx := context.Background()
		var cat api.Catalog = s.svc
		simple := s.mustCreate(map[string]any{"title": "Simple", "price": "5.00", "currency": "USD", "sku": "S-1", "inventory_quantity": 20, "low_stock_threshold": 5, "status": "draft"})
		sid := simple["id"].(string)
		sdef := simple["variants"].([]any)[0].(map[string]any)["id"].(string)
		multi := s.mustCreate(map[string]any{"title": "Multi", "price": "7.00", "currency": "EUR", "weight": "0.5"})
		mid := multi["id"].(string)
		v1 := s.Do(http.MethodPost, "/api/v1/products/"+mid+"/variants", map[string]any{"title": "Red", "sku": "M-R", "price": "8.00", "options": map[string]string{"color": "red"}, "inventory_quantity": 2}, "writer").Data()
		v2 := s.Do(http.MethodPost, "/api/v1/products/"+mid+"/variants", map[string]any{"title": "Blue", "sku": "M-B", "inventory_quantity": 1}, "writer").Data()
		s.upload("writer", mid, "a.png", pngBytes(t, 2, 2, false), nil)

		p, err := cat.GetProduct(ctx, sid)
		if err != nil {
			t.Fatal(err)
		}
		if p.ID != sid || p.Status != "draft" || p.Currency != "USD" || !p.Price.Equal(decimal.RequireFromString("5")) || p.InventoryQuantity != 20 ||
			p.LowStockThreshold != 5 || p.InventoryManagement != "commerce" || p.InventoryPolicy != "deny" || !p.Taxable || !p.RequiresShipping ||
			p.ImageURL != "" || len(p.Variants) != 1 || !p.Variants[0].IsDefault || p.Variants[0].SKU != "S-1" || p.Variants[0].InventoryQuantity != 20 {
			t.Fatalf("GetProduct %+v", p)
		}
		if _, err := cat.GetProduct(ctx, "0190a7f0-0000-7000-8000-000000000000"); !errors.Is(err, api.ErrProductNotFound) {
			t.Fatalf("missing product: %v", err)
		}
		if _, err := cat.GetProduct(ctx, "nope"); !errors.Is(err, api.ErrProductNotFound) {
			t.Fatalf("malformed id: %v", err)
		}
		ps, err := cat.GetProducts(ctx, []string{mid, "0190a7f0-0000-7000-8000-000000000000", sid, "x", mid})
		if err != nil || len(ps) != 2 || ps[0].ID != mid || ps[1].ID != sid {
			t.Fatalf("GetProducts %+v %v", ps, err)
		}
		m := ps[0]
		if m.ImageURL == "" || len(m.Variants) != 2 || m.Variants[0].ID != v1["id"] || m.Variants[0].IsDefault || m.Variants[0].Options["color"] != "red" ||
			!m.Variants[1].Weight.Equal(decimal.RequireFromString("0.5")) || m.InventoryQuantity != 3 {
			t.Fatalf("multi %+v", m)
		}

		// GetSaleVariants: the same variants as GetProducts', narrowed (SaleVariantOf).
		sale, err := cat.GetSaleVariants(ctx, []string{mid, "0190a7f0-0000-7000-8000-000000000000", sid, "x", mid})
		if err != nil {
			t.Fatal(err)
		}
		wantSale := map[string]api.SaleVariant{}
		for _, p := range ps {
			for _, v := range p.Variants {
				wantSale[v.ID] = api.SaleVariantOf(p, v)
			}
		}
		if len(sale) != len(wantSale) || len(sale) != 3 {
			t.Fatalf("GetSaleVariants %+v, want %+v", sale, wantSale)
		}
		for _, v := range sale {
			w, ok := wantSale[v.ID]
			if !ok || v.ProductID != w.ProductID || v.ProductTitle != w.ProductTitle || v.Currency != w.Currency || v.Taxable != w.Taxable ||
				v.InventoryManagement != w.InventoryManagement || v.LowStockThreshold != w.LowStockThreshold || v.Title != w.Title ||
				v.SKU != w.SKU || v.IsDefault != w.IsDefault || v.RequiresShipping != w.RequiresShipping || !v.Price.Equal(w.Price) ||
				!v.Weight.Equal(w.Weight) || v.WeightUnit != w.WeightUnit || v.InventoryPolicy != w.InventoryPolicy || v.InventoryPolicy == "" {
				t.Fatalf("sale variant %+v, want %+v", v, w)
			}
		}
		if vs, err := cat.GetSaleVariants(ctx, []string{"x"}); err != nil || len(vs) != 0 {
			t.Fatalf("GetSaleVariants of none = %v, %v", vs, err)
		}

		// GetVariant: by id, default with "", none to choose for a product with variants.
		v, err := cat.GetVariant(ctx, sid, "")
		if err != nil || v.ID != sdef || !v.IsDefault {
			t.Fatalf("default variant %+v %v", v, err)
		}
		if v, err := cat.GetVariant(ctx, mid, v2["id"].(string)); err != nil || v.SKU != "M-B" || !v.Price.Equal(decimal.RequireFromString("7")) {
			t.Fatalf("variant %+v %v", v, err)
		}
		if _, err := cat.GetVariant(ctx, mid, ""); !errors.Is(err, api.ErrVariantNotFound) {
			t.Fatalf("no default: %v", err)
		}
		if _, err := cat.GetVariant(ctx, sid, v2["id"].(string)); !errors.Is(err, api.ErrVariantNotFound) {
			t.Fatalf("variant of another product: %v", err)
		}
		if _, err := cat.GetVariant(ctx, "0190a7f0-0000-7000-8000-000000000000", ""); !errors.Is(err, api.ErrProductNotFound) {
			t.Fatalf("unknown product: %v", err)
		}

		// GetProductVariant: the product with only the variant asked for, in one read.
		pv, err := cat.GetProductVariant(ctx, mid, v2["id"].(string))
		if err != nil || pv.ID != mid || pv.Title != "Multi" || pv.Currency != "EUR" || pv.ImageURL == "" || pv.InventoryQuantity != 3 ||
			len(pv.Variants) != 1 || pv.Variants[0].ID != v2["id"] || pv.Variants[0].SKU != "M-B" || pv.Variants[0].InventoryQuantity != 1 ||
			!pv.Variants[0].Price.Equal(decimal.RequireFromString("7")) {
			t.Fatalf("GetProductVariant %+v %v", pv, err)
		}
		if pv, err := cat.GetProductVariant(ctx, strings.ToUpper(mid), strings.ToUpper(v1["id"].(string))); err != nil || len(pv.Variants) != 1 ||
			pv.Variants[0].ID != v1["id"] || pv.Variants[0].Options["color"] != "red" {
			t.Fatalf("GetProductVariant in upper case %+v %v", pv, err)
		}
		if pv, err := cat.GetProductVariant(ctx, sid, ""); err != nil || pv.Status != "draft" || len(pv.Variants) != 1 || pv.Variants[0].ID != sdef || !pv.Variants[0].IsDefault {
			t.Fatalf("GetProductVariant default %+v %v", pv, err)
		}
		for _, tc := range []struct {
			pid, vid string
			want     error
		}{
			{mid, "", api.ErrVariantNotFound},                // explicit variants: the caller must choose
			{sid, v2["id"].(string), api.ErrVariantNotFound}, // a variant of another product
			{sid, "nope", api.ErrVariantNotFound},            // a malformed variant id
			{"0190a7f0-0000-7000-8000-000000000000", "", api.ErrProductNotFound},
			{"0190a7f0-0000-7000-8000-000000000000", "nope", api.ErrProductNotFound},
			{"nope", sdef, api.ErrProductNotFound},
		} {
			if _, err := cat.GetProductVariant(ctx, tc.pid, tc.vid); !errors.Is(err, tc.want) {
				t.Errorf("GetProductVariant(%s, %s): %v, want %v", tc.pid, tc.vid, err, tc.want)
			}
		}

		// FindVariant: the product of a variant id with only that variant, in one read.
		fv, err := cat.FindVariant(ctx, v2["id"].(string))
		if err != nil || fv.ID != mid || fv.Title != "Multi" || fv.Currency != "EUR" || fv.ImageURL == "" || fv.InventoryQuantity != 3 ||
			len(fv.Variants) != 1 || fv.Variants[0].ID != v2["id"] || fv.Variants[0].ProductID != mid || fv.Variants[0].SKU != "M-B" ||
			!fv.Variants[0].Price.Equal(decimal.RequireFromString("7")) {
			t.Fatalf("FindVariant %+v %v", fv, err)
		}
		if fv, err := cat.FindVariant(ctx, strings.ToUpper(sdef)); err != nil || fv.ID != sid || fv.Status != "draft" || len(fv.Variants) != 1 ||
			fv.Variants[0].ID != sdef || !fv.Variants[0].IsDefault {
			t.Fatalf("FindVariant default in upper case %+v %v", fv, err)
		}
		for _, vid := range []string{"0190a7f0-0000-7000-8000-000000000000", "nope", "", sid} {
			if _, err := cat.FindVariant(ctx, vid); !errors.Is(err, api.ErrVariantNotFound) {
				t.Errorf("FindVariant(%q): %v, want VARIANT_NOT_FOUND", vid, err)
			}
		}

		// SetInventoryQuantities: totals, and stock events on the moves.
		before := len(s.Events())
		err = cat.SetInventoryQuantities(ctx, []api.InventoryQuantity{
			{ProductID: sid, VariantID: sdef, Quantity: 4},                       // 20 → 4: changed, low
			{ProductID: mid, VariantID: v1["id"].(string), Quantity: 0},          // 3 → 1
			{ProductID: mid, VariantID: "0190a7f0-0000-7000-8000-000000000000"},  // unknown variant: skipped
			{ProductID: "0190a7f0-0000-7000-8000-000000000001", VariantID: sdef}, // unknown product: skipped
		})
		if err != nil {
			t.Fatal(err)
		}
		if p, _ := cat.GetProduct(ctx, sid); p.InventoryQuantity != 4 || p.Variants[0].InventoryQuantity != 4 {
			t.Fatalf("simple stock %+v", p)
		}
		if p, _ := cat.GetProduct(ctx, mid); p.InventoryQuantity != 1 || p.Variants[0].InventoryQuantity != 0 {
			t.Fatalf("multi stock %+v", p)
		}
		var got []string
		for _, e := range s.Events()[before:] {
			got = append(got, e.Type+":"+e.AggregateID)
		}
		want := []string{}
		for _, x := range []struct{ t, id string }{{"product.inventory_changed", sid}, {"product.low_stock", sid}, {"product.inventory_changed", mid}} {
			want = append(want, x.t+":"+x.id)
		}
		if !slices.Equal(got, want) { // products are handled in id order: Simple was created first
			t.Fatalf("stock events %v", got)
		}
		ic := s.Events("product.inventory_changed")
		if d := ic[len(ic)-1].Data; d["inventory_quantity"] == nil || d["variants"] == nil {
			t.Fatalf("inventory_changed data %v", d)
		}
		// Same totals again: nothing published. Reaching zero: out_of_stock.
		before = len(s.Events())
		if err := cat.SetInventoryQuantities(ctx, []api.InventoryQuantity{{ProductID: sid, VariantID: sdef, Quantity: 4}}); err != nil || len(s.Events()) != before {
			t.Fatalf("no-op set: %v, %d new events", err, len(s.Events())-before)
		}
		if err := cat.SetInventoryQuantities(ctx, []api.InventoryQuantity{{ProductID: sid, VariantID: sdef, Quantity: 0}}); err != nil {
			t.Fatal(err)
		}
		if ev := s.Events("product.out_of_stock"); len(ev) != 1 || ev[0].AggregateID != sid {
			t.Fatalf("out_of_stock %v", ev)
		}
		if r := s.Do(http.MethodGet, "/api/v1/products?inventory_status=out_of_stock", nil, "admin"); len(r.List()) != 1 || r.List()[0]["id"] != sid {
			t.Fatalf("list after stock change: %s", r.Raw)
		}
		// In the caller's transaction: a rollback undoes the stock and its events.
		boom := errors.New("boom")
		before = len(s.Events())
		err = s.db.InTx(ctx, func(ctx context.Context) error {
			if err := cat.SetInventoryQuantities(ctx, []api.InventoryQuantity{{ProductID: sid, VariantID: sdef, Quantity: 50}}); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatal(err)
		}
		if p, _ := cat.GetProduct(ctx, sid); p.InventoryQuantity != 0 || len(s.Events()) != before {
			t.Fatalf("rolled back stock %d, %d new events", p.InventoryQuantity, len(s.Events())-before)
		}
	})
}
