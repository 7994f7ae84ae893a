package main

import (
	"net/http"
	"testing"
)

// POST /customers/{id}/export holds the customer's carts with their items, as the
// process is wired in production (customers reads carts' query side:
// docs/decisions/0108), and never another customer's or a guest's cart.
func TestExportHoldsTheCustomersCarts(t *testing.T) {
	t.Parallel()
	onEachEngine(t, nil, func(t *testing.T, ta *testApp) {
		admin := ta.adminAuth()
		dataOf := func(r response) map[string]any {
			t.Helper()
			m := r.JSON(t)
			if d, ok := m["data"].(map[string]any); ok {
				return d
			}
			return m
		}
		p := ta.do("POST", "/api/v1/products", map[string]any{"title": "Mug", "price": "12.50", "currency": "USD", "inventory_quantity": 50}, admin...)
		if p.Status != http.StatusCreated {
			t.Fatalf("product: %d %s", p.Status, p.Body)
		}
		productID := dataOf(p)["id"].(string)

		// Two customers, each with a cart holding items; and a guest cart.
		type shopper struct {
			id, cartID, itemID string
			bearer             []string
		}
		shop := func(email string, qty int) shopper {
			t.Helper()
			reg := ta.do("POST", "/api/v1/auth/register", map[string]string{"email": email, "password": "Secret123", "first_name": "S", "last_name": "H"})
			if reg.Status != http.StatusCreated {
				t.Fatalf("register %s: %d %s", email, reg.Status, reg.Body)
			}
			body := reg.JSON(t)
			s := shopper{id: body["customer"].(map[string]any)["id"].(string), bearer: []string{"Authorization", "Bearer " + body["access_token"].(string)}}
			me := ta.do("GET", "/api/v1/carts/me", nil, s.bearer...)
			if me.Status != http.StatusOK {
				t.Fatalf("cart of %s: %d %s", email, me.Status, me.Body)
			}
			s.cartID = dataOf(me)["id"].(string)
			item := ta.do("POST", "/api/v1/carts/"+s.cartID+"/items", map[string]any{"product_id": productID, "quantity": qty}, s.bearer...)
			if item.Status != http.StatusCreated {
				t.Fatalf("add item for %s: %d %s", email, item.Status, item.Body)
			}
			s.itemID = dataOf(item)["id"].(string)
			return s
		}
		ada := shop("ada@example.com", 2)
		bob := shop("bob@example.com", 5)
		guest := ta.do("POST", "/api/v1/carts/guest", map[string]any{"currency": "USD"})
		if guest.Status != http.StatusCreated {
			t.Fatalf("guest cart: %d %s", guest.Status, guest.Body)
		}
		guestID := dataOf(guest)["id"].(string)

		export := func(who shopper, creds []string) map[string]any {
			t.Helper()
			r := ta.do("POST", "/api/v1/customers/"+who.id+"/export", nil, creds...)
			if r.Status != http.StatusOK {
				t.Fatalf("export: %d %s", r.Status, r.Body)
			}
			return dataOf(r)
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
