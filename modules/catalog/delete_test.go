package catalog_test

import (
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gocommerce/commerce/platform/httpxtest"
)

// A product that orders reference is deleted with force=true exactly like a product
// without orders (decision 0025): 204, product.deleted, and its variants, images (files
// too), tags and collection memberships are gone.
func TestForceDeleteProductWithOrders(t *testing.T) {
	forEngine(t, func(t *testing.T, s *stack) {
		p := s.mustCreate(map[string]any{"title": "Kettle", "price": "25.00", "currency": "EUR", "status": "active", "tags": []string{"kitchen", "steel"}})
		pid := p["id"].(string)
		base := "/api/v1/products/" + pid
		for _, v := range []map[string]any{
			{"title": "Red", "sku": "K-R", "price": "25.00", "inventory_quantity": 2, "options": map[string]string{"color": "red"}},
			{"title": "Blue", "sku": "K-B", "price": "26.00", "inventory_quantity": 3, "options": map[string]string{"color": "blue"}},
		} {
			if r := s.Do(http.MethodPost, base+"/variants", v, "writer"); r.Code != 201 {
				t.Fatalf("add variant: %d %s", r.Code, r.Raw)
			}
		}
		img := s.upload("writer", pid, "k.png", pngBytes(t, 2, 2, false), nil)
		if img.Code != 201 {
			t.Fatalf("upload: %d %s", img.Code, img.Raw)
		}
		key := strings.TrimPrefix(img.Data()["url"].(string), "/uploads/")
		if _, err := os.Stat(filepath.Join(s.uploads, key)); err != nil {
			t.Fatalf("image file not stored: %v", err)
		}
		c := s.Do(http.MethodPost, "/api/v1/collections", map[string]any{"title": "Kitchen"}, "writer")
		cid := c.Data()["id"].(string)
		if r := s.Do(http.MethodPost, "/api/v1/collections/"+cid+"/products", map[string]any{"product_id": pid}, "writer"); r.Code != 201 {
			t.Fatalf("add to collection: %d %s", r.Code, r.Raw)
		}
		// Another product keeps its rows.
		keep := s.mustCreate(map[string]any{"title": "Toaster", "price": "30.00", "currency": "EUR", "tags": []string{"kitchen"}})["id"].(string)
		if r := s.Do(http.MethodPost, "/api/v1/collections/"+cid+"/products", map[string]any{"product_id": keep}, "writer"); r.Code != 201 {
			t.Fatalf("add keep to collection: %d %s", r.Code, r.Raw)
		}

		rows := func(table, productID string) int64 {
			var n int64
			if err := s.db.Gorm().Table(table).Where("product_id = ?", productID).Count(&n).Error; err != nil {
				t.Fatal(err)
			}
			return n
		}
		tables := []string{"product_variants", "product_images", "product_tags", "collection_products"}
		for _, tb := range tables {
			if rows(tb, pid) == 0 {
				t.Fatalf("setup: no %s rows", tb)
			}
		}

		s.orders.set(pid)
		before := len(s.Events())
		if r := s.Do(http.MethodDelete, base, nil, "writer"); r.Code != 409 || r.Err()["code"] != "PRODUCT_HAS_ORDERS" || r.Err()["status"] != float64(409) {
			t.Fatalf("delete with orders: %d %s", r.Code, r.Raw)
		}
		for _, tb := range tables {
			if rows(tb, pid) == 0 {
				t.Fatalf("refused delete removed %s rows", tb)
			}
		}
		if r := s.Do(http.MethodDelete, base+"?force=true", nil, "reader"); r.Code != 403 {
			t.Fatalf("reader force-deletes: %d", r.Code)
		}
		if len(s.Events()) != before {
			t.Fatalf("refused deletes published events")
		}

		r := s.Do(http.MethodDelete, base+"?force=true", nil, "writer")
		if r.Code != 204 || len(r.Raw) != 0 {
			t.Fatalf("force delete: %d %s", r.Code, r.Raw)
		}
		got := s.Events()[before:]
		if len(got) != 1 || got[0].Type != "product.deleted" || got[0].AggregateID != pid {
			t.Fatalf("events of the forced delete %v", got)
		}
		if vs, _ := got[0].Data["variants"].([]any); len(vs) != 2 {
			t.Fatalf("product.deleted variants %v", got[0].Data["variants"])
		}
		for _, tb := range tables {
			if n := rows(tb, pid); n != 0 {
				t.Errorf("%s rows left: %d", tb, n)
			}
		}
		if _, err := os.Stat(filepath.Join(s.uploads, key)); !os.IsNotExist(err) {
			t.Errorf("image file left: %v", err)
		}
		for _, path := range []string{base, base + "/variants", base + "/images"} {
			if r := s.Do(http.MethodGet, path, nil, "admin"); r.Code != 404 || r.Err()["code"] != "PRODUCT_NOT_FOUND" {
				t.Errorf("GET %s after delete: %d %s", path, r.Code, r.Raw)
			}
		}
		if r := s.Do(http.MethodGet, "/api/v1/products?collection_id="+cid, nil, "admin"); !slices.Equal(httpxtest.IDs(r.List()), []string{keep}) {
			t.Errorf("collection after delete: %s", r.Raw)
		}
		if r := s.Do(http.MethodGet, "/api/v1/products?tags=kitchen", nil, "admin"); !slices.Equal(httpxtest.IDs(r.List()), []string{keep}) {
			t.Errorf("tag filter after delete: %s", r.Raw)
		}
		if rows("product_tags", keep) != 1 || rows("collection_products", keep) != 1 {
			t.Errorf("the other product lost rows")
		}
		if r := s.Do(http.MethodDelete, base+"?force=true", nil, "writer"); r.Code != 404 || r.Err()["code"] != "PRODUCT_NOT_FOUND" {
			t.Fatalf("force delete twice: %d %s", r.Code, r.Raw)
		}

		// Without orders, force changes nothing: deleted.
		other := s.mustCreate(map[string]any{"title": "Mug", "price": "5.00", "currency": "EUR"})["id"].(string)
		if r := s.Do(http.MethodDelete, "/api/v1/products/"+other+"?force=true", nil, "writer"); r.Code != 204 {
			t.Fatalf("force delete without orders: %d %s", r.Code, r.Raw)
		}
	})
}
