package subscriptions_test

import (
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/httpxtest"
)

func TestCreateValidatesEveryField(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		r := h.Do("POST", "/api/v1/subscriptions", map[string]any{}, "admin")
		httpxtest.AssertError(t, r, 400, 400, "validation")
		for _, f := range []string{"customer_id", "order_id", "product_id", "interval", "interval_count", "currency", "amount", "payment_method_id", "gateway"} {
			if _, ok := r.Fields()[f]; !ok {
				t.Errorf("missing %s not named: %v", f, r.Fields())
			}
		}
		for _, tc := range []struct {
			field string
			value any
		}{
			{"interval_count", 13}, {"interval_count", 0}, {"interval", "hourly"}, {"amount", "0"}, {"amount", 19.99},
			{"amount", "1.001"}, {"currency", "XXQ"}, {"gateway", "bank"}, {"customer_id", "nope"}, {"trial_days", -1},
			{"setup_fee", "-1"}, {"max_cycles", 0}, {"next_billing_at", "2026-03-01T00:00:00Z"},
		} {
			r := h.Do("POST", "/api/v1/subscriptions", body(map[string]any{tc.field: tc.value}), "admin")
			if r.Code != 400 || r.Fields()[tc.field] == nil {
				t.Errorf("%s=%v: %d %v", tc.field, tc.value, r.Code, r.Body)
			}
		}
		for _, iv := range []string{"daily", "weekly", "bi_weekly", "monthly", "quarterly", "bi_annually", "annually"} {
			s := h.create("admin", map[string]any{"interval": iv, "interval_count": 12, "trial_days": 1})
			if s["interval"] != iv || httpxtest.Num(s["interval_count"]) != 12 {
				t.Errorf("interval %s: %v", iv, s)
			}
		}
		httpxtest.AssertError(t, h.Do("POST", "/api/v1/subscriptions", body(map[string]any{"order_id": "0190a000-0000-7000-8000-00000000d0ff"}), "admin"), 404, "ORDER_NOT_FOUND", "not_found")
		httpxtest.AssertError(t, h.Do("POST", "/api/v1/subscriptions", body(map[string]any{"product_id": "0190a000-0000-7000-8000-00000000e0ff"}), "admin"), 404, "PRODUCT_NOT_FOUND", "not_found")
		// A customer subscribes only themselves, from their own orders.
		if r := h.Do("POST", "/api/v1/subscriptions", body(map[string]any{"customer_id": customer2, "order_id": order2}), "customer"); r.Code != 400 || r.Fields()["customer_id"] == nil {
			t.Errorf("customer for another: %d %v", r.Code, r.Body)
		}
		if r := h.Do("POST", "/api/v1/subscriptions", body(map[string]any{"order_id": order2}), "customer"); r.Code != 400 || r.Fields()["order_id"] == nil {
			t.Errorf("customer with another's order: %d %v", r.Code, r.Body)
		}
		// Only the customer's own saved payment methods, for the customer and the merchant
		// alike, at create and at update.
		for _, who := range []string{"customer", "admin"} {
			if r := h.Do("POST", "/api/v1/subscriptions", body(map[string]any{"payment_method_id": "pm_other_card"}), who); r.Code != 400 || r.Fields()["payment_method_id"] == nil {
				t.Errorf("%s with someone else's payment method: %d %v", who, r.Code, r.Body)
			}
		}
		own := h.create("customer", map[string]any{"trial_days": 7})
		if r := h.Do("PATCH", "/api/v1/subscriptions/"+own["id"].(string), map[string]any{"payment_method_id": "pm_other_card"}, "customer"); r.Code != 400 || r.Fields()["payment_method_id"] == nil {
			t.Errorf("update to someone else's payment method: %d %v", r.Code, r.Body)
		}
		httpxtest.AssertError(t, h.Do("POST", "/api/v1/subscriptions", body(nil), "other"), 403, 403, "auth")
		httpxtest.AssertError(t, h.Do("POST", "/api/v1/subscriptions", body(nil), "reader"), 403, 403, "auth")
		httpxtest.AssertError(t, h.Do("GET", "/api/v1/subscriptions", nil), 401, 401, "auth")
	})
}

