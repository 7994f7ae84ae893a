package catalog_test

import (
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/httpxtest"
)

func TestSlugs(t *testing.T) {
	forEngine(t, func(t *testing.T, s *stack) {
		var slugs []string
		for _, title := range []string{"Crème Brûlée Set!", "Crème brûlée set", "CRÈME -- BRÛLÉE  SET", "茶", "Straße"} {
			slugs = append(slugs, s.mustCreate(map[string]any{"title": title, "price": "1.00", "currency": "EUR"})["slug"].(string))
		}
		want := []string{"creme-brulee-set", "creme-brulee-set-2", "creme-brulee-set-3", "product", "strasse"}
		if !slices.Equal(slugs, want) {
			t.Fatalf("generated slugs %v, want %v", slugs, want)
		}
		r := s.Do(http.MethodPost, "/api/v1/products", map[string]any{"title": "X", "price": "1.00", "currency": "EUR", "slug": "creme-brulee-set"}, "writer")
		if r.Code != 409 || r.Err()["code"] != "PRODUCT_SLUG_TAKEN" || r.Err()["status"] != float64(409) {
			t.Fatalf("taken slug: %d %s", r.Code, r.Raw)
		}
		p := s.mustCreate(map[string]any{"title": "X", "price": "1.00", "currency": "EUR", "slug": "my-x"})
		if p["slug"] != "my-x" {
			t.Fatalf("given slug %v", p["slug"])
		}
		path := "/api/v1/products/" + p["id"].(string)
		if r := s.Do(http.MethodPatch, path, map[string]any{"slug": "product"}, "writer"); r.Code != 409 || r.Err()["code"] != "PRODUCT_SLUG_TAKEN" {
			t.Fatalf("patch to a taken slug: %d %s", r.Code, r.Raw)
		}
		if r := s.Do(http.MethodPatch, path, map[string]any{"slug": "my-x-2"}, "writer"); r.Code != 200 || r.Data()["slug"] != "my-x-2" {
			t.Fatalf("patch slug: %d %s", r.Code, r.Raw)
		}
		if r := s.Do(http.MethodGet, "/api/v1/products/my-x-2", nil, "reader"); r.Code != 200 || r.Data()["id"] != p["id"] {
			t.Fatalf("get by new slug: %d", r.Code)
		}
		if r := s.Do(http.MethodGet, "/api/v1/products/my-x", nil, "reader"); r.Code != 404 {
			t.Fatalf("old slug still resolves: %d", r.Code)
		}
	})
}

// listFixture creates products with known attributes and returns their ids by name.
func listFixture(t *testing.T, s *stack) map[string]string {
	t.Helper()
	ids := map[string]string{}
	for _, p := range []map[string]any{
		{"title": "Alpha Cotton Shirt", "price": "25.00", "vendor": "Acme", "tags": []string{"summer", "Cotton"}, "inventory_quantity": 50, "description": "A breathable <b>shirt</b>"},
		{"title": "Bravo Wool Scarf", "price": "40.00", "vendor": "Northwind", "tags": []string{"winter"}, "inventory_quantity": 5, "is_featured": true},
		{"title": "Charlie Ebook", "price": "9.99", "vendor": "Acme", "product_type": "digital", "tags": []string{"books"}, "inventory_quantity": 0, "description": "Learn about shirts"},
		{"title": "Delta Consulting", "price": "150.00", "vendor": "Globex", "product_type": "service", "status": "draft", "inventory_quantity": 100},
		{"title": "Echo Linen Shirt", "price": "30.00", "vendor": "Northwind", "tags": []string{"summer", "linen"}, "status": "archived", "inventory_quantity": 10, "low_stock_threshold": 10},
	} {
		p["currency"] = "USD"
		d := s.mustCreate(p)
		ids[strings.Fields(p["title"].(string))[0]] = d["id"].(string)
		time.Sleep(2 * time.Millisecond) // distinct created_at
	}
	return ids
}

