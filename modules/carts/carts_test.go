package carts_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/carts/api"
	"github.com/gocommerce/commerce/modules/carts/domain"
	"github.com/gocommerce/commerce/platform/httpxtest"
)

const cartKeys = "coupon_codes,created_at,currency,customer_id,discount_total,email,expires_at,id,item_count,items," +
	"notes,shipping_method,shipping_total,subtotal,tax_total,total,updated_at"

const itemKeys = "custom_attributes,discount_amount,id,image_url,is_gift_card,original_price,product_id,quantity," +
	"requires_shipping,sku,subtotal,title,total,unit_price,variant_id,variant_title"

func TestGuestCart(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		r := h.Must(http.StatusCreated, http.MethodPost, "/api/v1/carts/guest", map[string]any{"currency": "eur"})
		c := r.Data()
		if httpxtest.Keys(c) != sortedKeys(cartKeys+",session_token") {
			t.Errorf("keys %s", httpxtest.Keys(c))
		}
		want := map[string]any{
			"currency": "EUR", "customer_id": nil, "subtotal": "0.00", "discount_total": "0.00", "tax_total": "0.00",
			"shipping_total": "0.00", "total": "0.00", "item_count": float64(0), "email": "", "shipping_method": "", "notes": "",
			"expires_at": "2026-03-31T10:00:00Z", "created_at": "2026-03-01T10:00:00Z",
		}
		for k, v := range want {
			if c[k] != v {
				t.Errorf("%s = %v, want %v", k, c[k], v)
			}
		}
		if len(items(c)) != 0 || len(c["coupon_codes"].([]any)) != 0 {
			t.Errorf("new cart %v", c)
		}
		// The token: 32 random bytes, base64url; only its SHA-256 is stored.
		token := c["session_token"].(string)
		if raw, err := base64.RawURLEncoding.DecodeString(token); err != nil || len(raw) != 32 {
			t.Errorf("token %q: %d bytes, %v", token, len(raw), err)
		}
		sum := sha256.Sum256([]byte(token))
		if h.Count("carts", "id = ? AND session_token_hash = ?", c["id"], hex.EncodeToString(sum[:])) != 1 || h.Count("carts", "session_token_hash = ?", token) != 0 {
			t.Error("the session token is not stored as its SHA-256 only")
		}
		ev := h.Events("cart.created")
		if len(ev) != 1 || ev[0].Data["id"] != c["id"] || ev[0].AggregateID != c["id"] || ev[0].Data["session_token"] != nil {
			t.Errorf("cart.created %v", ev)
		}

		// No body: USD. JPY has no minor unit. A bad currency is refused.
		id, session := h.guest("")
		usd := h.Must(http.StatusOK, http.MethodGet, "/api/v1/carts/"+id, nil, session).Data()
		if usd["currency"] != "USD" || httpxtest.Keys(usd) != cartKeys {
			t.Errorf("default cart %v", usd)
		}
		if jpy := h.Must(http.StatusCreated, http.MethodPost, "/api/v1/carts/guest", map[string]any{"currency": "JPY"}).Data(); jpy["total"] != "0" {
			t.Errorf("JPY total %v", jpy["total"])
		}
		r = h.Do(http.MethodPost, "/api/v1/carts/guest", map[string]any{"currency": "dollars"})
		assertError(t, r, http.StatusBadRequest, "INVALID_CURRENCY", "validation")
		if r.Fields()["currency"] == nil {
			t.Errorf("fields %v", r.Fields())
		}
		if r := h.Do(http.MethodPost, "/api/v1/carts/guest", map[string]any{"currency": 5}); r.Code != http.StatusBadRequest {
			t.Errorf("numeric currency: %d", r.Code)
		}
		// A customer token may create a guest cart too; a bad token is a 401.
		if g := h.Must(http.StatusCreated, http.MethodPost, "/api/v1/carts/guest", nil, "cust1").Data(); g["customer_id"] != nil {
			t.Errorf("guest cart of a customer: %v", g["customer_id"])
		}
		assertError(t, h.Do(http.MethodPost, "/api/v1/carts/guest", nil, "bogus"), http.StatusUnauthorized, 401, "auth")
	})
}

