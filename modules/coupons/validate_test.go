package coupons_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/gocommerce/commerce/modules/coupons/api"
	"github.com/gocommerce/commerce/modules/coupons/ports"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/testdb"
)

const session = "X-Session-Token: " + guestTok

func validate(code string) map[string]any {
	return map[string]any{"coupon_code": code, "cart_id": cartID}
}

func TestValidateValid(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		h.create("TEN", "percentage", "10", map[string]any{"description": "10% off"})
		// The fake cart: 2 x 30.00 + 1 x 40.00 = 100.00, shipping 10.00, no tax.
		r := h.Must(http.StatusOK, http.MethodPost, "/api/v1/coupons/validate", validate("ten"), session)
		want := `{"coupon":{"code":"TEN","description":"10% off","type":"percentage","value":"10.00"},"discount":{"discount_amount":"10.00","new_total":"100.00","subtotal":"100.00"},"valid":true}`
		if got := canonical(t, r.Raw); got != want {
			t.Errorf("body\n%s\nwant\n%s", got, want)
		}
		// Every type, with the cart's owner instead of the session token.
		h.carts.set(func(c *ports.Cart) { c.CustomerID = customer1 })
		h.create("FIVE", "fixed_amount", "5", nil)
		h.create("SHIP", "free_shipping", "0", nil)
		h.create("B1G1", "buy_x_get_y", "0", map[string]any{"buy_x_get_y": map[string]any{"buy_quantity": 1, "get_quantity": 1, "buy_product_ids": []string{productB}, "get_product_ids": []string{productA}, "get_discount_value": "50"}})
		for code, want := range map[string][3]string{
			"FIVE": {"100.00", "5.00", "105.00"},
			"SHIP": {"100.00", "10.00", "100.00"},
			"B1G1": {"100.00", "15.00", "95.00"},
		} {
			d := h.Must(http.StatusOK, http.MethodPost, "/api/v1/coupons/validate", validate(code), "customer").Body["discount"].(map[string]any)
			if d["subtotal"] != want[0] || d["discount_amount"] != want[1] || d["new_total"] != want[2] {
				t.Errorf("%s: %v, want %v", code, d, want)
			}
		}
	})
}

func TestValidateInvalid(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		h.create("OFF", "percentage", "10", map[string]any{"is_active": false})
		h.create("LATER", "percentage", "10", map[string]any{"starts_at": "2026-03-02T00:00:00Z"})
		h.create("OVER", "percentage", "10", map[string]any{"starts_at": "2026-01-01T00:00:00Z", "expires_at": "2026-02-01T00:00:00Z"})
		used := h.create("USEDUP", "percentage", "10", map[string]any{"usage_limit": 1})
		once := h.create("ONCE", "percentage", "10", map[string]any{"usage_limit_per_customer": 1})
		h.create("BIG", "percentage", "10", map[string]any{"minimum_order_amount": "100.01"})
		h.create("OTHERS", "percentage", "10", map[string]any{"applies_to": map[string]any{"exclude_product_ids": []string{productA, productB}}})
		h.create("WELCOME", "percentage", "10", map[string]any{"customer_eligibility": map[string]any{"new_customers_only": true}})
		h.create("VIP", "percentage", "10", map[string]any{"customer_eligibility": map[string]any{"customer_ids": []string{customer2}, "customer_segments": []string{segment1}}})
		h.create("APPLIED", "percentage", "10", nil)
		h.create("FIXED", "fixed_amount", "5", nil)
		if _, err := h.svc.RecordUsage(ctx, usageCmd(used["id"].(string), "o1", "")); err != nil {
			t.Fatal(err)
		}
		if _, err := h.svc.RecordUsage(ctx, usageCmd(once["id"].(string), "o2", customer1)); err != nil {
			t.Fatal(err)
		}
		h.customers.returning[customer1] = true
		h.carts.set(func(c *ports.Cart) { c.CustomerID = customer1 })

		cases := map[string]string{
			"NOPE":    "COUPON_NOT_FOUND",
			"OFF":     "COUPON_INACTIVE",
			"LATER":   "COUPON_NOT_STARTED",
			"OVER":    "COUPON_EXPIRED",
			"USEDUP":  "COUPON_USAGE_LIMIT",
			"ONCE":    "COUPON_CUSTOMER_LIMIT",
			"BIG":     "COUPON_MINIMUM_NOT_MET",
			"OTHERS":  "COUPON_PRODUCT_NOT_ELIGIBLE",
			"WELCOME": "COUPON_NEW_CUSTOMERS_ONLY",
			"VIP":     "COUPON_CUSTOMER_NOT_ELIGIBLE",
		}
		check := func(cases map[string]string) {
			t.Helper()
			for code, want := range cases {
				r := h.Must(http.StatusOK, http.MethodPost, "/api/v1/coupons/validate", validate(code), "customer")
				e, _ := r.Body["error"].(map[string]any)
				if r.Body["valid"] != false || e["code"] != want || e["message"] == "" || httpxtest.Keys(r.Body) != "error,valid" || httpxtest.Keys(e) != "code,message" {
					t.Errorf("%s: %s, want %s", code, r.Raw, want)
				}
			}
		}
		check(cases)
		// With a coupon on the cart: the same one again, or another.
		h.carts.set(func(c *ports.Cart) { c.CouponCodes = []string{"applied"} })
		check(map[string]string{"APPLIED": "COUPON_ALREADY_APPLIED", "FIXED": "COUPON_CANNOT_COMBINE", "NOPE": "COUPON_NOT_FOUND", "OVER": "COUPON_EXPIRED"})
		h.carts.set(func(c *ports.Cart) { c.CouponCodes = nil })

		// Eligibility through a segment; a guest's email decides "new customer".
		h.customers.segments[segment1] = map[string]bool{customer1: true}
		if r := h.Must(http.StatusOK, http.MethodPost, "/api/v1/coupons/validate", validate("VIP"), "customer"); r.Body["valid"] != true {
			t.Errorf("segment member: %s", r.Raw)
		}
		h.carts.set(func(c *ports.Cart) { c.CustomerID, c.Email, c.CouponCodes = "", "new@example.com", nil })
		if r := h.Must(http.StatusOK, http.MethodPost, "/api/v1/coupons/validate", validate("WELCOME"), session); r.Body["valid"] != true {
			t.Errorf("new guest: %s", r.Raw)
		}
		h.customers.returning["new@example.com"] = true
		if r := h.Must(http.StatusOK, http.MethodPost, "/api/v1/coupons/validate", validate("WELCOME"), session); r.Body["error"].(map[string]any)["code"] != "COUPON_NEW_CUSTOMERS_ONLY" {
			t.Errorf("returning guest: %s", r.Raw)
		}
		// Automatic discounts never combine.
		h.carts.set(func(c *ports.Cart) { c.HasAutomaticDiscounts = true })
		if r := h.Must(http.StatusOK, http.MethodPost, "/api/v1/coupons/validate", validate("FIXED"), session); r.Body["error"].(map[string]any)["code"] != "COUPON_CANNOT_COMBINE" {
			t.Errorf("automatic discounts: %s", r.Raw)
		}
		h.carts.set(func(c *ports.Cart) { c.HasAutomaticDiscounts = false })
		h.clock.Advance(24 * time.Hour)
		if r := h.Must(http.StatusOK, http.MethodPost, "/api/v1/coupons/validate", validate("LATER"), session); r.Body["valid"] != true {
			t.Errorf("started: %s", r.Raw)
		}
	})
}