func TestTrialConvertsToActive(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		s := h.create("customer", map[string]any{"trial_days": 14, "setup_fee": "5.00", "notes": "gift"})
		id := s["id"].(string)
		trialEnd := t0.AddDate(0, 0, 14).Format(time.RFC3339)
		if s["status"] != "trialing" || s["trial_ends_at"] != trialEnd || s["next_billing_at"] != trialEnd || httpxtest.Num(s["current_cycle"]) != 0 {
			t.Fatalf("trial %v", s)
		}
		if s["setup_fee"] != "5.00" || s["amount"] != "19.99" || s["variant_id"] != nil || s["max_cycles"] != nil || s["cancellation_reason"] != nil {
			t.Errorf("fields %v", s)
		}
		h.advance(13 * 24 * time.Hour)
		if n := len(h.invoices(id)); n != 0 {
			t.Fatalf("billed during the trial: %d invoices", n)
		}
		h.advance(24 * time.Hour)
		s = h.get(id)
		if s["status"] != "active" || httpxtest.Num(s["current_cycle"]) != 1 || s["last_billing_at"] != trialEnd ||
			s["next_billing_at"] != t0.AddDate(0, 0, 14).AddDate(0, 1, 0).Format(time.RFC3339) {
			t.Fatalf("after the trial %v", s)
		}
		invs := h.invoices(id)
		if len(invs) != 1 || invs[0]["status"] != "paid" || invs[0]["total"] != "24.99" || invs[0]["subtotal"] != "24.99" ||
			invs[0]["tax_total"] != "0.00" || invs[0]["period_start"] != trialEnd || invs[0]["payment_id"] == nil || invs[0]["order_id"] == nil {
			t.Fatalf("invoice %v", invs)
		}
		if h.orders.count() != 1 {
			t.Errorf("orders %d", h.orders.count())
		}
		types := strings.Join(h.EventTypes(id), ",")
		if types != "subscription.created,subscription.renewed" {
			t.Errorf("subscription events %s", types)
		}
		if n := len(h.Payloads("invoice.paid", invs[0]["id"].(string))); n != 1 {
			t.Errorf("invoice.paid events %d", n)
		}
	})
}

func TestRenewalPaysEachCycle(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		// No trial: active, first cycle (with the setup fee) billed at once.
		s := h.create("admin", map[string]any{"setup_fee": "10.00"})
		id := s["id"].(string)
		if s["status"] != "active" || httpxtest.Num(s["current_cycle"]) != 1 || s["next_billing_at"] != "2026-02-28T09:00:00Z" {
			t.Fatalf("created %v", s)
		}
		// 31 January, monthly: 28 February, 31 March (the anchor's day), 30 April.
		for i, due := range []string{"2026-03-31T09:00:00Z", "2026-04-30T09:00:00Z"} {
			next, _ := time.Parse(time.RFC3339, h.get(id)["next_billing_at"].(string))
			h.advance(next.Sub(h.clock.Now()))
			s = h.get(id)
			if httpxtest.Num(s["current_cycle"]) != i+2 || s["next_billing_at"] != due || s["status"] != "active" {
				t.Fatalf("cycle %d: %v", i+2, s)
			}
		}
		invs := h.invoices(id)
		if len(invs) != 3 || invs[0]["total"] != "19.99" || invs[2]["total"] != "29.99" || httpxtest.Num(invs[0]["cycle_number"]) != 3 {
			t.Fatalf("invoices %v", invs)
		}
		for _, inv := range invs {
			if inv["status"] != "paid" || h.payments.chargesOf(inv["id"].(string)) != 1 {
				t.Errorf("invoice %v charged %d times", inv, h.payments.chargesOf(inv["id"].(string)))
			}
		}
		// The sweep again: nothing is due.
		h.bill()
		if h.payments.total != 3 || h.orders.count() != 3 {
			t.Errorf("charges %d, orders %d", h.payments.total, h.orders.count())
		}
	})
}

func TestPauseAndResume(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		id := h.create("customer", nil)["id"].(string)
		r := h.Must(200, "POST", "/api/v1/subscriptions/"+id+"/pause", nil, "customer")
		if r.Body["success"] != true || r.Body["subscription"].(map[string]any)["status"] != "paused" {
			t.Fatalf("pause %v", r.Body)
		}
		httpxtest.AssertError(t, h.Do("POST", "/api/v1/subscriptions/"+id+"/pause", nil, "customer"), 400, "INVALID_STATE_TRANSITION", "validation")
		h.advance(40 * 24 * time.Hour) // past the due date: nothing is billed while paused
		if n := len(h.invoices(id)); n != 1 {
			t.Fatalf("billed while paused: %d invoices", n)
		}
		r = h.Must(200, "POST", "/api/v1/subscriptions/"+id+"/resume", nil, "customer")
		sub := r.Body["subscription"].(map[string]any)
		if sub["status"] != "active" || sub["next_billing_at"] != h.clock.Now().Format(time.RFC3339) {
			t.Fatalf("resume %v", r.Body)
		}
		httpxtest.AssertError(t, h.Do("POST", "/api/v1/subscriptions/"+id+"/resume", nil, "customer"), 400, "INVALID_STATE_TRANSITION", "validation")
		h.bill()
		s := h.get(id)
		if httpxtest.Num(s["current_cycle"]) != 2 || s["next_billing_at"] != h.clock.Now().AddDate(0, 1, 0).Format(time.RFC3339) {
			t.Fatalf("after resume %v", s)
		}
		types := strings.Join(h.EventTypes(id), ",")
		if types != "subscription.created,subscription.renewed,subscription.paused,subscription.resumed,subscription.renewed" {
			t.Errorf("events %s", types)
		}
	})
}

