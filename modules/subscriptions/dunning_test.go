package subscriptions_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	payments "github.com/gocommerce/commerce/modules/payments/api"
	"github.com/gocommerce/commerce/modules/subscriptions/domain"
	"github.com/gocommerce/commerce/modules/subscriptions/ports"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/ids"
)

const day = 24 * time.Hour

func TestRenewalFailsTwiceThenRecovers(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		// The first cycle is paid; the card is then replaced by one that is declined.
		id := h.create("customer", nil)["id"].(string)
		h.Must(200, "PATCH", "/api/v1/subscriptions/"+id, map[string]any{"payment_method_id": cardDeclined}, "customer")
		due := t0.AddDate(0, 0, 28) // 28 February
		h.advance(due.Sub(h.clock.Now()))
		s := h.get(id)
		if s["status"] != "past_due" || httpxtest.Num(s["current_cycle"]) != 1 {
			t.Fatalf("after the failed renewal %v", s)
		}
		inv := h.invoices(id)[0]
		if inv["status"] != "failed" || httpxtest.Num(inv["failed_attempts"]) != 1 || inv["failure_reason"] != "card_declined" ||
			inv["next_retry_at"] != due.Add(day).Format(time.RFC3339) || httpxtest.Num(inv["retry_count"]) != 0 || inv["last_failed_at"] != due.Format(time.RFC3339) {
			t.Fatalf("failed invoice %v", inv)
		}
		if len(h.queue.tasks) != 1 || !strings.Contains(h.queue.tasks[0], "subscriptions:retry_invoice") {
			t.Errorf("retry task %v", h.queue.tasks)
		}
		// Admin list: in dunning.
		r := h.Must(200, "GET", "/api/v1/admin/dunning/failed-payments?status=in_dunning", nil, "admin")
		rows := r.List()
		if len(rows) != 1 || rows[0]["subscription_id"] != id || rows[0]["product_name"] != "Coffee Club" || rows[0]["amount"] != "19.99" ||
			httpxtest.Num(rows[0]["failed_attempts"]) != 1 || httpxtest.Num(rows[0]["max_attempts"]) != 4 || rows[0]["status"] != "in_dunning" ||
			rows[0]["customer"].(map[string]any)["email"] != "ada@example.com" || rows[0]["first_failed_at"] != due.Format(time.RFC3339) {
			t.Fatalf("failed payments %v", r.Body)
		}
		if m := r.Body["meta"].(map[string]any); httpxtest.Num(m["total"]) != 1 || httpxtest.Num(m["per_page"]) != 20 {
			t.Errorf("meta %v", m)
		}
		if rows := h.Must(200, "GET", "/api/v1/admin/dunning/failed-payments?status=past_due", nil, "admin").List(); len(rows) != 0 {
			t.Errorf("past_due rows %v", rows)
		}
		// Retry 1 (day 1) fails: its queued task runs it (the sweep would too).
		h.clock.Advance(day)
		if err := h.svc.RetryInvoice(context.Background(), inv["id"].(string)); err != nil {
			t.Fatal(err)
		}
		if err := h.svc.RetryInvoice(context.Background(), inv["id"].(string)); err != nil { // not due again: nothing
			t.Fatal(err)
		}
		h.bill()
		inv = h.invoices(id)[0]
		if httpxtest.Num(inv["failed_attempts"]) != 2 || inv["next_retry_at"] != due.Add(3*day).Format(time.RFC3339) || httpxtest.Num(inv["retry_count"]) != 1 {
			t.Fatalf("after retry 1 %v", inv)
		}
		// The customer fixes the card; retry 2 (day 3) pays.
		h.Must(200, "PATCH", "/api/v1/subscriptions/"+id, map[string]any{"payment_method_id": cardOK}, "customer")
		h.advance(day) // day 2: not due yet
		if h.invoices(id)[0]["status"] != "failed" {
			t.Fatal("retried before its date")
		}
		h.advance(day)
		s, inv = h.get(id), h.invoices(id)[0]
		if s["status"] != "active" || httpxtest.Num(s["current_cycle"]) != 2 || s["next_billing_at"] != "2026-03-31T09:00:00Z" {
			t.Fatalf("recovered %v", s)
		}
		if inv["status"] != "paid" || inv["next_retry_at"] != nil || inv["order_id"] == nil || h.payments.chargesOf(inv["id"].(string)) != 3 {
			t.Fatalf("paid invoice %v", inv)
		}
		if got := strings.Join(h.mail.templates(), ","); got != "dunning_first_html,dunning_retry_html" {
			t.Errorf("emails %s", got)
		}
		for _, ev := range []string{"subscription.past_due", "subscription.recovered"} {
			if len(h.Payloads(ev, id)) != 1 {
				t.Errorf("%s events %d", ev, len(h.Payloads(ev, id)))
			}
		}
		if n := len(h.Payloads("invoice.payment_failed", inv["id"].(string))); n != 2 {
			t.Errorf("invoice.payment_failed %d", n)
		}
		// History and metrics.
		hist := h.Must(200, "GET", "/api/v1/admin/dunning/subscriptions/"+id+"/history", nil, "admin").Data()
		atts := httpxtest.Objects(hist["retry_attempts"])
		if hist["status"] != "active" || len(atts) != 3 || atts[0]["succeeded"] != false || atts[0]["error_code"] != "card_declined" ||
			atts[2]["succeeded"] != true || httpxtest.Num(atts[2]["attempt_number"]) != 3 || atts[2]["payment_id"] == nil {
			t.Fatalf("history %v", hist)
		}
		emails := httpxtest.Objects(hist["emails_sent"])
		if len(emails) != 2 || emails[0]["type"] != "first" || emails[1]["type"] != "retry" || emails[0]["opened_at"] != nil {
			t.Errorf("emails %v", emails)
		}
		m := h.Must(200, "GET", "/api/v1/admin/dunning/metrics?period=7d", nil, "admin").Data()
		if httpxtest.Num(m["total_failures"]) != 1 || httpxtest.Num(m["total_recoveries"]) != 1 || m["recovery_rate"] != float64(100) ||
			m["recovered_revenue"] != "19.99" || m["lost_revenue"] != "0.00" || m["average_recovery_time_hours"] != float64(72) || m["period"] != "7d" {
			t.Fatalf("metrics %v", m)
		}
		by := httpxtest.Objects(m["recovery_by_attempt"])
		if len(by) != 3 || httpxtest.Num(by[1]["attempt"]) != 3 || httpxtest.Num(by[1]["recoveries"]) != 1 || by[1]["rate"] != float64(100) || httpxtest.Num(by[0]["recoveries"]) != 0 {
			t.Errorf("recovery_by_attempt %v", by)
		}
		if m := h.Must(200, "GET", "/api/v1/admin/dunning/metrics", nil, "admin").Data(); m["period"] != "30d" {
			t.Errorf("default period %v", m)
		}
		httpxtest.AssertError(t, h.Do("GET", "/api/v1/admin/dunning/metrics?period=2d", nil, "admin"), 400, "INVALID_PERIOD", "validation")
		httpxtest.AssertError(t, h.Do("GET", "/api/v1/admin/dunning/metrics", nil, "writer"), 403, 403, "auth")
		httpxtest.AssertError(t, h.Do("GET", "/api/v1/admin/dunning/failed-payments", nil, "customer"), 403, 403, "auth")
	})
}

