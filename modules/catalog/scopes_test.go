package catalog_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestScopes checks every route: 401 without credentials, 403 naming the scope without
// it, and the read/write split (customers read, never write).
func TestScopes(t *testing.T) {
	forEngine(t, func(t *testing.T, s *stack) {
		p := s.mustCreate(map[string]any{"title": "P", "price": "1.00", "currency": "USD"})
		pid := p["id"].(string)
		vid := p["variants"].([]any)[0].(map[string]any)["id"].(string)
		cid := s.Do(http.MethodPost, "/api/v1/collections", map[string]any{"title": "C"}, "admin").Data()["id"].(string)
		const unknown = "0190a7f0-0000-7000-8000-000000000000"
		routes := []struct {
			method, path, scope string
		}{
			{"GET", "/api/v1/products", "products:read"},
			{"POST", "/api/v1/products", "products:write"},
			{"GET", "/api/v1/products/" + pid, "products:read"},
			{"PUT", "/api/v1/products/" + pid, "products:write"},
			{"PATCH", "/api/v1/products/" + pid, "products:write"},
			{"DELETE", "/api/v1/products/" + unknown, "products:write"},
			{"GET", "/api/v1/products/" + pid + "/variants", "products:read"},
			{"POST", "/api/v1/products/" + pid + "/variants", "products:write"},
			{"GET", "/api/v1/products/" + pid + "/variants/" + vid, "products:read"},
			{"PUT", "/api/v1/products/" + pid + "/variants/" + vid, "products:write"},
			{"PATCH", "/api/v1/products/" + pid + "/variants/" + vid, "products:write"},
			{"DELETE", "/api/v1/products/" + pid + "/variants/" + unknown, "products:write"},
			{"GET", "/api/v1/products/" + pid + "/images", "products:read"},
			{"POST", "/api/v1/products/" + pid + "/images", "products:write"},
			{"PUT", "/api/v1/products/" + pid + "/images/" + unknown, "products:write"},
			{"DELETE", "/api/v1/products/" + pid + "/images/" + unknown, "products:write"},
			{"GET", "/api/v1/collections", "collections:read"},
			{"POST", "/api/v1/collections", "collections:write"},
			{"GET", "/api/v1/collections/" + cid, "collections:read"},
			{"PATCH", "/api/v1/collections/" + cid, "collections:write"},
			{"DELETE", "/api/v1/collections/" + unknown, "collections:write"},
			{"POST", "/api/v1/collections/" + cid + "/products", "collections:write"},
			{"DELETE", "/api/v1/collections/" + cid + "/products/" + pid, "collections:write"},
		}
		for _, rt := range routes {
			var body any
			if rt.method == "POST" || rt.method == "PUT" || rt.method == "PATCH" {
				body = map[string]any{}
			}
			if r := s.Do(rt.method, rt.path, body, ""); r.Code != 401 || r.Err()["category"] != "auth" || r.Err()["code"] != float64(401) {
				t.Errorf("%s %s anonymous: %d %s", rt.method, rt.path, r.Code, r.Raw)
			}
			r := s.Do(rt.method, rt.path, body, "orders")
			if r.Code != 403 || r.Err()["message"] != "Forbidden: Insufficient permissions. Required: "+rt.scope {
				t.Errorf("%s %s without scope: %d %s", rt.method, rt.path, r.Code, r.Raw)
			}
			read := strings.HasSuffix(rt.scope, ":read")
			for _, cred := range []string{"reader", "customer"} {
				r := s.Do(rt.method, rt.path, body, cred)
				if read && (r.Code == 401 || r.Code == 403) {
					t.Errorf("%s %s as %s: %d", rt.method, rt.path, cred, r.Code)
				}
				if !read && r.Code != 403 {
					t.Errorf("%s %s as %s writes: %d", rt.method, rt.path, cred, r.Code)
				}
			}
			if r := s.Do(rt.method, rt.path, body, "writer"); r.Code == 401 || r.Code == 403 {
				t.Errorf("%s %s as writer: %d", rt.method, rt.path, r.Code)
			}
		}
		if r := s.Do(http.MethodGet, "/api/v1/products", nil, "bogus-token"); r.Code != 401 || r.Err()["message"] != "Unauthorized: Invalid token" {
			t.Errorf("bad token: %d %s", r.Code, r.Raw)
		}
	})
}
