package main

import (
	"net/http"
	"testing"
)

// POST /customers/{id}/export holds the customer's carts with their items, as the
// process is wired in production (customers reads carts' query side:
// docs/decisions/0108), and never another customer's or a guest's cart.
func TestExportHoldsTheCustomersCarts(t *testing.T) {
	onEachEngine(t, nil, func(t *testing.T, ta *testApp) {
		admin := ta.adminAuth()
		productID := ta.createdID("/api/v1/products", map[string]any{"title": "Mug", "price": "12.50", "currency": "USD", "inventory_quantity": 50}, admin...)

		// Two customers, each with a cart holding items; and a guest cart.
		type cartShopper struct {
			id, cartID, itemID string
			bearer             []string
		}
		shop := func(email string, qty int) cartShopper {
			t.Helper()
			reg := ta.register(email)
			s := cartShopper{id: reg.id, bearer: bearer(reg.access)}
			s.cartID, s.itemID = ta.customerCart("", productID, qty, s.bearer...)
			return s
		}
		ada := shop("ada@example.com", 2)
		bob := shop("bob@example.com", 5)
		guestID, _ := ta.newGuestCart("USD")

		export := func(who cartShopper, creds []string) map[string]any {
			t.Helper()
			return dataOf(t, ta.must(http.StatusOK, "POST", "/api/v1/customers/"+who.id+"/export", nil, creds...))
		}
		for _, creds := range [][]string{admin, ada.bearer} { // staff, and the customer itself
			ex := export(ada, creds)
			cs, ok := ex["carts"].([]any)
			if !ok || len(cs) != 1 {
				t.Fatalf("export carts = %v, want ada's one cart", ex["carts"])
			}
			c := cs[0].(map[string]any)
			if c["id"] != ada.cartID || c["customer_id"] != ada.id || c["status"] != "active" || c["order_id"] != nil ||
				c["currency"] != "USD" || c["subtotal"] != "25.00" || c["item_count"] != float64(2) {
				t.Errorf("exported cart = %v", c)
			}
			items, _ := c["items"].([]any)
			if len(items) != 1 {
				t.Fatalf("exported cart items = %v", c["items"])
			}
			it := items[0].(map[string]any)
			if it["id"] != ada.itemID || it["product_id"] != productID || it["quantity"] != float64(2) || it["unit_price"] != "12.50" || it["title"] != "Mug" {
				t.Errorf("exported item = %v", it)
			}
			if _, leaked := c["session_token"]; leaked {
				t.Error("the export shows a cart's session token")
			}
			for _, other := range cs {
				if id := other.(map[string]any)["id"]; id == bob.cartID || id == guestID {
					t.Errorf("ada's export holds cart %v", id)
				}
			}
		}
		// Bob's export holds only Bob's cart; a customer cannot export another's data.
		if cs := export(bob, admin)["carts"].([]any); len(cs) != 1 || cs[0].(map[string]any)["id"] != bob.cartID {
			t.Errorf("bob's export carts = %v", cs)
		}
		if r := ta.do("POST", "/api/v1/customers/"+bob.id+"/export", nil, ada.bearer...); r.Status < 400 {
			t.Errorf("ada exported bob's data: %d %s", r.Status, r.Body)
		}
	})
}
