package main

import (
	"net/http"
	"testing"
)

// A guest shops: catalog → cart → coupon → totals → merge into a customer's cart,
// through the whole process as wired in production.
func TestCartCouponEndToEnd(t *testing.T) {
	onEachEngine(t, nil, func(t *testing.T, ta *testApp) {
		admin := ta.adminAuth()
		productID := ta.createdID("/api/v1/products", map[string]any{"title": "Mug", "price": "12.50", "currency": "EUR", "inventory_quantity": 50}, admin...)
		ta.created("/api/v1/coupons", map[string]any{"code": "TENOFF", "type": "percentage", "value": "10", "is_active": true}, admin...)

		cartID, session := ta.newGuestCart("EUR")
		token := session[1]
		ta.addItem(cartID, productID, 3, session...)
		if r := ta.do("POST", "/api/v1/carts/"+cartID+"/items", map[string]any{"product_id": productID, "quantity": 10000}, session...); r.Status != http.StatusBadRequest || errorOf(t, r)["code"] != "INVALID_QUANTITY" {
			t.Errorf("quantity over 9999: %d %s", r.Status, r.Body)
		}
		applied := ta.must(http.StatusOK, "POST", "/api/v1/carts/"+cartID+"/coupon", map[string]any{"coupon_code": "TENOFF"}, session...)
		if got := dataOf(t, applied); got["subtotal"] != "37.50" || got["discount_total"] != "3.75" || got["total"] != "33.75" {
			t.Errorf("totals after coupon: %s", applied.Body)
		}
		if r := ta.do("POST", "/api/v1/carts/"+cartID+"/coupon", map[string]any{"coupon_code": "NOPE"}, session...); r.Status != http.StatusBadRequest || errorOf(t, r)["code"] != "COUPON_INVALID" {
			t.Errorf("unknown coupon: %d %s", r.Status, r.Body)
		}
		// A coupon restricted to a collection sees the catalog's memberships.
		colID := ta.createdID("/api/v1/collections", map[string]any{"title": "Kitchen", "collection_type": "manual", "is_active": true}, admin...)
		ta.created("/api/v1/coupons", map[string]any{"code": "KITCHEN5", "type": "fixed_amount", "value": "5.00", "is_active": true,
			"applies_to": map[string]any{"collection_ids": []string{colID}}}, admin...)
		ta.must(http.StatusOK, "DELETE", "/api/v1/carts/"+cartID+"/coupon", nil, session...)
		validate := func() map[string]any {
			return ta.must(http.StatusOK, "POST", "/api/v1/coupons/validate", map[string]any{"coupon_code": "KITCHEN5", "cart_id": cartID}, session...).JSON(t)
		}
		if v := validate(); v["valid"] != false || v["error"].(map[string]any)["code"] != "COUPON_PRODUCT_NOT_ELIGIBLE" {
			t.Errorf("before the product joins the collection: %v", v)
		}
		if r := ta.do("POST", "/api/v1/collections/"+colID+"/products", map[string]any{"product_id": productID, "position": 1}, admin...); r.Status >= 300 {
			t.Fatalf("add to collection: %d %s", r.Status, r.Body)
		}
		if v := validate(); v["valid"] != true {
			t.Errorf("after the product joins the collection: %v", v)
		}
		ta.must(http.StatusOK, "POST", "/api/v1/carts/"+cartID+"/coupon", map[string]any{"coupon_code": "TENOFF"}, session...) // re-applied

		// Another client without the token cannot see the cart.
		if r := ta.do("GET", "/api/v1/carts/"+cartID, nil, "X-Session-Token", "wrong"); r.Status != http.StatusNotFound {
			t.Errorf("cart with a wrong token: %d %s", r.Status, r.Body)
		}

		// The guest registers and merges the cart into theirs.
		customer := bearer(ta.register("shopper@example.com").access)
		ta.must(http.StatusOK, "POST", "/api/v1/carts/merge", map[string]any{"session_token": token}, customer...)
		if r := ta.do("POST", "/api/v1/carts/"+cartID+"/items", map[string]any{"product_id": productID, "quantity": 1}, session...); r.Status != http.StatusConflict || errorOf(t, r)["code"] != "CART_CONVERTED" {
			t.Errorf("converted guest cart: %d %s", r.Status, r.Body)
		}
		me := ta.do("GET", "/api/v1/carts/me", nil, customer...)
		if mine := dataOf(t, me); me.Status != http.StatusOK || mine["item_count"] != float64(3) || mine["coupon_code"] != "TENOFF" {
			t.Errorf("customer cart after merge: %d %s", me.Status, me.Body)
		}
	})
}