func TestRenewalFailsOut(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		id := h.create("customer", map[string]any{"trial_days": 7, "payment_method_id": cardInsufficient})["id"].(string)
		h.advance(7 * day) // the trial's end: the first charge fails
		invID := h.invoices(id)[0]["id"].(string)
		for _, d := range []int{1, 2, 4} { // retries at days 1, 3 and 7
			if h.get(id)["status"] != "past_due" {
				t.Fatalf("not past_due before the retry at +%d", d)
			}
			h.advance(time.Duration(d) * day)
		}
		s := h.get(id)
		if s["status"] != "cancelled" || s["cancellation_reason"] != "payment_failed" || s["cancelled_at"] == nil || s["next_billing_at"] != nil {
			t.Fatalf("failed out %v", s)
		}
		inv := h.invoices(id)[0]
		if inv["status"] != "cancelled" || httpxtest.Num(inv["failed_attempts"]) != 4 || h.payments.chargesOf(invID) != 4 {
			t.Fatalf("invoice %v charged %d", inv, h.payments.chargesOf(invID))
		}
		if got := strings.Join(h.mail.templates(), ","); got != "dunning_first_html,dunning_retry_html,dunning_final_html" {
			t.Errorf("emails %s", got)
		}
		h.advance(30 * day)
		if h.payments.chargesOf(invID) != 4 || len(h.invoices(id)) != 1 {
			t.Error("billed after cancellation")
		}
		m := h.Must(200, "GET", "/api/v1/admin/dunning/metrics?period=90d", nil, "admin").Data()
		if httpxtest.Num(m["total_failures"]) != 1 || httpxtest.Num(m["total_recoveries"]) != 0 || m["lost_revenue"] != "19.99" || m["recovery_rate"] != float64(0) {
			t.Errorf("metrics %v", m)
		}
		httpxtest.AssertError(t, h.Do("POST", "/api/v1/admin/dunning/subscriptions/"+id+"/retry", nil, "admin"), 400, "SUBSCRIPTION_NOT_PAST_DUE", "validation")
	})
}

