package main

import (
	"net/http"
	"testing"

	"github.com/shopspring/decimal"
)

// Checkout with the real tax and shipping modules, as wired in production (no port
// swapped): German VAT at a Berlin address, rates from the built-in carrier tables, and
// a free_shipping coupon that discounts the chosen rate's real price (issue 19's
// "free-shipping coupon on a real shipping total"), down to the order.
func TestCheckoutRealTaxShippingAndFreeShipping(t *testing.T) {
	t.Parallel()
	onEachEngine(t, nil, func(t *testing.T, ta *testApp) {
		admin := ta.adminAuth()
		p := ta.do("POST", "/api/v1/products", map[string]any{"title": "Kettle", "price": "40.00", "currency": "USD",
			"inventory_quantity": 20, "requires_shipping": true, "weight": "1.2", "weight_unit": "kg"}, admin...)
		if p.Status != http.StatusCreated {
			t.Fatalf("product: %d %s", p.Status, p.Body)
		}
		pid := p.JSON(t)["data"].(map[string]any)["id"].(string)
		ta.relay(5) // the inventory module sets the stock level from catalog.stock_set
		if c := ta.do("POST", "/api/v1/coupons", map[string]any{"code": "SHIPFREE", "type": "free_shipping", "value": "0", "is_active": true}, admin...); c.Status != http.StatusCreated {
			t.Fatalf("coupon: %d %s", c.Status, c.Body)
		}
		g := ta.do("POST", "/api/v1/carts/guest", map[string]any{"currency": "USD"})
		if g.Status != http.StatusCreated {
			t.Fatalf("guest cart: %d %s", g.Status, g.Body)
		}
		gd := g.JSON(t)["data"].(map[string]any)
		cartID, session := gd["id"].(string), []string{"X-Session-Token", gd["session_token"].(string)}
		if r := ta.do("POST", "/api/v1/carts/"+cartID+"/items", map[string]any{"product_id": pid, "quantity": 2}, session...); r.Status != http.StatusCreated {
			t.Fatalf("add item: %d %s", r.Status, r.Body)
		}
		berlin := map[string]any{"first_name": "Max", "last_name": "M", "address1": "Unter den Linden 1", "city": "Berlin", "postal_code": "10117", "country_code": "DE"}

		// Before the coupon: 19% VAT on the items; rates from the built-in tables.
		init := ta.do("POST", "/api/v1/checkout/initiate", map[string]any{"cart_id": cartID, "shipping_address": berlin}, session...)
		if init.Status != http.StatusOK {
			t.Fatalf("initiate: %d %s", init.Status, init.Body)
		}
		d := init.JSON(t)["data"].(map[string]any)
		if d["item_tax"] != "15.20" || d["subtotal"] != "80.00" {
			t.Errorf("initiate: item_tax %v subtotal %v, want 15.20 and 80.00: %s", d["item_tax"], d["subtotal"], init.Body)
		}
		rates, _ := d["available_shipping_rates"].([]any)
		if len(rates) == 0 {
			t.Fatalf("no shipping rates from the built-in tables: %s", init.Body)
		}
		rate := rates[0].(map[string]any)
		price := decimal.RequireFromString(rate["price"].(string))
		if !price.IsPositive() {
			t.Fatalf("rate without a price: %v", rate)
		}

		// The chosen rate is the cart's shipping too (decision 0175).
		cart := func() map[string]any {
			t.Helper()
			r := ta.do("GET", "/api/v1/carts/"+cartID, nil, session...)
			if r.Status != http.StatusOK {
				t.Fatalf("cart: %d %s", r.Status, r.Body)
			}
			return r.JSON(t)["data"].(map[string]any)
		}
		if r := ta.do("POST", "/api/v1/checkout/shipping", map[string]any{"cart_id": cartID, "shipping_rate_id": rate["id"]}, session...); r.Status != http.StatusOK {
			t.Fatalf("shipping: %d %s", r.Status, r.Body)
		}
		if c := cart(); c["shipping_method"] != rate["code"] || c["shipping_total"] != price.StringFixed(2) || c["total"] != price.Add(decimal.NewFromInt(80)).StringFixed(2) {
			t.Errorf("cart after choosing a %s %s rate: shipping_method %v shipping_total %v total %v", rate["code"], price.StringFixed(2), c["shipping_method"], c["shipping_total"], c["total"])
		}

		// The coupon: the shipping is discounted to zero on the cart, and in checkout with its tax.
		if r := ta.do("POST", "/api/v1/carts/"+cartID+"/coupon", map[string]any{"coupon_code": "SHIPFREE"}, session...); r.Status != http.StatusOK {
			t.Fatalf("apply coupon: %d %s", r.Status, r.Body)
		}
		if c := cart(); c["shipping_method"] != rate["code"] || c["shipping_total"] != "0.00" || c["total"] != "80.00" {
			t.Errorf("cart with free shipping: shipping_method %v shipping_total %v total %v", c["shipping_method"], c["shipping_total"], c["total"])
		}
		ship := ta.do("POST", "/api/v1/checkout/shipping", map[string]any{"cart_id": cartID, "shipping_rate_id": rate["id"]}, session...)
		if ship.Status != http.StatusOK {
			t.Fatalf("shipping: %d %s", ship.Status, ship.Body)
		}
		s := ship.JSON(t)["data"].(map[string]any)
		if s["shipping_total"] != "0.00" || s["shipping_tax"] != "0.00" || s["discount_total"] != price.StringFixed(2) || s["total"] != "95.20" {
			t.Errorf("free shipping on a %s rate: shipping_total %v shipping_tax %v discount_total %v total %v: %s",
				price.StringFixed(2), s["shipping_total"], s["shipping_tax"], s["discount_total"], s["total"], ship.Body)
		}

		done := ta.do("POST", "/api/v1/checkout/complete", map[string]any{"cart_id": cartID, "customer_email": "max@example.com",
			"shipping_address": berlin, "payment_method": card("4242424242424242")}, session...)
		if done.Status != http.StatusOK && done.Status != http.StatusCreated {
			t.Fatalf("complete: %d %s", done.Status, done.Body)
		}
		order := done.JSON(t)["data"].(map[string]any)["order"].(map[string]any)
		o := ta.do("GET", "/api/v1/orders/"+order["id"].(string), nil, admin...)
		if o.Status != http.StatusOK {
			t.Fatalf("order: %d %s", o.Status, o.Body)
		}
		od := o.JSON(t)["data"].(map[string]any)
		if od["total_tax"] != "15.20" {
			t.Errorf("order tax: %s", o.Body)
		}
		if od["total_price"] != "95.20" {
			t.Errorf("order total: %s", o.Body)
		}
	})
}
