package coupons_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/coupons/api"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/testdb"
)

func usageCmd(couponID, orderID, customerID string) api.RecordUsageCommand {
	return api.RecordUsageCommand{
		CouponID: couponID, OrderID: orderID, CustomerID: customerID,
		DiscountAmount: dec("5.00"), OrderTotal: dec("45.00"), Currency: "USD",
	}
}

func (h *harness) usageCount(id string) int {
	h.t.Helper()
	var n int
	if err := h.db.Gorm().Table("coupons").Where("id = ?", id).Pluck("usage_count", &n).Error; err != nil {
		h.t.Fatal(err)
	}
	return n
}

func (h *harness) usageRows(id string) int64 {
	h.t.Helper()
	var n int64
	if err := h.db.Gorm().Table("coupon_usages").Where("coupon_id = ?", id).Count(&n).Error; err != nil {
		h.t.Fatal(err)
	}
	return n
}

func TestUsageReport(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		c := h.create("USED", "fixed_amount", "5", map[string]any{"usage_limit": 10})
		id := c["id"].(string)
		ctx := context.Background()
		record := func(order, customer, discount, total string, at time.Time) {
			t.Helper()
			u, err := h.svc.RecordUsage(ctx, api.RecordUsageCommand{CouponCode: "used", OrderID: order, CustomerID: customer,
				DiscountAmount: dec(discount), OrderTotal: dec(total), Currency: "USD", UsedAt: at})
			if err != nil || !u.Recorded || u.CouponID != id || u.Code != "USED" {
				t.Fatalf("record %s: %+v %v", order, u, err)
			}
		}
		day1 := time.Date(2026, 3, 2, 23, 59, 0, 0, time.UTC)
		day2 := time.Date(2026, 3, 3, 0, 1, 0, 0, time.UTC)
		record("o1", customer1, "5.00", "50.00", day1)
		record("o2", "", "5.00", "25.00", day1)
		record("o3", customer2, "4.50", "30.01", day2)

		r := h.Must(http.StatusOK, http.MethodGet, "/api/v1/coupons/"+id+"/usage", nil, "admin")
		u := r.Data()
		if httpxtest.Keys(u) != "average_order_value,code,coupon_id,currency,orders_count,remaining,total_discount_amount,usage_by_day,usage_count,usage_limit" {
			t.Errorf("keys %s", httpxtest.Keys(u))
		}
		want := map[string]any{
			"coupon_id": id, "code": "USED", "usage_limit": float64(10), "usage_count": float64(3), "remaining": float64(7),
			"total_discount_amount": "14.50", "orders_count": float64(3), "average_order_value": "35.00", "currency": "USD",
		}
		for k, v := range want {
			if u[k] != v {
				t.Errorf("%s = %v, want %v", k, u[k], v)
			}
		}
		raw, _ := json.Marshal(u["usage_by_day"])
		if string(raw) != `[{"date":"2026-03-02","discount_amount":"10.00","usage_count":2},{"date":"2026-03-03","discount_amount":"4.50","usage_count":1}]` {
			t.Errorf("usage_by_day %s", raw)
		}

		// Unlimited coupons have no remaining count; an unused coupon reports zeros.
		n := h.create("FRESH", "percentage", "5", nil)
		u = h.Must(http.StatusOK, http.MethodGet, "/api/v1/coupons/"+n["id"].(string)+"/usage", nil, "couponad").Data()
		if u["usage_limit"] != nil || u["remaining"] != nil || u["total_discount_amount"] != "0.00" || u["average_order_value"] != "0.00" || u["currency"] != nil || len(u["usage_by_day"].([]any)) != 0 {
			t.Errorf("fresh usage %v", u)
		}
		// Admin only: coupons:write is not enough.
		assertError(t, h.Do(http.MethodGet, "/api/v1/coupons/"+id+"/usage", nil, "writer"), http.StatusForbidden, 403, "auth")
		assertError(t, h.Do(http.MethodGet, "/api/v1/coupons/"+id+"/usage", nil, "customer"), http.StatusForbidden, 403, "auth")
		assertError(t, h.Do(http.MethodGet, "/api/v1/coupons/"+id+"/usage", nil), http.StatusUnauthorized, 401, "auth")
		assertError(t, h.Do(http.MethodGet, "/api/v1/coupons/USED/usage", nil, "admin"), http.StatusNotFound, "COUPON_NOT_FOUND", "not_found")
		h.Must(http.StatusOK, http.MethodGet, "/api/v1/coupons/"+id+"/usage", nil, "staff")
	})
}

