package catalog_test

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/httpxtest"
)

func TestCreateAndGetProduct(t *testing.T) {
	forEngine(t, func(t *testing.T, s *stack) {
		r := s.Do(http.MethodPost, "/api/v1/products", map[string]any{
			"title": "Blue Shirt", "price": "19.99", "currency": "usd", "sku": "SHIRT-1", "inventory_quantity": 7,
			"tags": []string{"summer", "cotton", "Summer"}, "meta_fields": map[string]any{"origin": "PT", "ply": 2},
		}, "writer")
		if r.Code != http.StatusCreated {
			t.Fatalf("create: %d %s", r.Code, r.Raw)
		}
		p := r.Data()
		want := "compare_at_price,cost_price,created_at,currency,description,has_variants,id,inventory_management,inventory_policy,inventory_quantity,is_featured,low_stock_threshold,meta_fields,price,product_type,published_at,requires_shipping,seo_description,seo_title,short_description,slug,status,tags,taxable,title,updated_at,variants,vendor,weight,weight_unit"
		if got := httpxtest.Keys(p); got != want {
			t.Fatalf("fields\n got %s\nwant %s", got, want)
		}
		if p["title"] != "Blue Shirt" || p["slug"] != "blue-shirt" || p["price"] != "19.99" || p["currency"] != "USD" ||
			p["status"] != "active" || p["product_type"] != "physical" || p["taxable"] != true || p["requires_shipping"] != true ||
			p["weight"] != "0" || p["weight_unit"] != "kg" || p["inventory_quantity"] != float64(7) || p["inventory_policy"] != "deny" ||
			p["inventory_management"] != "commerce" || p["low_stock_threshold"] != float64(10) || p["has_variants"] != false ||
			p["compare_at_price"] != nil || p["cost_price"] != nil || p["published_at"] == nil || p["is_featured"] != false {
			t.Fatalf("product %v", p)
		}
		if tags := p["tags"].([]any); len(tags) != 2 || tags[0] != "summer" || tags[1] != "cotton" {
			t.Fatalf("tags %v", tags)
		}
		if m := p["meta_fields"].(map[string]any); m["origin"] != "PT" || m["ply"] != float64(2) {
			t.Fatalf("meta %v", m)
		}
		for _, k := range []string{"created_at", "updated_at", "published_at"} {
			ts, _ := p[k].(string)
			if parsed, err := time.Parse(time.RFC3339Nano, ts); err != nil || parsed.Location() != time.UTC || ts[len(ts)-1] != 'Z' {
				t.Errorf("%s = %q", k, ts)
			}
		}
		vs := p["variants"].([]any)
		if len(vs) != 1 {
			t.Fatalf("variants %v", vs)
		}
		dv := vs[0].(map[string]any)
		if dv["is_default"] != true || dv["sku"] != "SHIRT-1" || dv["price"] != "19.99" || dv["inventory_quantity"] != float64(7) ||
			dv["title"] != "Default Title" || dv["product_id"] != p["id"] || len(dv["options"].(map[string]any)) != 0 {
			t.Fatalf("default variant %v", dv)
		}
		id := p["id"].(string)

		// Events in the creating transaction.
		if got := s.EventTypes(id); len(got) != 3 || got[0] != "product.created" || got[1] != "product.published" || got[2] != "catalog.stock_set" {
			t.Fatalf("product events %v", got)
		}
		created := s.Events("product.created")[0]
		if created.Data["id"] != id || created.Data["slug"] != "blue-shirt" || len(created.Data["variants"].([]any)) != 1 {
			t.Fatalf("product.created data %v", created.Data)
		}
		vc := s.Events("variant.created")
		if len(vc) != 1 || vc[0].AggregateID != dv["id"] || vc[0].Data["sku"] != "SHIRT-1" {
			t.Fatalf("variant.created %v", vc)
		}
		ss := s.Events("catalog.stock_set")[0].Data
		if ss["product_id"] != id || ss["variant_id"] != dv["id"] || ss["quantity"] != float64(7) || len(ss) != 3 {
			t.Fatalf("stock_set %v", ss)
		}

		// Get by id and by slug; includes.
		g := s.Do(http.MethodGet, "/api/v1/products/"+id, nil, "reader")
		if g.Code != 200 || g.Data()["id"] != id || g.Data()["variants"] != nil || g.Data()["images"] != nil || g.Data()["collections"] != nil {
			t.Fatalf("get: %d %s", g.Code, g.Raw)
		}
		g = s.Do(http.MethodGet, "/api/v1/products/blue-shirt?include=variants,images,collections", nil, "customer")
		d := g.Data()
		if g.Code != 200 || d["id"] != id || len(d["variants"].([]any)) != 1 || len(d["images"].([]any)) != 0 || len(d["collections"].([]any)) != 0 {
			t.Fatalf("get by slug with includes: %d %s", g.Code, g.Raw)
		}
		g = s.Do(http.MethodGet, "/api/v1/products/"+id+"?include=images", nil, "reader")
		if g.Data()["images"] == nil || g.Data()["variants"] != nil {
			t.Fatalf("include=images: %s", g.Raw)
		}
		if g := s.Do(http.MethodGet, "/api/v1/products/"+id+"?include=reviews", nil, "reader"); g.Code != 400 || g.Fields()["include"] == nil {
			t.Fatalf("bad include: %d %s", g.Code, g.Raw)
		}
		for _, path := range []string{"/api/v1/products/nope", "/api/v1/products/0190a7f0-0000-7000-8000-000000000000"} {
			if g := s.Do(http.MethodGet, path, nil, "reader"); g.Code != 404 || g.Err()["code"] != "PRODUCT_NOT_FOUND" || g.Err()["status"] != float64(404) {
				t.Fatalf("%s: %d %s", path, g.Code, g.Raw)
			}
		}

		// JPY has no minor units.
		jp := s.mustCreate(map[string]any{"title": "Tea", "price": "1999", "currency": "JPY", "product_type": "digital"})
		if jp["price"] != "1999" || jp["requires_shipping"] != false {
			t.Fatalf("JPY product %v", jp)
		}
	})
}

