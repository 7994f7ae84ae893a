package customers_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/httpxtest"
)

func TestUpdateCustomer(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		ada := h.enabled("ada@example.com", map[string]any{"phone": "+15550000001", "note": "keep", "tags": []string{"a"}})
		id := ada["id"].(string)
		bob := h.enabled("bob@example.com", nil)["id"].(string)
		h.clock.Advance(time.Minute)

		// PUT changes the fields given and keeps the others.
		r := h.Must(200, http.MethodPut, "/api/v1/customers/"+id, map[string]any{
			"first_name": "Augusta", "last_name": "King", "accepts_marketing": true, "tags": []string{"b", "c"}, "phone": "",
		}, "admin")
		d := r.Data()
		if httpxtest.Keys(d) != customerKeys || d["first_name"] != "Augusta" || d["last_name"] != "King" || d["note"] != "keep" || d["phone"] != "" ||
			d["accepts_marketing"] != true || d["marketing_opt_in_at"] != "2026-03-01T10:01:00Z" || d["updated_at"] != "2026-03-01T10:01:00Z" ||
			d["created_at"] != "2026-03-01T10:00:00Z" {
			t.Fatalf("PUT: %s", r.Raw)
		}
		if tags := d["tags"].([]any); len(tags) != 2 || tags[0] != "b" {
			t.Errorf("tags %v", tags)
		}
		if n := h.Count("customer_tags", "customer_id = ?", id); n != 2 {
			t.Errorf("tag rows: %d", n)
		}
		evs := h.Payloads("customer.updated", id)
		if len(evs) != 1 || evs[0]["first_name"] != "Augusta" {
			t.Fatalf("customer.updated: %v", evs)
		}
		// PATCH is the same operation.
		if d := h.Must(200, http.MethodPatch, "/api/v1/customers/"+id, map[string]any{"note": "", "metafields": map[string]any{"x": 1}}, "writer").Data(); d["note"] != "" || d["first_name"] != "Augusta" {
			t.Fatalf("PATCH: %v", d)
		}

		// Email change: unverified, the login moves with it; taken and invalid emails fail.
		d = h.Must(200, http.MethodPut, "/api/v1/customers/"+id, map[string]any{"email": "Augusta@Example.com"}, "admin").Data()
		if d["email"] != "augusta@example.com" || d["verified_email"] != false {
			t.Fatalf("email change: %v", d)
		}
		if cred, _ := h.creds.get(t, id); cred.Email != "augusta@example.com" {
			t.Errorf("credential email %q", cred.Email)
		}
		assertError(t, h.Do(http.MethodPut, "/api/v1/customers/"+id, map[string]any{"email": "BOB@example.com"}, "admin"), 409, "EMAIL_TAKEN", "conflict")
		assertError(t, h.Do(http.MethodPut, "/api/v1/customers/"+id, map[string]any{"email": "nope"}, "admin"), 400, "INVALID_EMAIL", "validation")
		r = h.Do(http.MethodPut, "/api/v1/customers/"+id, map[string]any{"currency": "dollars", "first_name": strings.Repeat("x", 256)}, "admin")
		if assertError(t, r, 400, 400, "validation"); httpxtest.Keys(r.Fields()) != "currency,first_name" {
			t.Errorf("fields %v", r.Fields())
		}
		assertError(t, h.Do(http.MethodPut, "/api/v1/customers/"+id, map[string]any{"first_name": 5}, "admin"), 400, 400, "validation")
		if n := len(h.Payloads("customer.updated", id)); n != 3 {
			t.Errorf("customer.updated after failures: %d, want 3", n)
		}
		if cred, _ := h.creds.get(t, id); cred.Email != "augusta@example.com" {
			t.Errorf("a failed update moved the login: %q", cred.Email)
		}

		// A customer updates its own profile fields, not staff-only ones nor others.
		me := "cust:" + id
		if d := h.Must(200, http.MethodPut, "/api/v1/customers/"+id, map[string]any{"first_name": "Ada", "language": "fr", "accepts_marketing": false}, me).Data(); d["first_name"] != "Ada" || d["language"] != "fr" || d["marketing_opt_in_at"] != nil {
			t.Fatalf("self update: %v", d)
		}
		for _, body := range []map[string]any{{"note": "x"}, {"tags": []string{"vip"}}, {"state": "disabled"}, {"verified_email": true}, {"metafields": map[string]any{}}, {"tax_exempt": true}} {
			r := h.Do(http.MethodPut, "/api/v1/customers/"+id, body, me)
			if assertError(t, r, 403, 403, "auth"); !strings.HasPrefix(r.Err()["message"].(string), "Forbidden: Insufficient permissions. Required: customers:write") {
				t.Errorf("%v: %v", body, r.Err()["message"])
			}
		}
		assertError(t, h.Do(http.MethodPut, "/api/v1/customers/"+bob, map[string]any{"first_name": "X"}, me), 404, "CUSTOMER_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodPut, "/api/v1/customers/"+bob, map[string]any{"first_name": "X"}, "reader"), 403, 403, "auth")
		assertError(t, h.Do(http.MethodPut, "/api/v1/customers/00000000-0000-0000-0000-000000000000", map[string]any{"first_name": "X"}, "admin"), 404, "CUSTOMER_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodPut, "/api/v1/customers/"+id, "[1,2]", "admin"), 400, 400, "validation")
		r = h.Do(http.MethodPut, "/api/v1/customers/"+id, map[string]any{"state": "frozen"}, "admin")
		if assertError(t, r, 400, 400, "validation"); r.Fields()["state"] == nil {
			t.Errorf("bad state: %s", r.Raw)
		}
	})
}

// TestUpdateCustomerBody pins the update body as platform/patch reads it: every member
// of the wrong type is named at once, a null member leaves its field as it is (a
// customer's fields are never null), unknown members are ignored.
func TestUpdateCustomerBody(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		id := h.enabled("ada@example.com", map[string]any{"note": "keep", "first_name": "Ada", "tags": []string{"a"}})["id"].(string)

		r := h.Do(http.MethodPatch, "/api/v1/customers/"+id, map[string]any{"first_name": 5, "accepts_marketing": "yes", "tags": 3, "metafields": []int{1}}, "admin")
		if assertError(t, r, 400, 400, "validation"); httpxtest.Keys(r.Fields()) != "accepts_marketing,first_name,metafields,tags" {
			t.Errorf("type errors: %v", r.Fields())
		}
		d := h.Must(200, http.MethodPatch, "/api/v1/customers/"+id, map[string]any{"note": nil, "first_name": nil, "tags": nil, "last_name": "L", "unknown": 1}, "admin").Data()
		if d["note"] != "keep" || d["first_name"] != "Ada" || d["last_name"] != "L" || len(d["tags"].([]any)) != 1 {
			t.Errorf("nulls: %v", d)
		}
		if d := h.Must(200, http.MethodPatch, "/api/v1/customers/"+id, map[string]any{"tags": "x, y"}, "admin").Data(); len(d["tags"].([]any)) != 2 {
			t.Errorf("comma-separated tags: %v", d["tags"])
		}
	})
}