func TestCancelAtPeriodEndRespectsMinCycles(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		id := h.create("customer", map[string]any{"min_cycles": 2})["id"].(string)
		r := h.Do("POST", "/api/v1/subscriptions/"+id+"/cancel", map[string]any{"reason": "too_expensive"}, "customer")
		httpxtest.AssertError(t, r, 400, "MIN_CYCLES_NOT_MET", "validation")
		if r := h.Do("POST", "/api/v1/subscriptions/"+id+"/cancel", map[string]any{"reason": "bored"}, "customer"); r.Code != 400 || r.Fields()["reason"] == nil {
			t.Errorf("bad reason %d %v", r.Code, r.Body)
		}
		h.advance(28 * 24 * time.Hour) // cycle 2 paid
		r = h.Must(200, "POST", "/api/v1/subscriptions/"+id+"/cancel", map[string]any{"reason": "too_expensive", "reason_details": "x", "cancel_at_end": true}, "customer")
		sub := r.Body["subscription"].(map[string]any)
		if sub["status"] != "active" || sub["cancelled_at"] != nil || sub["cancellation_reason"] != "too_expensive" || r.Body["success"] != true {
			t.Fatalf("cancel at end %v", r.Body)
		}
		end := h.get(id)["ends_at"]
		if end != "2026-03-31T09:00:00Z" {
			t.Fatalf("ends_at %v", end)
		}
		h.advance(31 * 24 * time.Hour)
		s := h.get(id)
		if s["status"] != "cancelled" || s["cancelled_at"] != end || s["next_billing_at"] != nil || len(h.invoices(id)) != 2 {
			t.Fatalf("at period end %v (%d invoices)", s, len(h.invoices(id)))
		}
		httpxtest.AssertError(t, h.Do("POST", "/api/v1/subscriptions/"+id+"/cancel", nil, "customer"), 409, "SUBSCRIPTION_ALREADY_CANCELLED", "conflict")
		httpxtest.AssertError(t, h.Do("PATCH", "/api/v1/subscriptions/"+id, map[string]any{"interval": "weekly"}, "customer"), 400, "SUBSCRIPTION_ENDED", "validation")
		if n := len(h.Payloads("subscription.cancelled", id)); n != 1 {
			t.Errorf("subscription.cancelled %d", n)
		}
		// An admin cancels at once, before min_cycles.
		id2 := h.create("admin", map[string]any{"min_cycles": 5})["id"].(string)
		r = h.Must(200, "POST", "/api/v1/subscriptions/"+id2+"/cancel", map[string]any{"reason": "fraudulent"}, "admin")
		if sub := r.Body["subscription"].(map[string]any); sub["status"] != "cancelled" || sub["cancelled_at"] == nil {
			t.Errorf("admin cancel %v", r.Body)
		}
	})
}

func TestMaxCyclesExpire(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		id := h.create("admin", map[string]any{"interval": "weekly", "interval_count": 2, "max_cycles": 2})["id"].(string)
		h.advance(14 * 24 * time.Hour)
		s := h.get(id)
		if httpxtest.Num(s["current_cycle"]) != 2 || s["status"] != "active" || s["ends_at"] != t0.AddDate(0, 0, 28).Format(time.RFC3339) {
			t.Fatalf("last cycle %v", s)
		}
		h.advance(14 * 24 * time.Hour)
		s = h.get(id)
		if s["status"] != "expired" || s["next_billing_at"] != nil || len(h.invoices(id)) != 2 || s["cancelled_at"] != nil {
			t.Fatalf("expired %v", s)
		}
		if len(h.Payloads("subscription.expired", id)) != 1 {
			t.Error("no subscription.expired")
		}
	})
}