func TestUpdateReplaceDeleteProduct(t *testing.T) {
	forEngine(t, func(t *testing.T, s *stack) {
		p := s.mustCreate(map[string]any{"title": "Lamp", "price": "40.00", "currency": "EUR", "status": "draft", "sku": "LAMP"})
		id := p["id"].(string)
		if p["published_at"] != nil || p["status"] != "draft" {
			t.Fatalf("draft %v", p)
		}
		if got := s.EventTypes(id); len(got) != 1 || got[0] != "product.created" {
			t.Fatalf("draft create events %v", got)
		}

		// PATCH: partial; publishing moves published_at; the default variant follows.
		r := s.Do(http.MethodPatch, "/api/v1/products/"+id, map[string]any{
			"status": "active", "price": "45.50", "compare_at_price": "50", "weight": 1.25, "weight_unit": "lb",
			"inventory_quantity": 3, "inventory_policy": "continue", "sku": "LAMP-2", "vendor": " Acme ",
		}, "writer")
		d := r.Data()
		if r.Code != 200 || d["status"] != "active" || d["published_at"] == nil || d["price"] != "45.50" || d["compare_at_price"] != "50.00" ||
			d["weight"] != "1.25" || d["weight_unit"] != "lb" || d["inventory_quantity"] != float64(3) || d["vendor"] != "Acme" || d["title"] != "Lamp" {
			t.Fatalf("patch: %d %s", r.Code, r.Raw)
		}
		dv := d["variants"].([]any)[0].(map[string]any)
		if dv["price"] != "45.50" || dv["compare_at_price"] != "50.00" || dv["sku"] != "LAMP-2" || dv["inventory_quantity"] != float64(3) ||
			dv["inventory_policy"] != "continue" || dv["weight"] != "1.25" || dv["weight_unit"] != "lb" {
			t.Fatalf("default variant after patch %v", dv)
		}
		want := []string{"product.created", "product.updated", "product.published", "catalog.stock_set", "product.inventory_changed"}
		if got := s.EventTypes(id); !slices.Equal(got, want) {
			t.Fatalf("events %v, want %v", got, want)
		}
		if vu := s.Events("variant.updated"); len(vu) != 1 || vu[0].AggregateID != dv["id"] || vu[0].Data["sku"] != "LAMP-2" {
			t.Fatalf("variant.updated %v", vu)
		}
		published := d["published_at"]
		r = s.Do(http.MethodPatch, "/api/v1/products/"+id, map[string]any{"title": "Desk Lamp"}, "writer")
		if r.Data()["published_at"] != published || r.Data()["slug"] != "lamp" {
			t.Fatalf("published_at moved on a title change: %s", r.Raw)
		}
		r = s.Do(http.MethodPatch, "/api/v1/products/"+id, map[string]any{"status": "archived"}, "writer")
		if r.Data()["published_at"] != nil || r.Data()["status"] != "archived" || len(s.Events("product.unpublished")) != 1 {
			t.Fatalf("archive: %s", r.Raw)
		}
		r = s.Do(http.MethodPatch, "/api/v1/products/"+id, map[string]any{"status": "draft"}, "writer")
		if r.Code != 200 || len(s.Events("product.unpublished")) != 1 || len(s.Events("product.published")) != 1 {
			t.Fatalf("archived → draft must not publish events: %s", r.Raw)
		}
		r = s.Do(http.MethodPatch, "/api/v1/products/"+id, map[string]any{"compare_at_price": nil, "inventory_management": nil}, "writer")
		if r.Data()["compare_at_price"] != nil || r.Data()["inventory_management"] != nil {
			t.Fatalf("nulls: %s", r.Raw)
		}

		// PUT needs every writable field and names the missing ones.
		r = s.Do(http.MethodPut, "/api/v1/products/"+id, map[string]any{"title": "Only title", "price": "1.00"}, "writer")
		if r.Code != 400 || r.Err()["category"] != "validation" {
			t.Fatalf("put partial: %d %s", r.Code, r.Raw)
		}
		f := r.Fields()
		for _, k := range []string{"slug", "description", "currency", "tags", "meta_fields", "compare_at_price", "inventory_management", "seo_title"} {
			if f[k] == nil {
				t.Errorf("PUT missing %s not named: %v", k, f)
			}
		}
		if f["title"] != nil || f["price"] != nil || f["inventory_quantity"] != nil || f["sku"] != nil {
			t.Errorf("PUT names present/optional fields: %v", f)
		}
		full := map[string]any{
			"title": "Floor Lamp", "slug": "floor-lamp", "description": "<p>Tall</p>", "short_description": "Tall lamp",
			"product_type": "physical", "vendor": "Lumen", "tags": []string{"light"}, "status": "active", "is_featured": true,
			"price": "99.00", "compare_at_price": nil, "cost_price": "40.00", "currency": "EUR", "taxable": false,
			"requires_shipping": true, "weight": "3.5", "weight_unit": "kg", "inventory_policy": "deny",
			"inventory_management": "commerce", "low_stock_threshold": 2, "seo_title": "Floor lamp", "seo_description": "A lamp",
			"meta_fields": map[string]any{},
		}
		r = s.Do(http.MethodPut, "/api/v1/products/"+id, full, "writer")
		d = r.Data()
		if r.Code != 200 || d["slug"] != "floor-lamp" || d["is_featured"] != true || d["cost_price"] != "40.00" || d["taxable"] != false ||
			d["inventory_quantity"] != float64(3) || d["published_at"] == nil || d["low_stock_threshold"] != float64(2) {
			t.Fatalf("put: %d %s", r.Code, r.Raw)
		}
		if r := s.Do(http.MethodPut, "/api/v1/products/0190a7f0-0000-7000-8000-000000000000", full, "writer"); r.Code != 404 || r.Err()["code"] != "PRODUCT_NOT_FOUND" {
			t.Fatalf("put unknown: %d %s", r.Code, r.Raw)
		}

		// Delete: orders block it unless force=true; nothing changes on a refusal.
		s.orders.set(id)
		eventsBefore := len(s.Events())
		for _, q := range []string{"", "?force=false", "?force=0"} {
			if r := s.Do(http.MethodDelete, "/api/v1/products/"+id+q, nil, "writer"); r.Code != 409 || r.Err()["code"] != "PRODUCT_HAS_ORDERS" {
				t.Fatalf("delete%s with orders: %d %s", q, r.Code, r.Raw)
			}
		}
		if r := s.Do(http.MethodDelete, "/api/v1/products/"+id+"?force=maybe", nil, "writer"); r.Code != 400 || r.Fields()["force"] == nil {
			t.Fatalf("bad force: %d %s", r.Code, r.Raw)
		}
		if r := s.Do(http.MethodGet, "/api/v1/products/"+id, nil, "admin"); r.Code != 200 || r.Data()["status"] != "active" || len(s.Events()) != eventsBefore {
			t.Fatalf("refused delete changed the product: %d %s, %d new events", r.Code, r.Raw, len(s.Events())-eventsBefore)
		}
		r = s.Do(http.MethodDelete, "/api/v1/products/"+id+"?force=true", nil, "writer")
		if r.Code != 204 || len(r.Raw) != 0 {
			t.Fatalf("force delete with orders: %d %s", r.Code, r.Raw)
		}
		if r := s.Do(http.MethodGet, "/api/v1/products/"+id, nil, "admin"); r.Code != 404 || r.Err()["code"] != "PRODUCT_NOT_FOUND" {
			t.Fatalf("force-deleted product still there: %d %s", r.Code, r.Raw)
		}
		// Deleted, not archived: product.deleted is the only new event.
		if got := s.Events()[eventsBefore:]; len(got) != 1 || got[0].Type != "product.deleted" || got[0].AggregateID != id || got[0].Data["status"] != "active" {
			t.Fatalf("events of a forced delete %v", got)
		}
		other := s.mustCreate(map[string]any{"title": "Chair", "price": "10.00", "currency": "EUR"})
		oid := other["id"].(string)
		if r := s.Do(http.MethodDelete, "/api/v1/products/"+oid, nil, "writer"); r.Code != 204 || len(r.Raw) != 0 {
			t.Fatalf("delete: %d %s", r.Code, r.Raw)
		}
		if r := s.Do(http.MethodGet, "/api/v1/products/"+oid, nil, "admin"); r.Code != 404 {
			t.Fatalf("deleted product still there: %d", r.Code)
		}
		del := s.Events("product.deleted")
		if len(del) != 2 || del[1].AggregateID != oid || len(del[1].Data["variants"].([]any)) != 1 {
			t.Fatalf("product.deleted %v", del)
		}
		if r := s.Do(http.MethodDelete, "/api/v1/products/"+oid, nil, "writer"); r.Code != 404 || r.Err()["code"] != "PRODUCT_NOT_FOUND" {
			t.Fatalf("delete twice: %d %s", r.Code, r.Raw)
		}
	})
}

