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
		type shopper struct {
			id      string
			bearer  []string
			address string
		}
		register := func(email string) shopper {
			t.Helper()
			reg := ta.do("POST", "/api/v1/auth/register", map[string]string{"email": email, "password": "Secret123", "first_name": "S", "last_name": "H"})
			if reg.Status != http.StatusCreated {
				t.Fatalf("register %s: %d %s", email, reg.Status, reg.Body)
			}
			body := reg.JSON(t)
			bearer := []string{"Authorization", "Bearer " + body["access_token"].(string)}
			id := body["customer"].(map[string]any)["id"].(string)
			a := ta.do("POST", "/api/v1/customers/"+id+"/addresses", map[string]any{"address1": "1 Main St", "city": "Springfield", "country": "US", "zip": "12345"}, bearer...)
			if a.Status != http.StatusCreated {
				t.Fatalf("address of %s: %d %s", email, a.Status, a.Body)
			}
			return shopper{id: id, bearer: bearer, address: a.JSON(t)["data"].(map[string]any)["id"].(string)}
		}
		ada, bob := register("ada@example.com"), register("bob@example.com")

		me := ta.do("GET", "/api/v1/carts/me", nil, ada.bearer...)
		if me.Status != http.StatusOK {
			t.Fatalf("carts/me: %d %s", me.Status, me.Body)
		}
		cart := me.JSON(t)["data"].(map[string]any)["id"].(string)
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
		p := ta.do("POST", "/api/v1/products", map[string]any{"title": "Lamp", "price": "12.50", "currency": "USD", "inventory_quantity": 50}, admin...)
		if p.Status != http.StatusCreated {
			t.Fatalf("product: %d %s", p.Status, p.Body)
		}
		if r := ta.do("POST", "/api/v1/carts/"+cart+"/items", map[string]any{"product_id": p.JSON(t)["data"].(map[string]any)["id"], "quantity": 2}, ada.bearer...); r.Status != http.StatusCreated {
			t.Fatalf("add item: %d %s", r.Status, r.Body)
		}
		address := func(body map[string]any) string {
			t.Helper()
			body["address1"] = "1 Street"
			a := ta.do("POST", "/api/v1/customers/"+ada.id+"/addresses", body, ada.bearer...)
			if a.Status != http.StatusCreated {
				t.Fatalf("address %v: %d %s", body, a.Status, a.Body)
			}
			return a.JSON(t)["data"].(map[string]any)["id"].(string)
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

		guest := ta.do("POST", "/api/v1/carts/guest", map[string]any{"currency": "USD"})
		if guest.Status != http.StatusCreated {
			t.Fatalf("guest cart: %d %s", guest.Status, guest.Body)
		}
		g := guest.JSON(t)["data"].(map[string]any)
		notFound("a guest cart with an address", totals(g["id"].(string), ada.address, "X-Session-Token", g["session_token"].(string)))
	})
}