func TestCartAccess(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		id, session := h.guest("")
		path := "/api/v1/carts/" + id
		// The session token, staff and API keys with carts:read/write open it.
		for _, creds := range [][]string{{session}, {"admin"}, {"staff"}, {"reader"}, {"writer"}, {"cust2", session}} {
			if r := h.Do(http.MethodGet, path, nil, creds...); r.Code != http.StatusOK || r.Data()["session_token"] != nil {
				t.Errorf("%v: %d %s", creds, r.Code, r.Raw)
			}
		}
		// Anything else cannot tell the cart exists.
		assertError(t, h.Do(http.MethodGet, path, nil), http.StatusUnauthorized, 401, "auth")
		assertError(t, h.Do(http.MethodGet, path, nil, "X-Session-Token: wrong"), http.StatusNotFound, "CART_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodGet, path, nil, "cust1"), http.StatusNotFound, "CART_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodGet, "/api/v1/carts/"+missing, nil, session), http.StatusNotFound, "CART_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodGet, "/api/v1/carts/not-a-uuid", nil, session), http.StatusNotFound, "CART_NOT_FOUND", "not_found")
		// A principal must hold the scope; a read key cannot change carts.
		r := h.Do(http.MethodGet, path, nil, "products", session)
		assertError(t, r, http.StatusForbidden, 403, "auth")
		if r.Err()["message"] != "Forbidden: Insufficient permissions. Required: carts:read" {
			t.Errorf("403 message %v", r.Err()["message"])
		}
		assertError(t, h.Do(http.MethodPut, path, map[string]any{"notes": "x"}, "reader"), http.StatusForbidden, 403, "auth")
		assertError(t, h.Do(http.MethodPut, path, map[string]any{"notes": "x"}, "nocarts", session), http.StatusForbidden, 403, "auth")
		assertError(t, h.Do(http.MethodGet, path, nil, "bogus", session), http.StatusUnauthorized, 401, "auth")
		h.Must(http.StatusOK, http.MethodPut, path, map[string]any{"notes": "by the support team"}, "writer")

		// A customer's own cart opens with its token only.
		mine := h.Must(http.StatusOK, http.MethodGet, "/api/v1/carts/me", nil, "cust1").Data()
		h.Must(http.StatusOK, http.MethodGet, "/api/v1/carts/"+mine["id"].(string), nil, "cust1")
		assertError(t, h.Do(http.MethodGet, "/api/v1/carts/"+mine["id"].(string), nil, "cust2"), http.StatusNotFound, "CART_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodGet, "/api/v1/carts/"+mine["id"].(string), nil, session), http.StatusNotFound, "CART_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodPost, "/api/v1/carts/"+mine["id"].(string)+"/items", map[string]any{"product_id": shirt}, "cust2"), http.StatusNotFound, "CART_NOT_FOUND", "not_found")
	})
}

