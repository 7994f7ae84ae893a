package main

import (
	"net/http"
	"testing"
)

// A guest shops: catalog → cart → coupon → totals → merge into a customer's cart,
// through the whole process as wired in production.
func TestCartCouponEndToEnd(t *testing.T) {
	t.Parallel()
	onEachEngine(t, nil, func(t *testing.T, ta *testApp) {
		admin := ta.adminAuth()
		p := ta.do("POST", "/api/v1/products", map[string]any{"title": "Mug", "price": "12.50", "currency": "EUR", "inventory_quantity": 50}, admin...)
		if p.Status != http.StatusCreated {
			t.Fatalf("product: %d %s", p.Status, p.Body)
		}
		productID := p.JSON(t)["data"].(map[string]any)["id"].(string)
		if c := ta.do("POST", "/api/v1/coupons", map[string]any{"code": "TENOFF", "type": "percentage", "value": "10", "is_active": true}, admin...); c.Status != http.StatusCreated {
			t.Fatalf("coupon: %d %s", c.Status, c.Body)
		}

		guest := ta.do("POST", "/api/v1/carts/guest", map[string]any{"currency": "EUR"})
		if guest.Status != http.StatusCreated {
			t.Fatalf("guest cart: %d %s", guest.Status, guest.Body)
		}
		cart := guest.JSON(t)
		if d, ok := cart["data"].(map[string]any); ok {
			cart = d
		}
		cartID, token := cart["id"].(string), cart["session_token"].(string)
		session := []string{"X-Session-Token", token}

		item := ta.do("POST", "/api/v1/carts/"+cartID+"/items", map[string]any{"product_id": productID, "quantity": 3}, session...)
		if item.Status != http.StatusCreated {
			t.Fatalf("add item: %d %s", item.Status, item.Body)
		}
		if r := ta.do("POST", "/api/v1/carts/"+cartID+"/items", map[string]any{"product_id": productID, "quantity": 10000}, session...); r.Status != http.StatusBadRequest || errorOf(t, r)["code"] != "INVALID_QUANTITY" {
			t.Errorf("quantity over 9999: %d %s", r.Status, r.Body)
		}
		applied := ta.do("POST", "/api/v1/carts/"+cartID+"/coupon", map[string]any{"coupon_code": "TENOFF"}, session...)
		if applied.Status != http.StatusOK {
			t.Fatalf("apply coupon: %d %s", applied.Status, applied.Body)
		}
		got := applied.JSON(t)
		if d, ok := got["data"].(map[string]any); ok {
			got = d
		}
		if got["subtotal"] != "37.50" || got["discount_total"] != "3.75" || got["total"] != "33.75" {
			t.Errorf("totals after coupon: %s", applied.Body)
		}
		if r := ta.do("POST", "/api/v1/carts/"+cartID+"/coupon", map[string]any{"coupon_code": "NOPE"}, session...); r.Status != http.StatusBadRequest || errorOf(t, r)["code"] != "COUPON_INVALID" {
			t.Errorf("unknown coupon: %d %s", r.Status, r.Body)
		}
		// A coupon restricted to a collection sees the catalog's memberships.
		col := ta.do("POST", "/api/v1/collections", map[string]any{"title": "Kitchen", "collection_type": "manual", "is_active": true}, admin...)
		if col.Status != http.StatusCreated {
			t.Fatalf("collection: %d %s", col.Status, col.Body)
		}
		colID := col.JSON(t)["data"].(map[string]any)["id"].(string)
		if r := ta.do("POST", "/api/v1/coupons", map[string]any{"code": "KITCHEN5", "type": "fixed_amount", "value": "5.00", "is_active": true,
			"applies_to": map[string]any{"collection_ids": []string{colID}}}, admin...); r.Status != http.StatusCreated {
			t.Fatalf("collection coupon: %d %s", r.Status, r.Body)
		}
		if r := ta.do("DELETE", "/api/v1/carts/"+cartID+"/coupon", nil, session...); r.Status != http.StatusOK {
			t.Fatalf("remove coupon: %d %s", r.Status, r.Body)
		}
		validate := func() map[string]any {
			r := ta.do("POST", "/api/v1/coupons/validate", map[string]any{"coupon_code": "KITCHEN5", "cart_id": cartID}, session...)
			if r.Status != http.StatusOK {
				t.Fatalf("validate: %d %s", r.Status, r.Body)
			}
			return r.JSON(t)
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
		if r := ta.do("POST", "/api/v1/carts/"+cartID+"/coupon", map[string]any{"coupon_code": "TENOFF"}, session...); r.Status != http.StatusOK {
			t.Fatalf("re-apply coupon: %d %s", r.Status, r.Body)
		}

		// Another client without the token cannot see the cart.
		if r := ta.do("GET", "/api/v1/carts/"+cartID, nil, "X-Session-Token", "wrong"); r.Status != http.StatusNotFound {
			t.Errorf("cart with a wrong token: %d %s", r.Status, r.Body)
		}

		// The guest registers and merges the cart into theirs.
		reg := ta.do("POST", "/api/v1/auth/register", map[string]string{"email": "shopper@example.com", "password": "Secret123", "first_name": "S", "last_name": "H"})
		bearer := []string{"Authorization", "Bearer " + reg.JSON(t)["access_token"].(string)}
		merged := ta.do("POST", "/api/v1/carts/merge", map[string]any{"session_token": token}, bearer...)
		if merged.Status != http.StatusOK {
			t.Fatalf("merge: %d %s", merged.Status, merged.Body)
		}
		if r := ta.do("POST", "/api/v1/carts/"+cartID+"/items", map[string]any{"product_id": productID, "quantity": 1}, session...); r.Status != http.StatusConflict || errorOf(t, r)["code"] != "CART_CONVERTED" {
			t.Errorf("converted guest cart: %d %s", r.Status, r.Body)
		}
		me := ta.do("GET", "/api/v1/carts/me", nil, bearer...)
		mine := me.JSON(t)
		if d, ok := mine["data"].(map[string]any); ok {
			mine = d
		}
		if me.Status != http.StatusOK || mine["item_count"] != float64(3) || mine["coupon_code"] != "TENOFF" {
			t.Errorf("customer cart after merge: %d %s", me.Status, me.Body)
		}
	})
}
