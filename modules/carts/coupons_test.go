package carts_test

import (
	"net/http"
	"testing"
)

func TestApplyCoupon(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		c := h.Must(http.StatusOK, http.MethodGet, "/api/v1/carts/me", nil, "cust1").Data()
		id := c["id"].(string)
		coupon := "/api/v1/carts/" + id + "/coupon"
		h.add(id, "cust1", map[string]any{"product_id": shirt, "quantity": 2})
		h.add(id, "cust1", map[string]any{"product_id": untracked, "quantity": 5})
		h.Must(http.StatusOK, http.MethodPut, "/api/v1/carts/"+id, map[string]any{"email": "a@example.com"}, "cust1")
		h.ship(id, "cust1", "standard", "4.99")

		r := h.Must(http.StatusOK, http.MethodPost, coupon, map[string]any{"coupon_code": "ten"}, "cust1")
		got := r.Data()
		// The spec's fields: id, coupon_code, subtotal, discount_total, tax_total, shipping_total, total.
		want := map[string]any{"id": id, "coupon_code": "TEN", "subtotal": "40.48", "discount_total": "4.05", "tax_total": "0.00", "shipping_total": "4.99", "total": "41.42"}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s = %v, want %v", k, got[k], v)
			}
		}
		// discount_total = sum(item discount_amount); item total = subtotal - discount.
		its := items(got)
		if its[0]["discount_amount"] != "4.00" || its[0]["total"] != "35.98" || its[1]["discount_amount"] != "0.05" || its[1]["total"] != "0.45" {
			t.Errorf("item discounts %v / %v", its[0], its[1])
		}
		if codes := got["coupon_codes"].([]any); len(codes) != 1 || codes[0] != "TEN" {
			t.Errorf("coupon_codes %v", codes)
		}
		q := h.coupons.lastQuery()
		if q.CustomerID != customer1 || q.Email != "a@example.com" || q.Currency != "USD" || !q.Subtotal.Equal(dec("40.48")) || !q.ShippingTotal.Equal(dec("4.99")) ||
			len(q.Lines) != 2 || q.Lines[0].ProductID != shirt || len(q.Lines[0].CollectionIDs) != 1 || q.Lines[0].CollectionIDs[0] != collection1 {
			t.Errorf("coupon query %+v", q)
		}
		if ev := h.Payloads("cart.coupon_applied", ""); len(ev) != 1 || ev[0]["coupon_code"] != "TEN" || ev[0]["discount_total"] != "4.05" {
			t.Errorf("cart.coupon_applied %v", ev)
		}
		if n := h.coupons.applied; len(n) != 1 || n[0].Code != "TEN" || string(n[0].CartID) != id || n[0].CustomerID != customer1 || !n[0].Amount.Equal(dec("4.05")) {
			t.Errorf("coupon.applied notices %+v", n)
		}
		// Discounts follow the cart's content.
		it := h.add(id, "cust1", map[string]any{"product_id": shirt, "quantity": 1})
		if it["discount_amount"] != "6.00" {
			t.Errorf("re-priced item %v", it)
		}

		// The same coupon again; another one; unknown, inactive, expired, not started.
		assertError(t, h.Do(http.MethodPost, coupon, map[string]any{"coupon_code": "TEN"}, "cust1"), http.StatusConflict, "COUPON_ALREADY_APPLIED", "conflict")
		assertError(t, h.Do(http.MethodPost, coupon, map[string]any{"coupon_code": "FIVE"}, "cust1"), http.StatusConflict, "COUPON_CANNOT_COMBINE", "conflict")
		for _, code := range []string{"NOPE", "OFF", "OLD", "LATER"} {
			assertError(t, h.Do(http.MethodPost, coupon, map[string]any{"coupon_code": code}, "cust1"), http.StatusBadRequest, "COUPON_INVALID", "validation")
		}
		// Free shipping stacks with a percentage coupon (configured in coupons).
		s := h.Must(http.StatusOK, http.MethodPost, coupon, map[string]any{"coupon_code": "SHIP"}, "cust1").Data()
		if s["coupon_code"] != "TEN" || len(s["coupon_codes"].([]any)) != 2 || s["shipping_total"] != "0.00" || s["discount_total"] != "6.05" || s["total"] != "54.42" {
			t.Errorf("stacked %v %v %v %v", s["coupon_codes"], s["shipping_total"], s["discount_total"], s["total"])
		}
		assertError(t, h.Do(http.MethodPost, coupon, map[string]any{"coupon_code": "SHIP2"}, "cust1"), http.StatusConflict, "COUPON_CANNOT_COMBINE", "conflict")
		// Remove one by code, then the rest.
		s = h.Must(http.StatusOK, http.MethodDelete, coupon+"?coupon_code=ship", nil, "cust1").Data()
		if s["shipping_total"] != "4.99" || len(s["coupon_codes"].([]any)) != 1 {
			t.Errorf("after removing SHIP %v", s)
		}
		s = h.Must(http.StatusOK, http.MethodDelete, coupon, nil, "cust1").Data()
		if _, present := s["coupon_code"]; present || s["discount_total"] != "0.00" || s["total"] != "65.46" || items(s)[0]["discount_amount"] != "0.00" {
			t.Errorf("without coupons %v", s)
		}
		if ev := h.Payloads("cart.coupon_removed", ""); len(ev) != 2 {
			t.Errorf("cart.coupon_removed %d", len(ev))
		}
		if n := h.coupons.removed; len(n) != 2 || n[0].Code != "SHIP" || !n[0].Amount.Equal(dec("4.99")) || n[1].Code != "TEN" {
			t.Errorf("coupon.removed notices %+v", n)
		}
		h.Must(http.StatusOK, http.MethodDelete, coupon, nil, "cust1") // nothing to remove: the cart as it is
		if ev := h.Payloads("cart.coupon_removed", ""); len(ev) != 2 {
			t.Errorf("removing nothing published %d", len(ev))
		}
		assertError(t, h.Do(http.MethodPost, coupon, map[string]any{}, "cust1"), http.StatusBadRequest, 400, "validation")
	})
}

