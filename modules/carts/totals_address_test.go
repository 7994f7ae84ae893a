package carts_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gocommerce/commerce/modules/carts/ports"
	"github.com/gocommerce/commerce/platform/httpxtest"
)

// TestTotalsShippingAddressBelongsToTheCartsCustomer: GET /carts/{id}/totals takes a
// shipping_address_id only when it is one of the cart customer's saved addresses;
// another customer's, an unknown one, or any address on a guest cart is 404
// ADDRESS_NOT_FOUND, and tax never sees it (decision 0101).
func TestTotalsShippingAddressBelongsToTheCartsCustomer(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		const (
			own     = "0190a000-0000-7000-8000-0000000000d8"
			others  = "0190a000-0000-7000-8000-0000000000d9"
			unknown = "0190a000-0000-7000-8000-00000000dead"
		)
		h.addrs.owner[own] = customer1
		h.addrs.owner[others] = customer2
		h.tax.results[own] = taxResult("1.20", [][3]string{{"US-NY", "0.06", "1.20"}})
		h.tax.results[others] = taxResult("9.99", nil)

		cart := h.Must(http.StatusOK, http.MethodGet, "/api/v1/carts/me", nil, "cust1").Data()["id"].(string)
		h.add(cart, "cust1", map[string]any{"product_id": shirt, "quantity": 1})
		totals := func(cart, addr string, creds ...string) httpxtest.Response {
			h.t.Helper()
			return h.Do(http.MethodGet, "/api/v1/carts/"+cart+"/totals?shipping_address_id="+addr, nil, creds...)
		}
		taxSaw := func() string {
			h.tax.mu.Lock()
			defer h.tax.mu.Unlock()
			a := h.tax.last.ShippingAddressID
			h.tax.last = ports.TaxQuery{}
			return a
		}

		// The customer's own address: 200, echoed, taxed.
		r := totals(cart, own, "cust1")
		if r.Code != http.StatusOK || r.Data()["shipping_address_id"] != own || r.Data()["tax_total"] != "1.20" || taxSaw() != own {
			t.Fatalf("own address: %d %s", r.Code, r.Raw)
		}
		// Written in capitals it is the same address.
		if r := totals(cart, strings.ToUpper(own), "cust1"); r.Code != http.StatusOK || r.Data()["shipping_address_id"] != own {
			t.Errorf("own address in capitals: %d %s", r.Code, r.Raw)
		}
		taxSaw()
		// Another customer's address, an unknown one: 404 before tax reads anything.
		for name, addr := range map[string]string{"another customer's address": others, "an unknown address": unknown} {
			assertError(t, totals(cart, addr, "cust1"), http.StatusNotFound, "ADDRESS_NOT_FOUND", "not_found")
			if a := taxSaw(); a != "" {
				t.Errorf("%s: tax was asked about %s", name, a)
			}
		}
		// Staff reading the cart: the address must still be the cart's customer's.
		if r := totals(cart, own, "reader"); r.Code != http.StatusOK || r.Data()["shipping_address_id"] != own {
			t.Errorf("staff, the customer's address: %d %s", r.Code, r.Raw)
		}
		assertError(t, totals(cart, others, "reader"), http.StatusNotFound, "ADDRESS_NOT_FOUND", "not_found")

		// A guest cart has no saved addresses: any address id is 404.
		guest, session := h.guest("")
		h.add(guest, session, map[string]any{"product_id": shirt, "quantity": 1})
		taxSaw()
		for _, addr := range []string{own, others, unknown} {
			assertError(t, totals(guest, addr, session), http.StatusNotFound, "ADDRESS_NOT_FOUND", "not_found")
		}
		if a := taxSaw(); a != "" {
			t.Errorf("guest cart: tax was asked about %s", a)
		}
		// Without an address, a guest cart's totals are as before.
		if r := h.Do(http.MethodGet, "/api/v1/carts/"+guest+"/totals", nil, session); r.Code != http.StatusOK || r.Data()["shipping_address_id"] != nil {
			t.Errorf("guest cart without an address: %d %s", r.Code, r.Raw)
		}
		// The cart rules come first: someone else's cart is CART_NOT_FOUND, whatever the address.
		assertError(t, totals(cart, own, "cust2"), http.StatusNotFound, "CART_NOT_FOUND", "not_found")
	})
}
