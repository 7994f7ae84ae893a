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
	onEachEngine(t, nil, func(t *testing.T, ta *testApp) {
		admin := ta.adminAuth()
		pid := ta.createdID("/api/v1/products", map[string]any{"title": "Kettle", "price": "40.00", "currency": "USD",
			"inventory_quantity": 20, "requires_shipping": true, "weight": "1.2", "weight_unit": "kg"}, admin...)
		ta.relay(5) // the inventory module sets the stock level from catalog.stock_set
		ta.created("/api/v1/coupons", map[string]any{"code": "SHIPFREE", "type": "free_shipping", "value": "0", "is_active": true}, admin...)
		cartID, session := ta.newGuestCart("USD")
		ta.addItem(cartID, pid, 2, session...)
		berlin := map[string]any{"first_name": "Max", "last_name": "M", "address1": "Unter den Linden 1", "city": "Berlin", "postal_code": "10117", "country_code": "DE"}

		// Before the coupon: 19% VAT on the items; rates from the built-in tables.
		init := ta.must(http.StatusOK, "POST", "/api/v1/checkout/initiate", map[string]any{"cart_id": cartID, "shipping_address": berlin}, session...)
		d := dataOf(t, init)
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
			return dataOf(t, ta.must(http.StatusOK, "GET", "/api/v1/carts/"+cartID, nil, session...))
		}
		chooseRate := func() response {
			t.Helper()
			return ta.must(http.StatusOK, "POST", "/api/v1/checkout/shipping", map[string]any{"cart_id": cartID, "shipping_rate_id": rate["id"]}, session...)
		}
		chooseRate()
		if c := cart(); c["shipping_method"] != rate["code"] || c["shipping_total"] != price.StringFixed(2) || c["total"] != price.Add(decimal.NewFromInt(80)).StringFixed(2) {
			t.Errorf("cart after choosing a %s %s rate: shipping_method %v shipping_total %v total %v", rate["code"], price.StringFixed(2), c["shipping_method"], c["shipping_total"], c["total"])
		}

		// The coupon: the shipping is discounted to zero on the cart, and in checkout with its tax.
		ta.must(http.StatusOK, "POST", "/api/v1/carts/"+cartID+"/coupon", map[string]any{"coupon_code": "SHIPFREE"}, session...)
		if c := cart(); c["shipping_method"] != rate["code"] || c["shipping_total"] != "0.00" || c["total"] != "80.00" {
			t.Errorf("cart with free shipping: shipping_method %v shipping_total %v total %v", c["shipping_method"], c["shipping_total"], c["total"])
		}
		ship := chooseRate()
		s := dataOf(t, ship)
		if s["shipping_total"] != "0.00" || s["shipping_tax"] != "0.00" || s["discount_total"] != price.StringFixed(2) || s["total"] != "95.20" {
			t.Errorf("free shipping on a %s rate: shipping_total %v shipping_tax %v discount_total %v total %v: %s",
				price.StringFixed(2), s["shipping_total"], s["shipping_tax"], s["discount_total"], s["total"], ship.Body)
		}

		done := ta.do("POST", "/api/v1/checkout/complete", map[string]any{"cart_id": cartID, "customer_email": "max@example.com",
			"shipping_address": berlin, "payment_method": card("4242424242424242")}, session...)
		if done.Status != http.StatusOK && done.Status != http.StatusCreated {
			t.Fatalf("complete: %d %s", done.Status, done.Body)
		}
		order := dataOf(t, done)["order"].(map[string]any)
		o := ta.must(http.StatusOK, "GET", "/api/v1/orders/"+order["id"].(string), nil, admin...)
		od := dataOf(t, o)
		if od["total_tax"] != "15.20" {
			t.Errorf("order tax: %s", o.Body)
		}
		if od["total_price"] != "95.20" {
			t.Errorf("order total: %s", o.Body)
		}
	})
}