func TestListProductFilters(t *testing.T) {
	forEngine(t, func(t *testing.T, s *stack) {
		id := listFixture(t, s)
		names := map[string]string{}
		for n, v := range id {
			names[v] = n
		}
		list := func(cred, query string) []string {
			t.Helper()
			r := s.Do(http.MethodGet, "/api/v1/products?"+query, nil, cred)
			if r.Code != 200 {
				t.Fatalf("%s: %d %s", query, r.Code, r.Raw)
			}
			var out []string
			for _, it := range r.List() {
				out = append(out, names[it["id"].(string)])
			}
			return out
		}
		sorted := func(xs []string) []string { ys := append([]string(nil), xs...); sort.Strings(ys); return ys }
		cases := []struct {
			query string
			want  []string // in order
		}{
			{"", []string{"Echo", "Delta", "Charlie", "Bravo", "Alpha"}},
			{"order=asc", []string{"Alpha", "Bravo", "Charlie", "Delta", "Echo"}},
			{"status=active", []string{"Charlie", "Bravo", "Alpha"}},
			{"status=draft", []string{"Delta"}},
			{"product_type=digital", []string{"Charlie"}},
			{"vendor=Acme", []string{"Charlie", "Alpha"}},
			{"min_price=25&max_price=40", []string{"Echo", "Bravo", "Alpha"}},
			{"min_price=100", []string{"Delta"}},
			{"max_price=9.99", []string{"Charlie"}},
			{"tags=cotton,books", []string{"Charlie", "Alpha"}},
			{"tags=SUMMER", []string{"Echo", "Alpha"}},
			{"ids=" + id["Alpha"] + "," + id["Delta"], []string{"Delta", "Alpha"}},
			{"q=shirt", []string{"Echo", "Charlie", "Alpha"}},
			{"q=LINEN", []string{"Echo"}},
			{"q=breathable", []string{"Alpha"}},
			{"q=winter", []string{"Bravo"}},
			{"q=nothing-like-this", nil},
			{"q=100%25", nil},
			{"sort=title&order=asc", []string{"Alpha", "Bravo", "Charlie", "Delta", "Echo"}},
			{"sort=title", []string{"Echo", "Delta", "Charlie", "Bravo", "Alpha"}},
			{"sort=price&order=asc", []string{"Charlie", "Alpha", "Echo", "Bravo", "Delta"}},
			{"sort=price", []string{"Delta", "Bravo", "Echo", "Alpha", "Charlie"}},
			{"sort=created_at&order=asc", []string{"Alpha", "Bravo", "Charlie", "Delta", "Echo"}},
			{"inventory_status=out_of_stock", []string{"Charlie"}},
			{"inventory_status=low_stock", []string{"Echo", "Bravo"}},
			{"inventory_status=in_stock", []string{"Delta", "Alpha"}},
			{"is_featured=true", []string{"Bravo"}},
			{"is_featured=false&status=active", []string{"Charlie", "Alpha"}},
			{"vendor=Northwind&tags=summer", []string{"Echo"}},
		}
		for _, c := range cases {
			got := list("admin", c.query)
			if strings.HasPrefix(c.query, "q=") { // search order is relevance: compare as sets
				got, c.want = sorted(got), sorted(c.want)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("%s: %v, want %v", c.query, got, c.want)
			}
		}

		// Time window: created_after inclusive, created_before exclusive.
		r := s.Do(http.MethodGet, "/api/v1/products/"+id["Charlie"], nil, "admin")
		at := r.Data()["created_at"].(string)
		if got := list("admin", "order=asc&created_after="+url.QueryEscape(at)); !slices.Equal(got, []string{"Charlie", "Delta", "Echo"}) {
			t.Errorf("created_after: %v", got)
		}
		if got := list("admin", "order=asc&created_before="+url.QueryEscape(at)); !slices.Equal(got, []string{"Alpha", "Bravo"}) {
			t.Errorf("created_before: %v", got)
		}
		if got := list("admin", "created_before=2000-01-01"); len(got) != 0 {
			t.Errorf("created_before a date: %v", got)
		}
		if got := list("admin", "created_after=2000-01-01"); len(got) != 5 {
			t.Errorf("created_after a date: %v", got)
		}

		// Readers without products:write see active products only.
		for _, cred := range []string{"reader", "customer"} {
			if got := list(cred, ""); !slices.Equal(got, []string{"Charlie", "Bravo", "Alpha"}) {
				t.Errorf("%s sees %v", cred, got)
			}
			if got := list(cred, "status=draft"); len(got) != 0 {
				t.Errorf("%s sees drafts: %v", cred, got)
			}
			if r := s.Do(http.MethodGet, "/api/v1/products/"+id["Delta"], nil, cred); r.Code != 404 {
				t.Errorf("%s reads a draft: %d", cred, r.Code)
			}
		}

		// Pagination and the summary shape.
		r = s.Do(http.MethodGet, "/api/v1/products?per_page=2&page=2&order=asc", nil, "admin")
		p := r.Pagination()
		if r.Code != 200 || len(r.List()) != 2 || p["total"] != float64(5) || p["per_page"] != float64(2) || p["current_page"] != float64(2) ||
			p["total_pages"] != float64(3) || p["has_next"] != true || p["has_prev"] != true {
			t.Fatalf("page 2: %s", r.Raw)
		}
		if names[r.List()[0]["id"].(string)] != "Charlie" {
			t.Fatalf("page 2 starts with %v", r.List()[0]["title"])
		}
		want := "compare_at_price,created_at,currency,has_variants,id,image_url,inventory_policy,inventory_quantity,is_featured,low_stock_threshold,price,product_type,published_at,short_description,slug,status,tags,title,updated_at,vendor"
		if got := httpxtest.Keys(r.List()[0]); got != want {
			t.Fatalf("summary fields\n got %s\nwant %s", got, want)
		}
		if r := s.Do(http.MethodGet, "/api/v1/products?per_page=500", nil, "admin"); r.Pagination()["per_page"] != float64(100) {
			t.Fatalf("per_page cap: %s", r.Raw)
		}

		// Bad parameters name themselves.
		for q, field := range map[string]string{
			"status=live": "status", "product_type=toy": "product_type", "min_price=abc": "min_price", "max_price=-1": "max_price",
			"ids=1,2": "ids", "sort=rating": "sort", "order=up": "order", "created_after=yesterday": "created_after",
			"created_before=2020-13-01": "created_before", "inventory_status=plenty": "inventory_status", "is_featured=yes-ish": "is_featured",
			"page=0": "page", "per_page=x": "per_page", "q=" + strings.Repeat("a", 201): "q",
		} {
			r := s.Do(http.MethodGet, "/api/v1/products?"+q, nil, "admin")
			if r.Code != 400 || r.Fields()[field] == nil {
				t.Errorf("%s: %d %s", q, r.Code, r.Raw)
			}
		}
		if r := s.Do(http.MethodGet, "/api/v1/products?collection_id=nope", nil, "admin"); r.Code != 404 || r.Err()["code"] != "COLLECTION_NOT_FOUND" {
			t.Errorf("unknown collection: %d %s", r.Code, r.Raw)
		}
	})
}
