package carts_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/commerce/modules/carts/api"
	"github.com/gocommerce/commerce/platform/auth"
)

func sessionOf(header string) string { return strings.TrimPrefix(header, "X-Session-Token: ") }

func TestMerge(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		mine := h.Must(http.StatusOK, http.MethodGet, "/api/v1/carts/me", nil, "cust1").Data()
		mid := mine["id"].(string)
		h.add(mid, "cust1", map[string]any{"product_id": shirt, "quantity": 3})
		h.Must(http.StatusOK, http.MethodPost, "/api/v1/carts/"+mid+"/coupon", map[string]any{"coupon_code": "FIVE"}, "cust1")

		gid, session := h.guest("")
		h.add(gid, session, map[string]any{"product_id": shirt, "quantity": 2})
		h.add(gid, session, map[string]any{"product_id": untracked, "quantity": 9998})
		h.add(gid, session, map[string]any{"product_id": shirt, "quantity": 1, "custom_attributes": map[string]string{"gift": "yes"}})
		h.Must(http.StatusOK, http.MethodPost, "/api/v1/carts/"+gid+"/coupon", map[string]any{"coupon_code": "TEN"}, session)
		h.add(mid, "cust1", map[string]any{"product_id": untracked, "quantity": 5})

		h.clock.Advance(time.Hour)
		m := h.Must(http.StatusOK, http.MethodPost, "/api/v1/carts/merge", map[string]any{"session_token": sessionOf(session)}, "cust1").Data()
		if m["id"] != mid || m["customer_id"] != customer1 {
			t.Errorf("merged into %v", m["id"])
		}
		its := items(m)
		// Identical items summed (the poster capped at 9999), others copied; the customer's coupon kept.
		if len(its) != 3 || its[0]["quantity"] != float64(5) || its[1]["quantity"] != float64(9999) || its[2]["custom_attributes"].(map[string]any)["gift"] != "yes" {
			t.Errorf("merged items %v", its)
		}
		if m["coupon_code"] != "FIVE" || len(m["coupon_codes"].([]any)) != 1 || m["discount_total"] != "5.00" {
			t.Errorf("coupons %v %v", m["coupon_codes"], m["discount_total"])
		}
		if m["expires_at"] != "2026-03-31T11:00:00Z" {
			t.Errorf("expires_at %v", m["expires_at"])
		}
		ev := h.Events("cart.merged")
		if len(ev) != 1 || ev[0].Data["id"] != mid || ev[0].Data["source_cart_id"] != gid || ev[0].AggregateID != mid {
			t.Errorf("cart.merged %v", ev)
		}
		// The guest cart is converted: changes (and reads) answer CART_CONVERTED.
		if h.Count("carts", "id = ? AND status = ? AND merged_into_id = ?", gid, "converted", mid) != 1 {
			t.Error("guest cart not converted")
		}
		assertError(t, h.Do(http.MethodPost, "/api/v1/carts/"+gid+"/items", map[string]any{"product_id": shirt}, session), http.StatusConflict, "CART_CONVERTED", "conflict")
		assertError(t, h.Do(http.MethodPut, "/api/v1/carts/"+gid, map[string]any{"notes": "x"}, session), http.StatusConflict, "CART_CONVERTED", "conflict")
		assertError(t, h.Do(http.MethodGet, "/api/v1/carts/"+gid, nil, session), http.StatusConflict, "CART_CONVERTED", "conflict")
		assertError(t, h.Do(http.MethodPost, "/api/v1/carts/merge", map[string]any{"session_token": sessionOf(session)}, "cust1"), http.StatusConflict, "CART_CONVERTED", "conflict")

		// A customer without a cart gets one (in the guest's currency), with the guest's coupon.
		g2, s2 := h.guest("EUR")
		h.catalog.mu.Lock()
		h.catalog.variants[euro][0].InventoryTracked = false
		h.catalog.mu.Unlock()
		h.add(g2, s2, map[string]any{"product_id": euro, "quantity": 2})
		h.Must(http.StatusOK, http.MethodPost, "/api/v1/carts/"+g2+"/coupon", map[string]any{"coupon_code": "TEN"}, s2)
		m2 := h.Must(http.StatusOK, http.MethodPost, "/api/v1/carts/merge", map[string]any{"session_token": sessionOf(s2)}, "cust2").Data()
		if m2["customer_id"] != customer2 || m2["currency"] != "EUR" || m2["coupon_code"] != "TEN" || m2["discount_total"] != "1.00" || len(items(m2)) != 1 {
			t.Errorf("new merged cart %v", m2)
		}
		if h.Must(http.StatusOK, http.MethodGet, "/api/v1/carts/me", nil, "cust2").Data()["id"] != m2["id"] {
			t.Error("the merged cart is not the customer's active cart")
		}
		if n := len(h.Payloads("cart.created", "")); n != 4 {
			t.Errorf("%d cart.created events, want 4", n)
		}
		// A guest cart in another currency cannot join a non-empty customer cart.
		g3, s3 := h.guest("EUR")
		h.add(g3, s3, map[string]any{"product_id": euro})
		assertError(t, h.Do(http.MethodPost, "/api/v1/carts/merge", map[string]any{"session_token": sessionOf(s3)}, "cust1"), http.StatusBadRequest, "CURRENCY_MISMATCH", "validation")
		h.Must(http.StatusOK, http.MethodGet, "/api/v1/carts/"+g3, nil, s3) // unchanged

		// Who may merge, and what.
		assertError(t, h.Do(http.MethodPost, "/api/v1/carts/merge", map[string]any{"session_token": sessionOf(s3)}), http.StatusUnauthorized, 401, "auth")
		assertError(t, h.Do(http.MethodPost, "/api/v1/carts/merge", map[string]any{"session_token": sessionOf(s3)}, "admin"), http.StatusForbidden, 403, "auth")
		assertError(t, h.Do(http.MethodPost, "/api/v1/carts/merge", map[string]any{"session_token": sessionOf(s3)}, "reader"), http.StatusForbidden, 403, "auth")
		assertError(t, h.Do(http.MethodPost, "/api/v1/carts/merge", map[string]any{"session_token": "unknown"}, "cust1"), http.StatusNotFound, "CART_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodPost, "/api/v1/carts/merge", map[string]any{}, "cust1"), http.StatusBadRequest, 400, "validation")
		g4, s4 := h.guest("")
		h.clock.Advance(31 * 24 * time.Hour)
		assertError(t, h.Do(http.MethodPost, "/api/v1/carts/merge", map[string]any{"session_token": sessionOf(s4)}, "cust1"), http.StatusGone, "CART_EXPIRED", "gone")
		_ = g4
	})
}

