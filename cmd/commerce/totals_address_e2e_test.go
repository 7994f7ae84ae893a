package main

import (
	"net/http"
	"testing"
)

// Cart totals take a shipping address only from the cart's customer's own saved
// addresses (the carts module asks customers through its customersapi adapter), as
// wired in production: decision 0101.
func TestCartTotalsShippingAddressEndToEnd(t *testing.T) {
	onEachEngine(t, nil, func(t *testing.T, ta *testApp) {
		type addressed struct {
			id      string
			bearer  []string
			address string
		}
		register := func(email string) addressed {
			t.Helper()
			s := ta.register(email)
			creds := bearer(s.access)
			return addressed{id: s.id, bearer: creds, address: ta.createdID("/api/v1/customers/"+s.id+"/addresses",
				map[string]any{"address1": "1 Main St", "city": "Springfield", "country": "US", "zip": "12345"}, creds...)}
		}
		ada, bob := register("ada@example.com"), register("bob@example.com")

		cart := dataOf(t, ta.must(http.StatusOK, "GET", "/api/v1/carts/me", nil, ada.bearer...))["id"].(string)
		totals := func(cart, address string, headers ...string) response {
			t.Helper()
			return ta.do("GET", "/api/v1/carts/"+cart+"/totals?shipping_address_id="+address, nil, headers...)
		}
		notFound := func(name string, r response) {
			t.Helper()
			if r.Status != http.StatusNotFound {
				t.Errorf("%s: %d %s", name, r.Status, r.Body)
				return
			}
			if e := errorOf(t, r); e["code"] != "ADDRESS_NOT_FOUND" || e["category"] != "not_found" {
				t.Errorf("%s: %s", name, r.Body)
			}
		}

		if r := totals(cart, ada.address, ada.bearer...); r.Status != http.StatusOK || r.JSON(t)["data"].(map[string]any)["shipping_address_id"] != ada.address {
			t.Errorf("own address: %d %s", r.Status, r.Body)
		}

		// The tax module taxes the totals at the address (decision 0137): Germany's
		// VAT in Germany, nothing in a US state where the store has no nexus.
		admin := ta.adminAuth()
		pid := ta.createdID("/api/v1/products", map[string]any{"title": "Lamp", "price": "12.50", "currency": "USD", "inventory_quantity": 50}, admin...)
		ta.addItem(cart, pid, 2, ada.bearer...)
		address := func(body map[string]any) string {
			t.Helper()
			body["address1"] = "1 Street"
			return ta.createdID("/api/v1/customers/"+ada.id+"/addresses", body, ada.bearer...)
		}
		berlin := address(map[string]any{"city": "Berlin", "country": "DE", "zip": "10115"})
		albany := address(map[string]any{"city": "Albany", "state": "NY", "country": "US", "zip": "12207"})
		for name, c := range map[string]struct{ address, tax, total, rate string }{
			"DE":                  {berlin, "4.75", "29.75", "0.19"},
			"US NY without nexus": {albany, "0.00", "25.00", ""},
		} {
			r := totals(cart, c.address, ada.bearer...)
			if r.Status != http.StatusOK {
				t.Errorf("%s: %d %s", name, r.Status, r.Body)
				continue
			}
			d := r.JSON(t)["data"].(map[string]any)
			bd, _ := d["tax_breakdown"].([]any)
			if d["subtotal"] != "25.00" || d["tax_total"] != c.tax || d["calculated_total"] != c.total || d["total"] != c.total {
				t.Errorf("%s: %s", name, r.Body)
			}
			if c.rate == "" && len(bd) != 0 || c.rate != "" && (len(bd) != 1 || bd[0].(map[string]any)["rate"] != c.rate || bd[0].(map[string]any)["amount"] != c.tax) {
				t.Errorf("%s: tax_breakdown %v", name, bd)
			}
		}
		notFound("another customer's address", totals(cart, bob.address, ada.bearer...))
		notFound("a random id", totals(cart, "0190a000-0000-7000-8000-00000000beef", ada.bearer...))

		guestCart, session := ta.newGuestCart("USD")
		notFound("a guest cart with an address", totals(guestCart, ada.address, session...))
	})
}