func TestGraceExtensionAndManualRetry(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		id := h.create("admin", map[string]any{"payment_method_id": cardDeclined})["id"].(string)
		if s := h.get(id); s["status"] != "past_due" || httpxtest.Num(s["current_cycle"]) != 0 {
			t.Fatalf("declined first cycle %v", s)
		}
		// Extend the grace (7 days from the first failure) by 5 days.
		r := h.Do("POST", "/api/v1/admin/dunning/subscriptions/"+id+"/extend-grace", map[string]any{}, "admin")
		if r.Code != 400 {
			t.Errorf("no days: %d", r.Code)
		}
		r = h.Must(200, "POST", "/api/v1/admin/dunning/subscriptions/"+id+"/extend-grace", map[string]any{"days": 5}, "admin")
		if r.Body["success"] != true || r.Body["new_grace_period_end"] != t0.AddDate(0, 0, 12).Format(time.RFC3339) {
			t.Fatalf("extend %v", r.Body)
		}
		h.retryAll() // the last retry fails at day 7: grace runs to day 12
		if s := h.get(id); s["status"] != "past_due" {
			t.Fatalf("cancelled within the extended grace %v", s)
		}
		if rows := h.Must(200, "GET", "/api/v1/admin/dunning/failed-payments?status=past_due", nil, "admin").List(); len(rows) != 1 || rows[0]["next_retry_at"] != nil {
			t.Fatalf("past_due list %v", rows)
		}
		// A manual retry with the declined card fails; with a good card it recovers.
		r = h.Must(200, "POST", "/api/v1/admin/dunning/subscriptions/"+id+"/retry", nil, "admin")
		if r.Body["success"] != false || r.Body["status"] != "failed" || r.Body["payment_id"] == "" {
			t.Fatalf("manual retry %v", r.Body)
		}
		h.Must(200, "PATCH", "/api/v1/subscriptions/"+id, map[string]any{"payment_method_id": cardOK}, "admin")
		r = h.Must(200, "POST", "/api/v1/admin/dunning/subscriptions/"+id+"/retry", nil, "admin")
		if r.Body["success"] != true || r.Body["status"] != "succeeded" {
			t.Fatalf("manual retry %v", r.Body)
		}
		s := h.get(id)
		if s["status"] != "active" || httpxtest.Num(s["current_cycle"]) != 1 {
			t.Fatalf("recovered %v", s)
		}
		m := h.Must(200, "GET", "/api/v1/admin/dunning/metrics", nil, "admin").Data()
		if by := httpxtest.Objects(m["recovery_by_attempt"]); len(by) != 4 || httpxtest.Num(by[3]["attempt"]) != 6 {
			t.Errorf("manual recovery attempt %v", by)
		}
		httpxtest.AssertError(t, h.Do("POST", "/api/v1/admin/dunning/subscriptions/"+id+"/extend-grace", map[string]any{"days": 3}, "admin"), 400, "SUBSCRIPTION_NOT_PAST_DUE", "validation")
		httpxtest.AssertError(t, h.Do("GET", "/api/v1/admin/dunning/subscriptions/0190a000-0000-7000-8000-0000000000ff/history", nil, "admin"), 404, "SUBSCRIPTION_NOT_FOUND", "not_found")

		// Without the extension, the grace ends with the last retry: cancelled then.
		id2 := h.create("admin", map[string]any{"payment_method_id": cardDeclined})["id"].(string)
		h.retryAll()
		if s := h.get(id2); s["status"] != "cancelled" {
			t.Fatalf("not failed out %v", s)
		}
		// The extended one is cancelled when its grace ends... it recovered, so it stays.
		h.advance(10 * day)
		if s := h.get(id); s["status"] != "active" {
			t.Errorf("recovered subscription %v", s)
		}
	})
}