func TestValidateStacking(t *testing.T) {
	t.Parallel()
	for _, allow := range []bool{true, false} {
		h := newHarness(t, testdb.Primary(), allow)
		h.create("SHIP", "free_shipping", "0", nil)
		h.create("TEN", "percentage", "10", nil)
		h.carts.set(func(c *ports.Cart) { c.CouponCodes = []string{"TEN"} })
		r := h.Must(http.StatusOK, http.MethodPost, "/api/v1/coupons/validate", validate("SHIP"), session)
		if allow && r.Body["valid"] != true {
			t.Errorf("stacking allowed: %s", r.Raw)
		}
		if !allow && r.Body["valid"] != false {
			t.Errorf("stacking not configured: %s", r.Raw)
		}
	}
}

func TestValidateCartAccess(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		h.create("TEN", "percentage", "10", nil)
		// Cart problems use the error envelope: no token, another customer, unknown cart.
		assertError(t, h.Do(http.MethodPost, "/api/v1/coupons/validate", validate("TEN")), http.StatusNotFound, "CART_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodPost, "/api/v1/coupons/validate", validate("TEN"), "customer2"), http.StatusNotFound, "CART_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodPost, "/api/v1/coupons/validate", validate("TEN"), "X-Session-Token: wrong"), http.StatusNotFound, "CART_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodPost, "/api/v1/coupons/validate", map[string]any{"coupon_code": "TEN", "cart_id": "0190a000-0000-7000-8000-000000000000"}, session), http.StatusNotFound, "CART_NOT_FOUND", "not_found")
		h.carts.err = apperr.New(apperr.Gone, "CART_EXPIRED", "Cart has expired")
		assertError(t, h.Do(http.MethodPost, "/api/v1/coupons/validate", validate("TEN"), session), http.StatusGone, "CART_EXPIRED", "gone")
		h.carts.err = nil
		// Bodies are validated; a bad credential is still a 401 (optional auth).
		r := h.Do(http.MethodPost, "/api/v1/coupons/validate", map[string]any{"cart_id": cartID}, session)
		assertError(t, r, http.StatusBadRequest, 400, "validation")
		if _, ok := r.Fields()["coupon_code"]; !ok {
			t.Errorf("fields %v", r.Fields())
		}
		assertError(t, h.Do(http.MethodPost, "/api/v1/coupons/validate", validate("TEN"), "bad-token", session), http.StatusUnauthorized, 401, "auth")
		_ = api.TypePercentage
	})
}