func TestProductValidation(t *testing.T) {
	forEngine(t, func(t *testing.T, s *stack) {
		base := func(extra map[string]any) map[string]any {
			b := map[string]any{"title": "T", "price": "1.00", "currency": "USD"}
			for k, v := range extra {
				if v == "<absent>" {
					delete(b, k)
				} else {
					b[k] = v
				}
			}
			return b
		}
		cases := []struct {
			name   string
			body   any
			status int
			code   any
			field  string
		}{
			{"missing title", base(map[string]any{"title": "<absent>"}), 400, float64(400), "title"},
			{"missing price", base(map[string]any{"price": "<absent>"}), 400, float64(400), "price"},
			{"missing currency", base(map[string]any{"currency": "<absent>"}), 400, float64(400), "currency"},
			{"empty title", base(map[string]any{"title": "  "}), 400, float64(400), "title"},
			{"title not a string", base(map[string]any{"title": 5}), 400, float64(400), "title"},
			{"bad product type", base(map[string]any{"product_type": "gadget"}), 400, "INVALID_PRODUCT_TYPE", "product_type"},
			{"bad currency", base(map[string]any{"currency": "XYZ"}), 400, "INVALID_CURRENCY", "currency"},
			{"withdrawn currency", base(map[string]any{"currency": "HRK"}), 400, "INVALID_CURRENCY", "currency"},
			{"negative price", base(map[string]any{"price": "-1.00"}), 400, "INVALID_PRICE", "price"},
			{"price as a number", base(map[string]any{"price": 19.99}), 400, "INVALID_PRICE", "price"},
			{"price not decimal", base(map[string]any{"price": "abc"}), 400, "INVALID_PRICE", "price"},
			{"price exponent", base(map[string]any{"price": "1e3"}), 400, "INVALID_PRICE", "price"},
			{"too many decimals", base(map[string]any{"price": "1.999"}), 400, "INVALID_PRICE", "price"},
			{"JPY decimals", base(map[string]any{"price": "10.5", "currency": "JPY"}), 400, "INVALID_PRICE", "price"},
			{"negative compare_at", base(map[string]any{"compare_at_price": "-2"}), 400, "INVALID_PRICE", "compare_at_price"},
			{"cost as a number", base(map[string]any{"cost_price": 3}), 400, "INVALID_PRICE", "cost_price"},
			{"bad status", base(map[string]any{"status": "live"}), 400, float64(400), "status"},
			{"bad weight unit", base(map[string]any{"weight_unit": "stone"}), 400, float64(400), "weight_unit"},
			{"negative weight", base(map[string]any{"weight": "-1"}), 400, float64(400), "weight"},
			{"bad policy", base(map[string]any{"inventory_policy": "maybe"}), 400, float64(400), "inventory_policy"},
			{"bad management", base(map[string]any{"inventory_management": "shopify"}), 400, float64(400), "inventory_management"},
			{"negative threshold", base(map[string]any{"low_stock_threshold": -1}), 400, float64(400), "low_stock_threshold"},
			{"negative stock", base(map[string]any{"inventory_quantity": -5}), 400, float64(400), "inventory_quantity"},
			{"fractional stock", base(map[string]any{"inventory_quantity": 1.5}), 400, float64(400), "inventory_quantity"},
			{"bad slug", base(map[string]any{"slug": "Not A Slug"}), 400, float64(400), "slug"},
			{"tags not strings", base(map[string]any{"tags": []any{1, 2}}), 400, float64(400), "tags"},
			{"tag with comma", base(map[string]any{"tags": []string{"a,b"}}), 400, float64(400), "tags"},
			{"meta not an object", base(map[string]any{"meta_fields": []string{"x"}}), 400, float64(400), "meta_fields"},
			{"null title", base(map[string]any{"title": nil}), 400, float64(400), "title"},
			{"not JSON", "{nope", 400, float64(400), "body"},
			{"array body", "[1]", 400, float64(400), "body"},
		}
		for _, c := range cases {
			r := s.Do(http.MethodPost, "/api/v1/products", c.body, "writer")
			if r.Code != c.status || r.Err()["code"] != c.code {
				t.Errorf("%s: %d %v, want %d %v (%s)", c.name, r.Code, r.Err()["code"], c.status, c.code, r.Raw)
				continue
			}
			if r.Fields()[c.field] == nil {
				t.Errorf("%s: fields %v lack %q", c.name, r.Fields(), c.field)
			}
		}
		if n := len(s.Events()); n != 0 {
			t.Fatalf("refused creates wrote %d events", n)
		}
		// PATCH validates the same way; a currency change must keep amounts representable.
		p := s.mustCreate(map[string]any{"title": "Cup", "price": "12.50", "currency": "USD"})
		path := "/api/v1/products/" + p["id"].(string)
		if r := s.Do(http.MethodPatch, path, map[string]any{"currency": "JPY"}, "writer"); r.Code != 400 || r.Err()["code"] != "INVALID_PRICE" {
			t.Fatalf("currency change with cents: %d %s", r.Code, r.Raw)
		}
		if r := s.Do(http.MethodPatch, path, map[string]any{"currency": "JPY", "price": "1250"}, "writer"); r.Code != 400 || r.Err()["code"] != "INVALID_PRICE" {
			t.Fatalf("currency change; variant still has cents: %d %s", r.Code, r.Raw)
		}
		if r := s.Do(http.MethodPatch, path, map[string]any{"price": "13"}, "writer"); r.Code != 200 || r.Data()["price"] != "13.00" {
			t.Fatalf("price without decimals: %d %s", r.Code, r.Raw)
		}
		if r := s.Do(http.MethodPatch, path, map[string]any{"product_type": "toy"}, "writer"); r.Code != 400 || r.Err()["code"] != "INVALID_PRODUCT_TYPE" {
			t.Fatalf("patch bad type: %d %s", r.Code, r.Raw)
		}
		if r := s.Do(http.MethodPatch, path, map[string]any{}, "writer"); r.Code != 200 {
			t.Fatalf("empty patch: %d %s", r.Code, r.Raw)
		}
		r := s.Do(http.MethodPost, "/api/v1/products", "x", "writer")
		if r.Code != 400 {
			t.Fatalf("bad JSON: %d", r.Code)
		}
	})
}
