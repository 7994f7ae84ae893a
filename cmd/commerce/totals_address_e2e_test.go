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
			return shopper{bearer: bearer, address: a.JSON(t)["data"].(map[string]any)["id"].(string)}
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