func TestCartsAPI(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		id, session := h.guest("")
		h.add(id, session, map[string]any{"product_id": shirt, "quantity": 2})
		h.Must(http.StatusOK, http.MethodPost, "/api/v1/carts/"+id+"/coupon", map[string]any{"coupon_code": "TEN"}, session)

		c, err := h.svc.GetCart(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if c.Status != "active" || len(c.Items) != 1 || !c.Subtotal.Equal(dec("39.98")) || !c.DiscountTotal.Equal(dec("4.00")) ||
			!c.Total.Equal(dec("35.98")) || c.CouponCodes[0] != "TEN" || !c.Items[0].DiscountAmount.Equal(dec("4.00")) {
			t.Errorf("GetCart %+v", c)
		}
		if _, err := h.svc.GetCart(ctx, missing); !errors.Is(err, api.ErrCartNotFound) {
			t.Errorf("unknown cart: %v", err)
		}
		// Coupon context: the same access rules as GET.
		cc, err := h.svc.CouponContext(ctx, api.Access{CartID: id, SessionToken: sessionOf(session)})
		if err != nil || len(cc.Lines) != 1 || cc.Lines[0].CollectionIDs[0] != collection1 || cc.CouponCodes[0] != "TEN" || !cc.Subtotal.Equal(dec("39.98")) {
			t.Errorf("CouponContext %+v %v", cc, err)
		}
		if _, err := h.svc.CouponContext(ctx, api.Access{CartID: id}); !errors.Is(err, api.ErrCartNotFound) {
			t.Errorf("no credentials: %v", err)
		}
		couponsOnly := &auth.Principal{Kind: auth.APIKey, ID: "k9", Scopes: []string{"coupons:read"}}
		if _, err := h.svc.CouponContext(ctx, api.Access{CartID: id, Principal: couponsOnly}); !errors.Is(err, api.ErrCartNotFound) {
			t.Errorf("a key without carts:read: %v", err)
		}

		// MarkConverted: cart.converted once; again for the same order is a no-op.
		order := "0190a000-0000-7000-8000-00000000f00d"
		if err := h.svc.MarkConverted(ctx, id, order); err != nil {
			t.Fatal(err)
		}
		if err := h.svc.MarkConverted(ctx, id, order); err != nil {
			t.Fatalf("repeat: %v", err)
		}
		if err := h.svc.MarkConverted(ctx, id, "another-order"); !errors.Is(err, api.ErrCartConverted) {
			t.Errorf("another order: %v", err)
		}
		ev := h.Payloads("cart.converted", "")
		if len(ev) != 1 || ev[0]["id"] != id || ev[0]["order_id"] != order || ev[0]["total"] != "35.98" {
			t.Errorf("cart.converted %v", ev)
		}
		if c, _ := h.svc.GetCart(ctx, id); c.Status != "converted" || c.ConvertedOrderID != order {
			t.Errorf("converted cart %+v", c)
		}
		assertError(t, h.Do(http.MethodPost, "/api/v1/carts/"+id+"/items", map[string]any{"product_id": shirt}, session), http.StatusConflict, "CART_CONVERTED", "conflict")
		assertError(t, h.Do(http.MethodDelete, "/api/v1/carts/"+id, nil, session), http.StatusConflict, "CART_CONVERTED", "conflict")
		assertError(t, h.Do(http.MethodPost, "/api/v1/carts/"+id+"/coupon", map[string]any{"coupon_code": "FIVE"}, session), http.StatusConflict, "CART_CONVERTED", "conflict")

		// An expired cart cannot be converted.
		old, _ := h.guest("")
		h.clock.Advance(31 * 24 * time.Hour)
		if err := h.svc.MarkConverted(ctx, old, order); !errors.Is(err, api.ErrCartExpired) {
			t.Errorf("expired: %v", err)
		}
		if c, _ := h.svc.GetCart(ctx, old); c.Status != "expired" {
			t.Errorf("status of an expired cart %q", c.Status)
		}

		// ExportCarts lists the customer's carts.
		mine := h.Must(http.StatusOK, http.MethodGet, "/api/v1/carts/me", nil, "cust1").Data()
		ex, err := h.queries.ExportCarts(ctx, customer1)
		if err != nil || len(ex) != 1 || ex[0].ID != mine["id"] || ex[0].Status != api.StatusActive {
			t.Errorf("ExportCarts %+v %v", ex, err)
		}
	})
}