func TestRecordUsageRules(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		c := h.create("LIMITED", "fixed_amount", "5", map[string]any{"usage_limit": 3, "usage_limit_per_customer": 1})
		id := c["id"].(string)
		if _, err := h.svc.RecordUsage(ctx, usageCmd(id, "o1", customer1)); err != nil {
			t.Fatal(err)
		}
		// Idempotent per order.
		u, err := h.svc.RecordUsage(ctx, usageCmd(id, "o1", customer1))
		if err != nil || u.Recorded {
			t.Fatalf("repeat: %+v %v", u, err)
		}
		// Per-customer limit.
		if _, err := h.svc.RecordUsage(ctx, usageCmd(id, "o2", customer1)); !errors.Is(err, api.ErrCustomerLimit) {
			t.Fatalf("per-customer limit: %v", err)
		}
		// Guests are not counted per customer.
		for _, o := range []string{"o3", "o4"} {
			if _, err := h.svc.RecordUsage(ctx, usageCmd(id, o, "")); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := h.svc.RecordUsage(ctx, usageCmd(id, "o5", customer2)); !errors.Is(err, api.ErrUsageLimit) {
			t.Fatalf("total limit: %v", err)
		}
		if _, err := h.svc.RecordUsage(ctx, api.RecordUsageCommand{CouponCode: "NOPE", OrderID: "o6"}); !errors.Is(err, api.ErrCouponNotFound) {
			t.Fatalf("unknown coupon: %v", err)
		}
		if _, err := h.svc.RecordUsage(ctx, api.RecordUsageCommand{CouponCode: "LIMITED"}); err == nil {
			t.Fatal("no order id accepted")
		}
		if n := h.usageCount(id); n != 3 {
			t.Errorf("usage_count %d, want 3", n)
		}
		if n := h.usageRows(id); n != 3 {
			t.Errorf("%d usage rows, want 3", n)
		}
		// The public coupon and the admin view agree.
		if got := h.Must(http.StatusOK, http.MethodGet, "/api/v1/coupons/LIMITED", nil, "admin").Data()["usage_count"]; got != float64(3) {
			t.Errorf("usage_count shown %v", got)
		}
	})
}

// TestUsageLimitUnderConcurrency: 20 parallel orders against usage_limit 5 record
// exactly 5 uses; 10 parallel orders of one customer against a per-customer limit of
// 2 record exactly 2.
func TestUsageLimitUnderConcurrency(t *testing.T) {
	t.Parallel()
	testdb.EachEngine(t, func(t *testing.T, engine string) {
		h := newHarness(t, engine, false)
		ctx := context.Background()
		run := func(n int, cmd func(i int) api.RecordUsageCommand) (ok int, limited int) {
			var wg sync.WaitGroup
			var mu sync.Mutex
			for i := 0; i < n; i++ {
				wg.Add(1)
				go func(i int) {
					defer wg.Done()
					_, err := h.svc.RecordUsage(ctx, cmd(i))
					mu.Lock()
					defer mu.Unlock()
					switch {
					case err == nil:
						ok++
					case errors.Is(err, api.ErrUsageLimit), errors.Is(err, api.ErrCustomerLimit):
						limited++
					default:
						t.Errorf("order %d: %v", i, err)
					}
				}(i)
			}
			wg.Wait()
			return ok, limited
		}
		c := h.create("FIVE", "percentage", "10", map[string]any{"usage_limit": 5})
		id := c["id"].(string)
		ok, limited := run(20, func(i int) api.RecordUsageCommand { return usageCmd(id, fmt.Sprintf("order-%d", i), "") })
		if ok != 5 || limited != 15 {
			t.Errorf("total limit: %d recorded, %d refused; want 5 and 15", ok, limited)
		}
		if n := h.usageCount(id); n != 5 {
			t.Errorf("usage_count %d, want 5", n)
		}
		if n := h.usageRows(id); n != 5 {
			t.Errorf("%d usage rows, want 5", n)
		}

		p := h.create("TWICE", "percentage", "10", map[string]any{"usage_limit_per_customer": 2})
		pid := p["id"].(string)
		ok, limited = run(10, func(i int) api.RecordUsageCommand { return usageCmd(pid, fmt.Sprintf("order-%d", i), customer1) })
		if ok != 2 || limited != 8 {
			t.Errorf("per-customer limit: %d recorded, %d refused; want 2 and 8", ok, limited)
		}
		if n := h.usageCount(pid); n != 2 {
			t.Errorf("usage_count %d, want 2", n)
		}

		// The same order recorded concurrently counts once, also at the limit.
		one := h.create("ONE", "percentage", "10", map[string]any{"usage_limit": 1})
		oid := one["id"].(string)
		ok, limited = run(8, func(int) api.RecordUsageCommand { return usageCmd(oid, "the-order", "") })
		if ok != 8 || limited != 0 || h.usageCount(oid) != 1 || h.usageRows(oid) != 1 {
			t.Errorf("same order at the limit: %d ok, %d refused, usage_count %d; want 8, 0, 1", ok, limited, h.usageCount(oid))
		}

		// The same order recorded concurrently counts once (no limit).
		s := h.create("SAME", "percentage", "10", nil)
		sid := s["id"].(string)
		ok, _ = run(8, func(int) api.RecordUsageCommand { return usageCmd(sid, "one-order", customer2) })
		if ok != 8 || h.usageCount(sid) != 1 || h.usageRows(sid) != 1 {
			t.Errorf("same order: %d calls ok, usage_count %d, rows %d; want 8, 1, 1", ok, h.usageCount(sid), h.usageRows(sid))
		}
	})
}