func TestGraceEndsAfterExhaustedRetries(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		id := h.create("admin", map[string]any{"payment_method_id": cardDeclined})["id"].(string)
		h.Must(200, "POST", "/api/v1/admin/dunning/subscriptions/"+id+"/extend-grace", map[string]any{"days": 2}, "admin")
		h.retryAll()
		if s := h.get(id); s["status"] != "past_due" {
			t.Fatalf("before the grace end %v", s)
		}
		h.advance(2 * day)
		if s := h.get(id); s["status"] != "cancelled" || s["cancellation_reason"] != "payment_failed" {
			t.Fatalf("after the grace end %v", s)
		}
		if inv := h.invoices(id)[0]; inv["status"] != "cancelled" {
			t.Errorf("invoice %v", inv)
		}
	})
}

// Two workers run the sweep at once over the same due set: each cycle is charged
// exactly once, one invoice and one order per cycle.
func TestConcurrentSweepsChargeEachCycleOnce(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		var ids []string
		for range 12 {
			ids = append(ids, h.create("admin", map[string]any{"trial_days": 1, "interval": "daily"})["id"].(string))
		}
		// A second process on the same database, clock and payments.
		other := h.process(t)
		for cycle := 1; cycle <= 3; cycle++ {
			h.clock.Advance(day)
			var wg sync.WaitGroup
			errs := make(chan error, 8)
			for i := range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					svc := h.svc
					if i%2 == 1 {
						svc = other.svc
					}
					if _, err := svc.BillDue(context.Background()); err != nil {
						errs <- err
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Errorf("cycle %d: %v", cycle, err)
			}
		}
		for _, id := range ids {
			invs := h.invoices(id)
			if len(invs) != 3 {
				t.Fatalf("%s: %d invoices", id, len(invs))
			}
			for _, inv := range invs {
				if inv["status"] != "paid" || h.payments.chargesOf(inv["id"].(string)) != 1 {
					t.Errorf("invoice %v charged %d times", inv["id"], h.payments.chargesOf(inv["id"].(string)))
				}
			}
		}
		if h.payments.total != 36 || h.orders.count() != 36 {
			t.Errorf("charges %d, orders %d, want 36", h.payments.total, h.orders.count())
		}
	})
}

// A worker dies after the gateway charged but before the outcome was written: the
// invoice stays billed under its claim; once the claim lapses the sweep resumes it
// with the same idempotency key, so the customer is charged once.
func TestCrashMidBillingChargesOnce(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		id := h.create("admin", map[string]any{"trial_days": 3})["id"].(string)
		h.payments.failNext = func(ports.ChargeRequest) error { return errors.New("connection reset by peer") }
		h.clock.Advance(3 * day)
		if _, err := h.svc.BillDue(context.Background()); err == nil {
			t.Fatal("the crash was not reported")
		}
		inv := h.invoices(id)[0]
		if inv["status"] != "billed" || h.payments.chargesOf(inv["id"].(string)) != 1 {
			t.Fatalf("after the crash %v", inv)
		}
		h.advance(time.Minute) // the claim holds: nobody charges
		if h.payments.total != 1 || h.invoices(id)[0]["status"] != "billed" {
			t.Fatal("charged again within the claim")
		}
		h.advance(h.settings.ClaimLease)
		inv = h.invoices(id)[0]
		if inv["status"] != "paid" || h.payments.chargesOf(inv["id"].(string)) != 1 || h.payments.total != 1 || h.orders.count() != 1 {
			t.Fatalf("resumed %v, charges %d", inv, h.payments.total)
		}
		if s := h.get(id); s["status"] != "active" || httpxtest.Num(s["current_cycle"]) != 1 {
			t.Errorf("subscription %v", s)
		}
	})
}

// retryAll runs the three scheduled retries (days 1, 3 and 7 after the failure now).
func (h *harness) retryAll() {
	h.t.Helper()
	for _, d := range []int{1, 2, 4} {
		h.advance(time.Duration(d) * day)
	}
}

