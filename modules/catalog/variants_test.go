package catalog_test

import (
	"net/http"
	"testing"

	"github.com/gocommerce/commerce/platform/httpxtest"
)

func TestVariants(t *testing.T) {
	forEngine(t, func(t *testing.T, s *stack) {
		p := s.mustCreate(map[string]any{"title": "Tee", "price": "20.00", "currency": "USD", "sku": "TEE", "inventory_quantity": 4})
		pid := p["id"].(string)
		def := p["variants"].([]any)[0].(map[string]any)
		base := "/api/v1/products/" + pid + "/variants"

		// The default variant is listed and readable.
		r := s.Do(http.MethodGet, base, nil, "reader")
		if r.Code != 200 || len(r.List()) != 1 || r.List()[0]["is_default"] != true || r.Pagination()["total"] != float64(1) {
			t.Fatalf("list default: %d %s", r.Code, r.Raw)
		}
		if r := s.Do(http.MethodGet, base+"/"+def["id"].(string), nil, "reader"); r.Code != 200 || r.Data()["sku"] != "TEE" {
			t.Fatalf("get default: %d %s", r.Code, r.Raw)
		}
		// It cannot be deleted.
		if r := s.Do(http.MethodDelete, base+"/"+def["id"].(string), nil, "writer"); r.Code != 400 || r.Err()["code"] != "DEFAULT_VARIANT_REQUIRED" {
			t.Fatalf("delete default: %d %s", r.Code, r.Raw)
		}
		// Updating the default variant carries its price and stock to the product.
		r = s.Do(http.MethodPut, base+"/"+def["id"].(string), map[string]any{"price": "22.00", "inventory_quantity": 6}, "writer")
		if r.Code != 200 || r.Data()["price"] != "22.00" || r.Data()["inventory_quantity"] != float64(6) || r.Data()["sku"] != "TEE" {
			t.Fatalf("update default: %d %s", r.Code, r.Raw)
		}
		g := s.Do(http.MethodGet, "/api/v1/products/"+pid, nil, "admin").Data()
		if g["price"] != "22.00" || g["inventory_quantity"] != float64(6) || g["has_variants"] != false {
			t.Fatalf("product after default variant update %v", g)
		}

		// The first explicit variant replaces the default variant.
		r = s.Do(http.MethodPost, base, map[string]any{"sku": "TEE-S", "price": "21.00", "inventory_quantity": 3, "options": map[string]string{"size": "S", "color": "Blue"}}, "writer")
		if r.Code != 201 {
			t.Fatalf("create variant: %d %s", r.Code, r.Raw)
		}
		small := r.Data()
		want := "barcode,compare_at_price,cost_price,created_at,id,inventory_policy,inventory_quantity,is_default,options,price,product_id,requires_shipping,sku,title,updated_at,weight,weight_unit"
		if httpxtest.Keys(small) != want {
			t.Fatalf("variant fields %s", httpxtest.Keys(small))
		}
		if small["title"] != "Blue / S" || small["is_default"] != false || small["options"].(map[string]any)["size"] != "S" || small["product_id"] != pid {
			t.Fatalf("variant %v", small)
		}
		g = s.Do(http.MethodGet, "/api/v1/products/"+pid+"?include=variants", nil, "admin").Data()
		vs := g["variants"].([]any)
		if g["has_variants"] != true || len(vs) != 1 || vs[0].(map[string]any)["id"] != small["id"] || g["inventory_quantity"] != float64(3) || g["price"] != "22.00" {
			t.Fatalf("product after first variant %v", g)
		}
		if vd := s.Events("variant.deleted"); len(vd) != 1 || vd[0].AggregateID != def["id"] {
			t.Fatalf("default variant removal event %v", vd)
		}
		// A second variant: defaults from the product, title required without options.
		if r := s.Do(http.MethodPost, base, map[string]any{"sku": "TEE-M"}, "writer"); r.Code != 400 || r.Fields()["title"] == nil {
			t.Fatalf("no title no options: %d %s", r.Code, r.Raw)
		}
		r = s.Do(http.MethodPost, base, map[string]any{"title": "Medium", "sku": "TEE-M", "inventory_quantity": 2}, "writer")
		medium := r.Data()
		if r.Code != 201 || medium["price"] != "22.00" || medium["weight_unit"] != "kg" {
			t.Fatalf("second variant: %d %s", r.Code, r.Raw)
		}
		// Unique SKU, empty SKUs repeat.
		if r := s.Do(http.MethodPost, base, map[string]any{"title": "Dup", "sku": "TEE-S"}, "writer"); r.Code != 409 || r.Err()["code"] != "VARIANT_SKU_TAKEN" {
			t.Fatalf("dup sku: %d %s", r.Code, r.Raw)
		}
		other := s.mustCreate(map[string]any{"title": "Other", "price": "1.00", "currency": "USD"})
		if r := s.Do(http.MethodPost, "/api/v1/products/"+other["id"].(string)+"/variants", map[string]any{"title": "X", "sku": "TEE-M"}, "writer"); r.Code != 409 || r.Err()["code"] != "VARIANT_SKU_TAKEN" {
			t.Fatalf("sku across products: %d %s", r.Code, r.Raw)
		}
		for i := 0; i < 2; i++ {
			if r := s.Do(http.MethodPost, base, map[string]any{"title": "No SKU", "sku": ""}, "writer"); r.Code != 201 {
				t.Fatalf("empty sku %d: %d %s", i, r.Code, r.Raw)
			}
		}
		if r := s.Do(http.MethodPut, base+"/"+medium["id"].(string), map[string]any{"sku": "TEE-S"}, "writer"); r.Code != 409 || r.Err()["code"] != "VARIANT_SKU_TAKEN" {
			t.Fatalf("update to dup sku: %d %s", r.Code, r.Raw)
		}
		// Bad input.
		for name, body := range map[string]map[string]any{
			"price number": {"title": "A", "price": 5}, "negative price": {"title": "A", "price": "-5"},
			"options not strings": {"options": map[string]any{"size": 1}}, "bad policy": {"title": "A", "inventory_policy": "x"},
		} {
			r := s.Do(http.MethodPost, base, body, "writer")
			if r.Code != 400 {
				t.Errorf("%s: %d %s", name, r.Code, r.Raw)
			}
		}
		// With variants, product-level stock is refused.
		if r := s.Do(http.MethodPatch, "/api/v1/products/"+pid, map[string]any{"inventory_quantity": 9}, "writer"); r.Code != 400 || r.Fields()["inventory_quantity"] == nil {
			t.Fatalf("product stock with variants: %d %s", r.Code, r.Raw)
		}
		// Updating an explicit variant's stock recomputes the product total.
		r = s.Do(http.MethodPatch, base+"/"+medium["id"].(string), map[string]any{"inventory_quantity": 10, "options": map[string]string{"size": "M"}}, "writer")
		if r.Code != 200 || r.Data()["title"] != "Medium" || r.Data()["options"].(map[string]any)["size"] != "M" {
			t.Fatalf("update variant: %d %s", r.Code, r.Raw)
		}
		if g := s.Do(http.MethodGet, "/api/v1/products/"+pid, nil, "admin").Data(); g["inventory_quantity"] != float64(13) || g["price"] != "22.00" {
			t.Fatalf("product total %v", g["inventory_quantity"])
		}
		r = s.Do(http.MethodGet, base+"?per_page=2", nil, "reader")
		if r.Pagination()["total"] != float64(4) || len(r.List()) != 2 || r.List()[0]["id"] != small["id"] {
			t.Fatalf("list variants: %s", r.Raw)
		}

		// Deleting every explicit variant brings the default variant back.
		for _, v := range s.Do(http.MethodGet, base, nil, "reader").List() {
			if r := s.Do(http.MethodDelete, base+"/"+v["id"].(string), nil, "writer"); r.Code != 204 {
				t.Fatalf("delete variant: %d %s", r.Code, r.Raw)
			}
		}
		g = s.Do(http.MethodGet, "/api/v1/products/"+pid+"?include=variants", nil, "admin").Data()
		vs = g["variants"].([]any)
		nd := vs[0].(map[string]any)
		if g["has_variants"] != false || len(vs) != 1 || nd["is_default"] != true || nd["price"] != "22.00" || nd["sku"] != "" ||
			nd["inventory_quantity"] != float64(0) || g["inventory_quantity"] != float64(0) || nd["id"] == def["id"] {
			t.Fatalf("after deleting all variants %v", g)
		}
		if got := s.Events("variant.created"); got[len(got)-1].AggregateID != nd["id"] {
			t.Fatalf("recreated default variant event missing")
		}
		if oos := s.Events("product.out_of_stock"); len(oos) != 1 || oos[0].AggregateID != pid {
			t.Fatalf("out_of_stock events %v", oos)
		}

		// Unknown ids.
		if r := s.Do(http.MethodGet, "/api/v1/products/0190a7f0-0000-7000-8000-000000000000/variants", nil, "reader"); r.Code != 404 || r.Err()["code"] != "PRODUCT_NOT_FOUND" {
			t.Fatalf("variants of unknown product: %d", r.Code)
		}
		if r := s.Do(http.MethodPut, base+"/0190a7f0-0000-7000-8000-000000000000", map[string]any{"title": "x"}, "writer"); r.Code != 404 || r.Err()["code"] != "VARIANT_NOT_FOUND" {
			t.Fatalf("unknown variant: %d %s", r.Code, r.Raw)
		}
		if r := s.Do(http.MethodGet, "/api/v1/products/"+other["id"].(string)+"/variants/"+nd["id"].(string), nil, "reader"); r.Code != 404 || r.Err()["code"] != "VARIANT_NOT_FOUND" {
			t.Fatalf("variant of another product: %d", r.Code)
		}
		// A product whose default variant cannot be stored (taken SKU) is not stored
		// either, and no event escapes the rolled-back transaction.
		s.mustCreate(map[string]any{"title": "Keeper", "price": "1.00", "currency": "USD", "sku": "KEEP-1"})
		before := len(s.Events())
		if r := s.Do(http.MethodPost, "/api/v1/products", map[string]any{"title": "Clash", "price": "1.00", "currency": "USD", "sku": "KEEP-1"}, "writer"); r.Code != 409 || r.Err()["code"] != "VARIANT_SKU_TAKEN" {
			t.Fatalf("create with a taken sku: %d %s", r.Code, r.Raw)
		}
		if r := s.Do(http.MethodGet, "/api/v1/products/clash", nil, "admin"); r.Code != 404 || len(s.Events()) != before {
			t.Fatalf("half-created product: %d, %d new events", r.Code, len(s.Events())-before)
		}
		// stock_set events name the variant whose stock was given.
		var setFor []string
		for _, e := range s.Events("catalog.stock_set") {
			setFor = append(setFor, e.Data["variant_id"].(string))
		}
		if len(setFor) != 5 || setFor[0] != def["id"] || setFor[2] != small["id"] || setFor[3] != medium["id"] {
			t.Fatalf("stock_set variants %v", setFor)
		}
	})
}