func orderEvent(t *testing.T, data map[string]any) event.Event {
	t.Helper()
	raw, err := json.Marshal(data)
	if err != nil {
		t.Fatal(err)
	}
	return event.Event{ID: "evt_1", Type: "order.created", Data: raw}
}

func TestOrderCreatedRecordsUsage(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		c := h.create("ORDERED", "fixed_amount", "5", map[string]any{"usage_limit": 1})
		id := c["id"].(string)
		order := map[string]any{
			"id": "0190a000-0000-7000-8000-0000000000d1", "customer_id": customer1, "coupon_code": "ordered",
			"discount_total": "5.00", "total_price": "95.00", "currency": "usd", "created_at": "2026-03-05T08:00:00Z",
		}
		for i := 0; i < 2; i++ { // at-least-once delivery: the second is a no-op
			if err := h.sub.Handle(ctx, orderEvent(t, order)); err != nil {
				t.Fatal(err)
			}
		}
		// A placed order is counted even past the limit (the order exists).
		order["id"], order["customer_id"] = "0190a000-0000-7000-8000-0000000000d2", nil
		if err := h.sub.Handle(ctx, orderEvent(t, order)); err != nil {
			t.Fatal(err)
		}
		if n := h.usageCount(id); n != 2 {
			t.Errorf("usage_count %d, want 2", n)
		}
		u := h.Must(http.StatusOK, http.MethodGet, "/api/v1/coupons/"+id+"/usage", nil, "admin").Data()
		if u["remaining"] != float64(0) || u["total_discount_amount"] != "10.00" || u["average_order_value"] != "95.00" || u["currency"] != "USD" {
			t.Errorf("usage %v", u)
		}
		if d := u["usage_by_day"].([]any); len(d) != 1 || d[0].(map[string]any)["date"] != "2026-03-05" {
			t.Errorf("usage_by_day %v", d)
		}

		// Stacked coupons each get their own discount.
		h.create("SHIP", "free_shipping", "0", nil)
		h.create("TENOFF", "percentage", "10", nil)
		stacked := map[string]any{
			"id": "0190a000-0000-7000-8000-0000000000d3", "total_price": "90.00", "currency": "USD", "created_at": "2026-03-06T08:00:00Z",
			"coupon_code": "TENOFF", "discount_total": "10.00",
			"applied_coupons": []map[string]any{{"code": "TENOFF", "discount_amount": "10.00"}, {"code": "SHIP", "discount_amount": "4.99"}},
		}
		if err := h.sub.Handle(ctx, orderEvent(t, stacked)); err != nil {
			t.Fatal(err)
		}
		ship := h.Must(http.StatusOK, http.MethodGet, "/api/v1/coupons/SHIP", nil, "admin").Data()
		shipUsage := h.Must(http.StatusOK, http.MethodGet, "/api/v1/coupons/"+ship["id"].(string)+"/usage", nil, "admin").Data()
		if shipUsage["usage_count"] != float64(1) || shipUsage["total_discount_amount"] != "4.99" {
			t.Errorf("stacked usage %v", shipUsage)
		}

		// Orders without coupons, unknown coupons and bad payloads are dropped quietly.
		for _, data := range []map[string]any{
			{"id": "0190a000-0000-7000-8000-0000000000d4", "total_price": "1.00", "currency": "USD"},
			{"id": "0190a000-0000-7000-8000-0000000000d5", "coupon_code": "UNKNOWN", "total_price": "1.00", "currency": "USD"},
			{"id": "0190a000-0000-7000-8000-0000000000d6", "coupon_code": "ORDERED", "total_price": "lots", "currency": "USD"},
			{"coupon_code": "ORDERED"},
		} {
			if err := h.sub.Handle(ctx, orderEvent(t, data)); err != nil {
				t.Errorf("%v: %v", data, err)
			}
		}
		if n := h.usageCount(id); n != 2 {
			t.Errorf("usage_count %d after dropped events, want 2", n)
		}
		_ = decimal.Zero
	})
}

func TestCartCouponEvents(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		c := h.create("APPLIED", "percentage", "10", nil)
		if err := h.svc.NotifyApplied(ctx, api.CartCoupon{Code: "applied", CartID: cartID, CustomerID: customer1, DiscountAmount: dec("3.5"), Currency: "USD"}); err != nil {
			t.Fatal(err)
		}
		if err := h.svc.NotifyRemoved(ctx, api.CartCoupon{Code: "APPLIED", CartID: cartID, Currency: "JPY", DiscountAmount: dec("0")}); err != nil {
			t.Fatal(err)
		}
		a := h.Payloads("coupon.applied", "")
		if len(a) != 1 || a[0]["coupon_id"] != c["id"] || a[0]["code"] != "APPLIED" || a[0]["type"] != "percentage" ||
			a[0]["cart_id"] != cartID || a[0]["customer_id"] != customer1 || a[0]["discount_amount"] != "3.50" || a[0]["currency"] != "USD" {
			t.Errorf("coupon.applied %v", a)
		}
		r := h.Payloads("coupon.removed", "")
		if len(r) != 1 || r[0]["customer_id"] != nil || r[0]["discount_amount"] != "0" {
			t.Errorf("coupon.removed %v", r)
		}
	})
}
