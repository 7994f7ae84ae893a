package customers_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/ids"
)

func TestAddresses(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		id := h.enabled("ada@example.com", nil)["id"].(string)
		bob := h.enabled("bob@example.com", nil)["id"].(string)
		base := "/api/v1/customers/" + id + "/addresses"
		me := "cust:" + id

		// The first address becomes both defaults.
		r := h.Must(201, http.MethodPost, base, map[string]any{
			"first_name": "Ada", "last_name": "Lovelace", "company": "Engines Ltd", "phone": "+44 20 0000 0000",
			"address1": "12 St James's Square", "address2": "Flat 1", "city": "London", "province": "Greater London", "country": "gb", "zip": "SW1Y 4JH",
		}, me)
		first := r.Data()
		if httpxtest.Keys(first) != "address1,address2,city,company,country,created_at,customer_id,first_name,id,is_default_billing,is_default_shipping,last_name,phone,state,updated_at,zip" {
			t.Fatalf("address members %s", httpxtest.Keys(first))
		}
		if first["country"] != "GB" || first["state"] != "Greater London" || first["phone"] != "+442000000000" || first["customer_id"] != id ||
			first["is_default_shipping"] != true || first["is_default_billing"] != true || first["created_at"] != "2026-03-01T10:00:00Z" {
			t.Fatalf("first address %v", first)
		}
		a1 := first["id"].(string)
		if evs := h.Payloads("customer.address_created", a1); len(evs) != 1 || evs[0]["customer_id"] != id {
			t.Fatalf("address_created: %v", evs)
		}

		// A second one asking for the shipping default takes it; billing stays.
		h.clock.Advance(time.Minute)
		a2 := h.Must(201, http.MethodPost, base, map[string]any{"address1": "1 Rue de Rivoli", "city": "Paris", "country": "FR", "is_default_shipping": true}, "admin").Data()["id"].(string)
		h.clock.Advance(time.Minute)
		a3 := h.Must(201, http.MethodPost, base, map[string]any{"address1": "5 Unter den Linden", "city": "Berlin", "country": "DE"}, "writer").Data()["id"].(string)
		defaults := func() (ship, bill string) {
			t.Helper()
			for _, a := range h.Must(200, http.MethodGet, base, nil, "reader").List() {
				if a["is_default_shipping"] == true {
					if ship != "" {
						t.Fatal("two default shipping addresses")
					}
					ship = a["id"].(string)
				}
				if a["is_default_billing"] == true {
					if bill != "" {
						t.Fatal("two default billing addresses")
					}
					bill = a["id"].(string)
				}
			}
			return ship, bill
		}
		if s, b := defaults(); s != a2 || b != a1 {
			t.Fatalf("defaults %s %s, want %s %s", s, b, a2, a1)
		}
		if evs := h.Payloads("customer.address_updated", a1); len(evs) != 1 || evs[0]["is_default_shipping"] != false {
			t.Fatalf("the address that lost the default: %v", evs)
		}
		if d := h.Must(200, http.MethodGet, "/api/v1/customers/"+id, nil, "admin").Data(); d["default_address"].(map[string]any)["id"] != a2 {
			t.Fatalf("customer default_address %v", d["default_address"])
		}

		// List (oldest first, paginated) and get.
		r = h.Must(200, http.MethodGet, base+"?per_page=2", nil, me)
		if got := httpxtest.IDs(r.List()); len(got) != 2 || got[0] != a1 || got[1] != a2 || r.Pagination()["total"] != float64(3) || r.Pagination()["has_next"] != true {
			t.Fatalf("list %v %v", got, r.Pagination())
		}
		if d := h.Must(200, http.MethodGet, base+"/"+a3, nil, me).Data(); d["city"] != "Berlin" {
			t.Fatalf("get %v", d)
		}

		// Default by endpoint: billing to a3, then shipping (the default type) to a3.
		if d := h.Must(200, http.MethodPost, base+"/"+a3+"/default", map[string]any{"type": "billing"}, me).Data(); d["is_default_billing"] != true || d["is_default_shipping"] != false {
			t.Fatalf("default billing %v", d)
		}
		h.Must(200, http.MethodPost, base+"/"+a3+"/default", nil, me)
		if s, b := defaults(); s != a3 || b != a3 {
			t.Fatalf("defaults %s %s, want a3", s, b)
		}
		h.Must(200, http.MethodPost, base+"/"+a3+"/default?type=shipping", nil, me) // already: no-op
		r = h.Do(http.MethodPost, base+"/"+a3+"/default", map[string]any{"type": "mailing"}, me)
		if assertError(t, r, 400, 400, "validation"); r.Fields()["type"] == nil {
			t.Errorf("bad type: %s", r.Raw)
		}

		// Update: fields given change; a default flag true takes it, false gives it up.
		d := h.Must(200, http.MethodPut, base+"/"+a1, map[string]any{"zip": "SW1Y 4LE", "is_default_billing": true}, me).Data()
		if d["zip"] != "SW1Y 4LE" || d["city"] != "London" || d["is_default_billing"] != true {
			t.Fatalf("update %v", d)
		}
		h.Must(200, http.MethodPatch, base+"/"+a1, map[string]any{"is_default_billing": false}, "admin")
		if s, b := defaults(); s != a3 || b != "" {
			t.Fatalf("after giving up billing: %s %s", s, b)
		}
		r = h.Do(http.MethodPut, base+"/"+a1, map[string]any{"country": "ZZ", "city": ""}, me)
		if assertError(t, r, 400, "INVALID_ADDRESS", "validation"); httpxtest.Keys(r.Fields()) != "city,country" {
			t.Errorf("invalid update fields %v", r.Fields())
		}
		r = h.Do(http.MethodPost, base, map[string]any{"city": "Rome", "country": "ITA"}, me)
		if assertError(t, r, 400, "INVALID_ADDRESS", "validation"); httpxtest.Keys(r.Fields()) != "address1,country" {
			t.Errorf("invalid create fields %v", r.Fields())
		}

		// Delete: the default passes to the oldest remaining address.
		h.Must(204, http.MethodDelete, base+"/"+a3, nil, me)
		if s, _ := defaults(); s != a1 {
			t.Fatalf("shipping default after delete: %s, want %s", s, a1)
		}
		if evs := h.Payloads("customer.address_deleted", a3); len(evs) != 1 || evs[0]["id"] != a3 {
			t.Fatalf("address_deleted: %v", evs)
		}
		assertError(t, h.Do(http.MethodDelete, base+"/"+a3, nil, me), 404, "ADDRESS_NOT_FOUND", "not_found")

		// Not found: unknown, malformed, another customer's address, another customer.
		bobAddr := h.Must(201, http.MethodPost, "/api/v1/customers/"+bob+"/addresses", map[string]any{"address1": "x", "city": "y", "country": "US"}, "admin").Data()["id"].(string)
		for _, aid := range []string{ids.New(), "nope", bobAddr} {
			assertError(t, h.Do(http.MethodGet, base+"/"+aid, nil, me), 404, "ADDRESS_NOT_FOUND", "not_found")
			assertError(t, h.Do(http.MethodPut, base+"/"+aid, map[string]any{"zip": "1"}, "admin"), 404, "ADDRESS_NOT_FOUND", "not_found")
			assertError(t, h.Do(http.MethodPost, base+"/"+aid+"/default", nil, "admin"), 404, "ADDRESS_NOT_FOUND", "not_found")
		}
		bobBase := "/api/v1/customers/" + bob + "/addresses"
		assertError(t, h.Do(http.MethodGet, bobBase, nil, me), 404, "CUSTOMER_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodGet, bobBase+"/"+bobAddr, nil, me), 404, "CUSTOMER_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodPost, bobBase, map[string]any{"address1": "x", "city": "y", "country": "US"}, me), 404, "CUSTOMER_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodDelete, bobBase+"/"+bobAddr, nil, me), 404, "CUSTOMER_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodGet, "/api/v1/customers/"+ids.New()+"/addresses", nil, "admin"), 404, "CUSTOMER_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodPost, "/api/v1/customers/"+ids.New()+"/addresses", map[string]any{"address1": "x", "city": "y", "country": "US"}, "admin"), 404, "CUSTOMER_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodPost, bobBase, map[string]any{"address1": "x", "city": "y", "country": "US"}, "reader"), 403, 403, "auth")

		// The database itself refuses a second default of a kind (unique partial index).
		now := time.Now().UTC()
		err := h.db.Gorm().WithContext(context.Background()).Exec(
			"INSERT INTO customer_addresses (id, customer_id, address1, city, country, is_default_shipping, is_default_billing, created_at, updated_at) VALUES (?, ?, 'x', 'y', 'US', ?, ?, ?, ?)",
			ids.New(), id, true, false, now, now).Error
		if err == nil {
			t.Fatal("a second default shipping address was stored")
		}
	})
}