// A provider's invoice events, recorded by payments as payment.succeeded /
// payment.failed with subscription details, move the matching invoice.
func TestProviderInvoiceEvents(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		id := h.create("admin", map[string]any{"payment_method_id": cardDeclined})["id"].(string)
		inv := h.invoices(id)[0]
		invID := inv["id"].(string)
		send := func(typ string, p payments.PaymentEvent) {
			t.Helper()
			data, _ := json.Marshal(p)
			if err := h.sub.Handle(context.Background(), event.Event{ID: "evt_1", Type: typ, Data: data}); err != nil {
				t.Fatal(err)
			}
		}
		// A payment event without subscription details is not for the module.
		send(payments.EventPaymentSucceeded, payments.PaymentEvent{PaymentID: "pay_x", Metadata: map[string]any{"subscription_invoice_id": invID}})
		if h.invoices(id)[0]["status"] != "failed" {
			t.Fatal("moved by a plain payment event")
		}
		send(payments.EventPaymentFailed, payments.PaymentEvent{PaymentID: "pay_p1", ErrorCode: "card_declined",
			Subscription: map[string]string{"invoice_id": "in_1", "subscription_id": "sub_1", "metadata.subscription_invoice_id": invID}})
		if got := h.invoices(id)[0]; httpxtest.Num(got["failed_attempts"]) != 2 {
			t.Fatalf("provider failure %v", got)
		}
		send(payments.EventPaymentSucceeded, payments.PaymentEvent{PaymentID: "pay_p2",
			Subscription: map[string]string{"invoice_id": "in_1", "metadata.subscription_invoice_id": invID}})
		got, s := h.invoices(id)[0], h.get(id)
		if got["status"] != "paid" || got["payment_id"] != "pay_p2" || s["status"] != "active" || httpxtest.Num(s["current_cycle"]) != 1 {
			t.Fatalf("provider payment %v %v", got, s)
		}
		// Delivered again: nothing changes.
		send(payments.EventPaymentSucceeded, payments.PaymentEvent{PaymentID: "pay_p2",
			Subscription: map[string]string{"metadata.subscription_invoice_id": invID}})
		if n := len(h.Payloads("invoice.paid", invID)); n != 1 {
			t.Errorf("invoice.paid %d", n)
		}
		// An event naming no invoice of ours is ignored.
		send(payments.EventPaymentSucceeded, payments.PaymentEvent{PaymentID: "pay_zz", Subscription: map[string]string{"invoice_id": "in_9"}})
	})
}

// A worker that died after issuing an invoice and before charging it leaves it
// pending: the sweep charges it, unless the subscription stopped billing meanwhile
// (cancelled: the invoice is cancelled uncharged; paused: it waits for the resume).
func TestStrandedInvoiceFollowsTheSubscription(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		strand := func(id string) string {
			t.Helper()
			sub, err := h.repo.Get(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			inv := &domain.Invoice{ID: ids.New(), SubscriptionID: id, CustomerID: sub.CustomerID, OrderRef: ids.New(), CycleNumber: 1,
				PeriodStart: *sub.NextBillingAt, PeriodEnd: sub.DueOf(2), Subtotal: sub.Amount, TaxTotal: decimal.Zero, Total: sub.Amount,
				Currency: sub.Currency, Status: domain.InvoicePending, CreatedAt: h.clock.Now(), UpdatedAt: h.clock.Now()}
			if _, err := h.repo.CreateInvoice(context.Background(), inv); err != nil {
				t.Fatal(err)
			}
			return inv.ID
		}
		cancelled := h.create("admin", map[string]any{"trial_days": 2})["id"].(string)
		paused := h.create("admin", map[string]any{"trial_days": 2})["id"].(string)
		h.clock.Advance(2 * day)
		inv1, inv2 := strand(cancelled), strand(paused)
		h.Must(200, "POST", "/api/v1/subscriptions/"+cancelled+"/cancel", map[string]any{"reason": "other"}, "admin")
		// Pause needs an active subscription: the trialing one is paused through the store.
		sub, _ := h.repo.Get(context.Background(), paused)
		sub.Status = domain.StatusPaused
		if err := h.repo.Update(context.Background(), sub); err != nil {
			t.Fatal(err)
		}
		h.bill()
		if got := h.invoices(cancelled)[0]; got["status"] != "cancelled" || h.payments.chargesOf(inv1) != 0 {
			t.Fatalf("cancelled subscription's invoice %v", got)
		}
		if got := h.invoices(paused)[0]; got["status"] != "pending" || h.payments.chargesOf(inv2) != 0 {
			t.Fatalf("paused subscription's invoice %v", got)
		}
		h.Must(200, "POST", "/api/v1/subscriptions/"+paused+"/resume", nil, "admin")
		h.bill()
		if got := h.invoices(paused)[0]; got["status"] != "paid" || h.payments.chargesOf(inv2) != 1 {
			t.Fatalf("resumed subscription's invoice %v", got)
		}
		if s := h.get(paused); s["status"] != "active" || httpxtest.Num(s["current_cycle"]) != 1 {
			t.Errorf("resumed %v", s)
		}
	})
}