func TestCustomersSeeOnlyTheirOwn(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		mine := h.create("customer", map[string]any{"trial_days": 7})["id"].(string)
		theirs := h.create("admin", map[string]any{"customer_id": customer2, "order_id": order2, "trial_days": 7})["id"].(string)
		httpxtest.AssertError(t, h.Do("GET", "/api/v1/subscriptions/"+theirs, nil, "customer"), 404, "SUBSCRIPTION_NOT_FOUND", "not_found")
		httpxtest.AssertError(t, h.Do("POST", "/api/v1/subscriptions/"+theirs+"/pause", nil, "customer"), 404, "SUBSCRIPTION_NOT_FOUND", "not_found")
		httpxtest.AssertError(t, h.Do("GET", "/api/v1/subscriptions/"+theirs+"/invoices", nil, "customer"), 404, "SUBSCRIPTION_NOT_FOUND", "not_found")
		r := h.Must(200, "GET", "/api/v1/subscriptions", nil, "customer")
		list := httpxtest.Objects(r.Body["subscriptions"])
		if len(list) != 1 || list[0]["id"] != mine {
			t.Fatalf("customer list %v", r.Body)
		}
		if p := r.Body["pagination"].(map[string]any); httpxtest.Num(p["total"]) != 1 || httpxtest.Num(p["page"]) != 1 || httpxtest.Num(p["per_page"]) != 20 || httpxtest.Num(p["total_pages"]) != 1 {
			t.Errorf("pagination %v", p)
		}
		r = h.Must(200, "GET", "/api/v1/subscriptions?per_page=1&status=trialing", nil, "admin")
		if len(httpxtest.Objects(r.Body["subscriptions"])) != 1 || httpxtest.Num(r.Body["pagination"].(map[string]any)["total_pages"]) != 2 {
			t.Errorf("admin list %v", r.Body)
		}
		r = h.Must(200, "GET", "/api/v1/subscriptions?customer_id="+customer2, nil, "reader")
		if list := httpxtest.Objects(r.Body["subscriptions"]); len(list) != 1 || list[0]["id"] != theirs {
			t.Errorf("filtered list %v", r.Body)
		}
		if r := h.Do("GET", "/api/v1/subscriptions?status=nope", nil, "admin"); r.Code != 400 {
			t.Errorf("bad status %d", r.Code)
		}
		httpxtest.AssertError(t, h.Do("GET", "/api/v1/subscriptions/0190a000-0000-7000-8000-0000000000ff", nil, "admin"), 404, "SUBSCRIPTION_NOT_FOUND", "not_found")
	})
}

func TestUpdate(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		id := h.create("customer", map[string]any{"trial_days": 10})["id"].(string)
		r := h.Do("PATCH", "/api/v1/subscriptions/"+id, map[string]any{"amount": "1.00", "notes": "x"}, "customer")
		if r.Code != 400 || r.Fields()["amount"] == nil || r.Fields()["notes"] == nil {
			t.Fatalf("customer price change %d %v", r.Code, r.Body)
		}
		r = h.Must(200, "PATCH", "/api/v1/subscriptions/"+id, map[string]any{"interval": "weekly", "payment_method_id": cardInsufficient}, "customer")
		s := r.Body["subscription"].(map[string]any)
		if r.Body["success"] != true || s["interval"] != "weekly" || s["payment_method_id"] != cardInsufficient || s["next_billing_at"] != t0.AddDate(0, 0, 10).Format(time.RFC3339) {
			t.Fatalf("update %v", r.Body)
		}
		next := t0.AddDate(0, 0, 3).Format(time.RFC3339)
		r = h.Must(200, "PUT", "/api/v1/subscriptions/"+id, map[string]any{"amount": "25.00", "next_billing_at": next, "max_cycles": 6,
			"notes": "vip", "payment_method_id": cardOK}, "admin")
		s = r.Body["subscription"].(map[string]any)
		if s["amount"] != "25.00" || s["next_billing_at"] != next || httpxtest.Num(s["max_cycles"]) != 6 || s["notes"] != "vip" {
			t.Fatalf("admin update %v", s)
		}
		for _, bad := range []map[string]any{{"interval_count": 13}, {"next_billing_at": "2020-01-01T00:00:00Z"}, {"currency": "EUR"},
			{"amount": "-3"}, {"payment_method_id": ""}, {"interval": nil}} {
			if r := h.Do("PATCH", "/api/v1/subscriptions/"+id, bad, "admin"); r.Code != 400 {
				t.Errorf("%v: %d", bad, r.Code)
			}
		}
		h.advance(3 * 24 * time.Hour)
		invs := h.invoices(id)
		if len(invs) != 1 || invs[0]["total"] != "25.00" || invs[0]["period_end"] != t0.AddDate(0, 0, 10).Format(time.RFC3339) {
			t.Fatalf("invoice after update %v", invs)
		}
	})
}