func TestMyCart(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		c := h.Must(http.StatusOK, http.MethodGet, "/api/v1/carts/me?currency=jpy", nil, "cust1").Data()
		if c["customer_id"] != customer1 || c["currency"] != "JPY" || httpxtest.Keys(c) != cartKeys {
			t.Errorf("my cart %v", c)
		}
		again := h.Must(http.StatusOK, http.MethodGet, "/api/v1/carts/me", nil, "cust1").Data()
		if again["id"] != c["id"] {
			t.Errorf("second call created another cart: %v", again["id"])
		}
		if n := len(h.Payloads("cart.created", "")); n != 1 {
			t.Errorf("%d cart.created events", n)
		}
		other := h.Must(http.StatusOK, http.MethodGet, "/api/v1/carts/me", nil, "cust2").Data()
		if other["id"] == c["id"] || other["customer_id"] != customer2 {
			t.Errorf("another customer's cart %v", other)
		}
		assertError(t, h.Do(http.MethodGet, "/api/v1/carts/me", nil), http.StatusUnauthorized, 401, "auth")
		for _, cred := range []string{"admin", "reader", "staff"} {
			r := h.Do(http.MethodGet, "/api/v1/carts/me", nil, cred)
			assertError(t, r, http.StatusForbidden, 403, "auth")
			if !strings.HasPrefix(r.Err()["message"].(string), "Forbidden: Insufficient permissions. Required: ") {
				t.Errorf("403 message %v", r.Err()["message"])
			}
		}
		assertError(t, h.Do(http.MethodGet, "/api/v1/carts/me", nil, "products"), http.StatusForbidden, 403, "auth")
		assertError(t, h.Do(http.MethodGet, "/api/v1/carts/me?currency=xx", nil, "cust2"), http.StatusBadRequest, "INVALID_CURRENCY", "validation")

		// After 30 days without activity the cart is expired: /me starts a new one.
		h.clock.Advance(30 * 24 * time.Hour)
		fresh := h.Must(http.StatusOK, http.MethodGet, "/api/v1/carts/me", nil, "cust1").Data()
		if fresh["id"] == c["id"] || fresh["currency"] != "USD" {
			t.Errorf("expired cart not replaced: %v", fresh)
		}
		if h.Count("carts", "id = ? AND status = ?", c["id"], "expired") != 1 {
			t.Error("the old cart is not marked expired")
		}
		assertError(t, h.Do(http.MethodGet, "/api/v1/carts/"+c["id"].(string), nil, "cust1"), http.StatusGone, "CART_EXPIRED", "gone")
	})
}

func TestUpdateAndDeleteCart(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		id, session := h.guest("")
		path := "/api/v1/carts/" + id
		h.add(id, session, map[string]any{"product_id": shirt, "quantity": 2})
		h.clock.Advance(time.Hour)
		c := h.Must(http.StatusOK, http.MethodPut, path, map[string]any{"email": " Buyer@Example.com ", "shipping_method": "express", "notes": "Leave at the door"}, session).Data()
		if c["email"] != "buyer@example.com" || c["shipping_method"] != "express" || c["notes"] != "Leave at the door" {
			t.Errorf("details %v", c)
		}
		// A method named here has no price until checkout chooses its rate (decision 0175).
		if c["subtotal"] != "39.98" || c["shipping_total"] != "0.00" || c["total"] != "39.98" {
			t.Errorf("totals %v %v %v", c["subtotal"], c["shipping_total"], c["total"])
		}
		if c["expires_at"] != "2026-03-31T11:00:00Z" || c["updated_at"] != "2026-03-01T11:00:00Z" {
			t.Errorf("activity not recorded: %v %v", c["expires_at"], c["updated_at"])
		}
		// shipping_total comes from the chosen rate; total = subtotal - discount + tax + shipping.
		h.ship(id, session, "express", "12.50")
		c = h.Must(http.StatusOK, http.MethodGet, path, nil, session).Data()
		if c["shipping_method"] != "express" || c["shipping_total"] != "12.50" || c["total"] != "52.48" {
			t.Errorf("chosen rate %v %v %v", c["shipping_method"], c["shipping_total"], c["total"])
		}
		// Only a caller who may write the cart chooses its rate.
		for _, who := range []api.Access{{CartID: id, Principal: principals["cust2"]}, {CartID: id, SessionToken: "other"}, {CartID: id, Principal: principals["reader"]}} {
			if _, err := h.svc.ChooseShipping(context.Background(), who, "free", decimal.Zero); !errors.Is(err, domain.ErrCartNotFound) {
				t.Errorf("%+v chose a rate: %v", who, err)
			}
		}
		// Naming the same method keeps its price; a subset keeps the rest; "" clears.
		c = h.Must(http.StatusOK, http.MethodPut, path, map[string]any{"shipping_method": "express", "notes": "Ring twice"}, session).Data()
		if c["shipping_total"] != "12.50" || c["total"] != "52.48" || c["email"] != "buyer@example.com" {
			t.Errorf("same method %v", c)
		}
		c = h.Must(http.StatusOK, http.MethodPut, path, map[string]any{"shipping_method": ""}, session).Data()
		if c["email"] != "buyer@example.com" || c["shipping_total"] != "0.00" || c["total"] != "39.98" {
			t.Errorf("partial update %v", c)
		}
		if ev := h.Payloads("cart.updated", ""); len(ev) != 4 || ev[0]["shipping_method"] != "express" || ev[1]["shipping_total"] != "12.50" || ev[0]["session_token"] != nil {
			t.Errorf("cart.updated %v", ev)
		}
		for body, field := range map[string]string{
			`{"email":"not-an-email"}`:                               "email",
			`{"notes":"` + strings.Repeat("n", 5001) + `"}`:          "notes",
			`{"shipping_method":"` + strings.Repeat("s", 101) + `"}`: "shipping_method",
		} {
			r := h.Do(http.MethodPut, path, body, session)
			assertError(t, r, http.StatusBadRequest, 400, "validation")
			if r.Fields()[field] == nil {
				t.Errorf("%s: fields %v", field, r.Fields())
			}
		}
		assertError(t, h.Do(http.MethodPut, path, map[string]any{"email": 5}, session), http.StatusBadRequest, 400, "validation")

		// DELETE removes the cart and its items.
		assertError(t, h.Do(http.MethodDelete, path, nil, "reader"), http.StatusForbidden, 403, "auth")
		assertError(t, h.Do(http.MethodDelete, path, nil, "cust1"), http.StatusNotFound, "CART_NOT_FOUND", "not_found")
		if r := h.Must(http.StatusNoContent, http.MethodDelete, path, nil, session); r.Raw != "" {
			t.Errorf("204 body %q", r.Raw)
		}
		assertError(t, h.Do(http.MethodGet, path, nil, session), http.StatusNotFound, "CART_NOT_FOUND", "not_found")
		if h.Count("cart_items", "cart_id = ?", id) != 0 || h.Count("carts", "id = ?", id) != 0 {
			t.Error("cart or items left behind")
		}
	})
}