// IdleCustomerCarts (the abandoned-cart sweep's read, api.Queries): active customer
// carts with items last changed before the cutoff, oldest first, after the cursor;
// not guests' carts, empty ones, recently changed ones or expired ones.
func TestIdleCustomerCarts(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		item := map[string]any{"product_id": shirt, "quantity": 2}
		mine := h.Must(http.StatusOK, http.MethodGet, "/api/v1/carts/me", nil, "cust1").Data()
		h.Must(http.StatusCreated, http.MethodPost, "/api/v1/carts/"+mine["id"].(string)+"/items", item, "cust1")
		h.Must(http.StatusOK, http.MethodGet, "/api/v1/carts/me", nil, "cust2") // empty
		guest, session := h.guest("")
		h.Must(http.StatusCreated, http.MethodPost, "/api/v1/carts/"+guest+"/items", item, session)

		h.clock.Advance(5 * time.Hour)
		idle, err := h.queries.IdleCustomerCarts(ctx, h.clock.Now().Add(-4*time.Hour), api.IdleCart{}, 10)
		if err != nil || len(idle) != 1 {
			t.Fatalf("idle carts %+v %v, want customer 1's alone", idle, err)
		}
		c := idle[0]
		if c.ID != mine["id"] || c.CustomerID != customer1 || c.Currency != "USD" || c.Total != "39.98" || c.ItemCount != 2 ||
			!c.UpdatedAt.Equal(t0) {
			t.Errorf("idle cart %+v", c)
		}
		if next, err := h.queries.IdleCustomerCarts(ctx, h.clock.Now().Add(-4*time.Hour), c, 10); err != nil || len(next) != 0 {
			t.Errorf("after the last one: %+v %v", next, err)
		}
		// A change makes it active again; an expired cart is not idle but gone.
		h.Must(http.StatusCreated, http.MethodPost, "/api/v1/carts/"+c.ID+"/items", item, "cust1")
		if idle, err := h.queries.IdleCustomerCarts(ctx, h.clock.Now().Add(-4*time.Hour), api.IdleCart{}, 10); err != nil || len(idle) != 0 {
			t.Errorf("after a change: %+v %v", idle, err)
		}
		h.clock.Advance(31 * 24 * time.Hour)
		if idle, err := h.queries.IdleCustomerCarts(ctx, h.clock.Now().Add(-4*time.Hour), api.IdleCart{}, 10); err != nil || len(idle) != 0 {
			t.Errorf("expired carts: %+v %v", idle, err)
		}
	})
}