func TestApplyCouponErrors(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		id, session := h.guest("")
		coupon := "/api/v1/carts/" + id + "/coupon"
		h.add(id, session, map[string]any{"product_id": shirt, "quantity": 2})
		cases := map[string][2]any{
			"BIG":     {http.StatusBadRequest, "COUPON_MINIMUM_NOT_MET"},
			"USED":    {http.StatusBadRequest, "COUPON_USAGE_LIMIT"},
			"ONCE":    {http.StatusBadRequest, "COUPON_CUSTOMER_LIMIT"},
			"NOTYOU":  {http.StatusBadRequest, "COUPON_CUSTOMER_NOT_ELIGIBLE"},
			"WELCOME": {http.StatusBadRequest, "COUPON_NEW_CUSTOMERS_ONLY"},
			"SHOES":   {http.StatusBadRequest, "COUPON_PRODUCT_NOT_ELIGIBLE"},
			"":        {http.StatusBadRequest, 400},
		}
		for code, want := range cases {
			r := h.Do(http.MethodPost, coupon, map[string]any{"coupon_code": code}, session)
			cat := "validation"
			assertError(t, r, want[0].(int), want[1], cat)
		}
		// Coupons do not combine with automatic discounts.
		h.auto.on = true
		assertError(t, h.Do(http.MethodPost, coupon, map[string]any{"coupon_code": "TEN"}, session), http.StatusConflict, "COUPON_CANNOT_COMBINE", "conflict")
		h.auto.on = false
		// A coupon whose minimum is no longer met stays on the cart without discount.
		h.add(id, session, map[string]any{"product_id": untracked, "quantity": 601}) // 39.98 + 60.10 = 100.08
		c := h.Must(http.StatusOK, http.MethodPost, coupon, map[string]any{"coupon_code": "BIG"}, session).Data()
		if c["discount_total"] != "50.04" {
			t.Errorf("BIG discount %v", c["discount_total"])
		}
		lines := items(c)
		h.Must(http.StatusOK, http.MethodPut, "/api/v1/carts/"+id+"/items/"+lines[1]["id"].(string), map[string]any{"quantity": 1}, session)
		c = h.Must(http.StatusOK, http.MethodGet, "/api/v1/carts/"+id, nil, session).Data()
		if c["coupon_code"] != "BIG" || c["discount_total"] != "0.00" || c["total"] != "40.08" {
			t.Errorf("inapplicable coupon %v %v %v", c["coupon_code"], c["discount_total"], c["total"])
		}
		h.Must(http.StatusOK, http.MethodPut, "/api/v1/carts/"+id+"/items/"+lines[1]["id"].(string), map[string]any{"quantity": 601}, session)
		if c = h.Must(http.StatusOK, http.MethodGet, "/api/v1/carts/"+id, nil, session).Data(); c["discount_total"] != "50.04" {
			t.Errorf("coupon did not apply again: %v", c["discount_total"])
		}
		if n := len(h.Payloads("cart.coupon_applied", "")); n != 1 {
			t.Errorf("%d cart.coupon_applied events", n)
		}
		assertError(t, h.Do(http.MethodPost, coupon, map[string]any{"coupon_code": "TEN"}, "cust1"), http.StatusNotFound, "CART_NOT_FOUND", "not_found")
	})
}