func TestExpiry(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		idle, idleSession := h.guest("")
		busy, busySession := h.guest("")
		// Activity moves expires_at: 29 days, a change, 29 more days: still active.
		h.clock.Advance(29 * 24 * time.Hour)
		h.add(busy, busySession, map[string]any{"product_id": shirt})
		h.clock.Advance(29 * 24 * time.Hour)
		h.Must(http.StatusOK, http.MethodGet, "/api/v1/carts/"+busy, nil, busySession)
		// Reads do not count as activity; 30 days after the last change the cart is gone,
		// before the sweep has run.
		assertError(t, h.Do(http.MethodGet, "/api/v1/carts/"+idle, nil, idleSession), http.StatusGone, "CART_EXPIRED", "gone")
		assertError(t, h.Do(http.MethodPost, "/api/v1/carts/"+idle+"/items", map[string]any{"product_id": shirt}, idleSession), http.StatusGone, "CART_EXPIRED", "gone")
		assertError(t, h.Do(http.MethodDelete, "/api/v1/carts/"+idle, nil, idleSession), http.StatusGone, "CART_EXPIRED", "gone")
		if h.Count("carts", "id = ? AND status = ?", idle, "active") != 1 {
			t.Error("the sweep ran early")
		}
		// The periodic job marks it.
		reg := &registry{}
		h.jobs.Register(reg)
		if reg.handled != "carts:expire" || reg.every != "carts:expire" || reg.interval != time.Hour {
			t.Errorf("registered %+v", reg)
		}
		if err := reg.handler(t.Context(), nil); err != nil {
			t.Fatal(err)
		}
		if h.Count("carts", "id = ? AND status = ?", idle, "expired") != 1 || h.Count("carts", "id = ? AND status = ?", busy, "active") != 1 {
			t.Error("the sweep did not expire exactly the idle cart")
		}
		assertError(t, h.Do(http.MethodGet, "/api/v1/carts/"+idle, nil, idleSession), http.StatusGone, "CART_EXPIRED", "gone")
		// An unauthorized caller still cannot tell.
		assertError(t, h.Do(http.MethodGet, "/api/v1/carts/"+idle, nil, busySession), http.StatusNotFound, "CART_NOT_FOUND", "not_found")
	})
}

func sortedKeys(list string) string {
	k := strings.Split(list, ",")
	sort.Strings(k)
	return strings.Join(k, ",")
}
