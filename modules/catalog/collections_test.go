package catalog_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/gocommerce/commerce/platform/httpxtest"
)

func TestCollections(t *testing.T) {
	forEngine(t, func(t *testing.T, s *stack) {
		r := s.Do(http.MethodPost, "/api/v1/collections", map[string]any{"title": "Summer Sale", "description": "Hot", "seo_title": "Sale"}, "writer")
		if r.Code != 201 {
			t.Fatalf("create: %d %s", r.Code, r.Raw)
		}
		sale := r.Data()
		if httpxtest.Keys(sale) != "collection_type,created_at,description,id,is_active,rules,seo_description,seo_title,slug,title,updated_at" ||
			sale["slug"] != "summer-sale" || sale["collection_type"] != "manual" || sale["is_active"] != true || len(sale["rules"].([]any)) != 0 {
			t.Fatalf("collection %v", sale)
		}
		cid := sale["id"].(string)
		if ev := s.Events("collection.created"); len(ev) != 1 || ev[0].AggregateID != cid || ev[0].Data["slug"] != "summer-sale" {
			t.Fatalf("collection.created %v", ev)
		}
		if r := s.Do(http.MethodPost, "/api/v1/collections", map[string]any{"title": "Summer sale"}, "writer"); r.Data()["slug"] != "summer-sale-2" {
			t.Fatalf("generated slug: %s", r.Raw)
		}
		if r := s.Do(http.MethodPost, "/api/v1/collections", map[string]any{"title": "X", "slug": "summer-sale"}, "writer"); r.Code != 409 || r.Err()["code"] != "COLLECTION_SLUG_TAKEN" {
			t.Fatalf("taken slug: %d %s", r.Code, r.Raw)
		}
		for name, body := range map[string]map[string]any{
			"no title": {"description": "x"}, "bad type": {"title": "x", "collection_type": "auto"},
			"smart without rules": {"title": "x", "collection_type": "smart"},
			"manual with rules":   {"title": "x", "rules": []map[string]any{{"column": "tag", "relation": "equals", "condition": "a"}}},
			"bad rule":            {"title": "x", "collection_type": "smart", "rules": []map[string]any{{"column": "color", "relation": "equals", "condition": "a"}}},
			"bad relation":        {"title": "x", "collection_type": "smart", "rules": []map[string]any{{"column": "tag", "relation": "contains", "condition": "a"}}},
			"rules not objects":   {"title": "x", "collection_type": "smart", "rules": []string{"tag"}},
		} {
			if r := s.Do(http.MethodPost, "/api/v1/collections", body, "writer"); r.Code != 400 || r.Err()["category"] != "validation" {
				t.Errorf("%s: %d %s", name, r.Code, r.Raw)
			}
		}
		if r := s.Do(http.MethodPost, "/api/v1/collections", map[string]any{"title": "x"}, "reader"); r.Code != 403 {
			t.Fatalf("reader creates: %d", r.Code)
		}

		// Members with positions.
		a := s.mustCreate(map[string]any{"title": "A", "price": "10.00", "currency": "USD", "tags": []string{"sun"}})["id"].(string)
		b := s.mustCreate(map[string]any{"title": "B", "price": "60.00", "currency": "USD", "tags": []string{"sun", "hat"}})["id"].(string)
		c := s.mustCreate(map[string]any{"title": "C", "price": "80.00", "currency": "USD", "vendor": "Sunny Co"})["id"].(string)
		add := func(pid string, pos any) httpxtest.Response {
			body := map[string]any{"product_id": pid}
			if pos != nil {
				body["position"] = pos
			}
			return s.Do(http.MethodPost, "/api/v1/collections/"+cid+"/products", body, "writer")
		}
		r = add(a, nil)
		if r.Code != 201 || r.Data()["position"] != float64(1) || r.Data()["collection_id"] != cid || r.Data()["product_id"] != a {
			t.Fatalf("add a: %d %s", r.Code, r.Raw)
		}
		if r := add(b, nil); r.Data()["position"] != float64(2) {
			t.Fatalf("add b: %s", r.Raw)
		}
		if r := add(c, 1); r.Data()["position"] != float64(1) {
			t.Fatalf("add c first: %s", r.Raw)
		}
		members := func(query string) []string {
			r := s.Do(http.MethodGet, "/api/v1/products?collection_id="+query, nil, "reader")
			if r.Code != 200 {
				t.Fatalf("list %s: %d %s", query, r.Code, r.Raw)
			}
			return httpxtest.IDs(r.List())
		}
		if got := members(cid); !slices.Equal(got, []string{c, a, b}) {
			t.Fatalf("collection order %v", got)
		}
		if got := members("summer-sale&sort=price&order=desc"); !slices.Equal(got, []string{c, b, a}) {
			t.Fatalf("collection by slug sorted by price %v", got)
		}
		if r := add(a, nil); r.Code != 409 || r.Err()["code"] != "PRODUCT_ALREADY_IN_COLLECTION" {
			t.Fatalf("add twice: %d %s", r.Code, r.Raw)
		}
		if r := add("0190a7f0-0000-7000-8000-000000000000", nil); r.Code != 404 || r.Err()["code"] != "PRODUCT_NOT_FOUND" {
			t.Fatalf("unknown product: %d %s", r.Code, r.Raw)
		}
		if r := add(a, 0); r.Code != 400 || r.Fields()["position"] == nil {
			t.Fatalf("position 0: %d %s", r.Code, r.Raw)
		}
		if r := s.Do(http.MethodPost, "/api/v1/collections/"+cid+"/products", map[string]any{}, "writer"); r.Code != 400 || r.Fields()["product_id"] == nil {
			t.Fatalf("no product: %d %s", r.Code, r.Raw)
		}
		if r := s.Do(http.MethodPost, "/api/v1/collections/0190a7f0-0000-7000-8000-000000000000/products", map[string]any{"product_id": a}, "writer"); r.Code != 404 || r.Err()["code"] != "COLLECTION_NOT_FOUND" {
			t.Fatalf("unknown collection: %d %s", r.Code, r.Raw)
		}
		// Remove: later members move up.
		if r := s.Do(http.MethodDelete, "/api/v1/collections/"+cid+"/products/"+c, nil, "writer"); r.Code != 204 {
			t.Fatalf("remove: %d %s", r.Code, r.Raw)
		}
		if r := s.Do(http.MethodDelete, "/api/v1/collections/"+cid+"/products/"+c, nil, "writer"); r.Code != 404 || r.Err()["code"] != "PRODUCT_NOT_FOUND" {
			t.Fatalf("remove twice: %d %s", r.Code, r.Raw)
		}
		if got := members(cid); !slices.Equal(got, []string{a, b}) {
			t.Fatalf("after remove %v", got)
		}
		if r := add(c, 2); r.Data()["position"] != float64(2) {
			t.Fatalf("re-add: %s", r.Raw)
		}
		if got := members(cid); !slices.Equal(got, []string{a, c, b}) {
			t.Fatalf("after re-add %v", got)
		}
		if ev := s.Events("collection.product_added", "collection.product_removed"); len(ev) != 5 || ev[3].Type != "collection.product_removed" ||
			ev[3].Data["product_id"] != c || ev[3].Data["position"] != float64(1) {
			t.Fatalf("membership events %v", ev)
		}

		// Smart collection: rules choose, hands off.
		r = s.Do(http.MethodPost, "/api/v1/collections", map[string]any{"title": "Sunny", "collection_type": "smart", "rules": []map[string]any{
			{"column": "price", "relation": "greater_than", "condition": 50},
			{"column": "tag", "relation": "not_equals", "condition": "HAT"},
		}}, "writer")
		if r.Code != 201 || r.Data()["rules"].([]any)[0].(map[string]any)["condition"] != "50" {
			t.Fatalf("smart: %d %s", r.Code, r.Raw)
		}
		smart := r.Data()["id"].(string)
		if got := members(smart); !slices.Equal(got, []string{c}) {
			t.Fatalf("smart members %v", got)
		}
		if r := s.Do(http.MethodPost, "/api/v1/collections/"+smart+"/products", map[string]any{"product_id": a}, "writer"); r.Code != 400 || r.Err()["code"] != "SMART_COLLECTION" {
			t.Fatalf("add to smart: %d %s", r.Code, r.Raw)
		}
		r = s.Do(http.MethodPost, "/api/v1/collections", map[string]any{"title": "Sun things", "collection_type": "smart", "rules": []map[string]any{
			{"column": "title", "relation": "starts_with", "condition": "b"}, {"column": "vendor", "relation": "equals", "condition": ""},
		}}, "writer")
		if r.Code != 400 {
			t.Fatalf("empty condition: %d", r.Code)
		}
		r = s.Do(http.MethodPost, "/api/v1/collections", map[string]any{"title": "Vendors", "collection_type": "smart", "rules": []map[string]any{
			{"column": "vendor", "relation": "contains", "condition": "sunny"}, {"column": "inventory_quantity", "relation": "less_than", "condition": "1"},
		}}, "writer")
		if got := members(r.Data()["id"].(string)); !slices.Equal(got, []string{c}) {
			t.Fatalf("vendor rule members %v", got)
		}

		// include=collections: manual memberships and matching smart collections.
		g := s.Do(http.MethodGet, "/api/v1/products/"+c+"?include=collections", nil, "reader").Data()
		var titles []string
		for _, col := range g["collections"].([]any) {
			titles = append(titles, col.(map[string]any)["title"].(string))
		}
		if !slices.Equal(titles, []string{"Summer Sale", "Sunny", "Vendors"}) {
			t.Fatalf("product collections %v", titles)
		}

		// Get, list, update, delete.
		if r := s.Do(http.MethodGet, "/api/v1/collections/summer-sale", nil, "customer"); r.Code != 200 || r.Data()["id"] != cid {
			t.Fatalf("get by slug: %d %s", r.Code, r.Raw)
		}
		r = s.Do(http.MethodPatch, "/api/v1/collections/"+cid, map[string]any{"is_active": false, "title": "Old Sale"}, "writer")
		if r.Code != 200 || r.Data()["is_active"] != false || r.Data()["title"] != "Old Sale" || r.Data()["slug"] != "summer-sale" {
			t.Fatalf("patch: %d %s", r.Code, r.Raw)
		}
		if ev := s.Events("collection.updated"); len(ev) != 1 || ev[0].Data["is_active"] != false {
			t.Fatalf("collection.updated %v", ev)
		}
		if r := s.Do(http.MethodPatch, "/api/v1/collections/"+smart, map[string]any{"collection_type": "manual"}, "writer"); r.Code != 400 || r.Fields()["collection_type"] == nil {
			t.Fatalf("type change: %d %s", r.Code, r.Raw)
		}
		if r := s.Do(http.MethodGet, "/api/v1/collections/"+cid, nil, "customer"); r.Code != 404 || r.Err()["code"] != "COLLECTION_NOT_FOUND" {
			t.Fatalf("customer reads an inactive collection: %d", r.Code)
		}
		if r := s.Do(http.MethodGet, "/api/v1/products?collection_id="+cid, nil, "customer"); r.Code != 404 {
			t.Fatalf("customer lists an inactive collection: %d", r.Code)
		}
		r = s.Do(http.MethodGet, "/api/v1/collections?per_page=2&sort=title&order=asc", nil, "admin")
		if r.Code != 200 || r.Pagination()["total"] != float64(4) || len(r.List()) != 2 || r.List()[0]["title"] != "Old Sale" || r.List()[1]["title"] != "Summer sale" {
			t.Fatalf("list: %d %s", r.Code, r.Raw)
		}
		if r := s.Do(http.MethodGet, "/api/v1/collections", nil, "customer"); r.Pagination()["total"] != float64(3) {
			t.Fatalf("customer list: %s", r.Raw)
		}
		if r := s.Do(http.MethodGet, "/api/v1/collections?collection_type=smart&is_active=true", nil, "admin"); r.Pagination()["total"] != float64(2) {
			t.Fatalf("filtered list: %s", r.Raw)
		}
		if r := s.Do(http.MethodGet, "/api/v1/collections?sort=size", nil, "admin"); r.Code != 400 || r.Fields()["sort"] == nil {
			t.Fatalf("bad sort: %d", r.Code)
		}
		if r := s.Do(http.MethodDelete, "/api/v1/collections/"+cid, nil, "writer"); r.Code != 204 {
			t.Fatalf("delete: %d %s", r.Code, r.Raw)
		}
		if r := s.Do(http.MethodGet, "/api/v1/collections/"+cid, nil, "admin"); r.Code != 404 {
			t.Fatalf("deleted collection: %d", r.Code)
		}
		if r := s.Do(http.MethodGet, "/api/v1/products/"+a, nil, "admin"); r.Code != 200 {
			t.Fatalf("products stay: %d", r.Code)
		}
		// Deleting a product removes its memberships.
		r = s.Do(http.MethodPost, "/api/v1/collections", map[string]any{"title": "Keep"}, "writer")
		keep := r.Data()["id"].(string)
		s.Do(http.MethodPost, "/api/v1/collections/"+keep+"/products", map[string]any{"product_id": b}, "writer")
		s.Do(http.MethodDelete, "/api/v1/products/"+b, nil, "writer")
		if got := members(keep); len(got) != 0 {
			t.Fatalf("deleted product still a member: %v", got)
		}
	})
}
