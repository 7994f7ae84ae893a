package statistics_test

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	subscriptions "github.com/gocommerce/commerce/modules/subscriptions/api"
)

func day(s string) time.Time {
	t, _ := time.Parse(time.DateOnly, s)
	return t.Add(10 * time.Hour)
}

func ptr(t time.Time) *time.Time { return &t }

// TestDashboardSubscriptions: active subscribers and MRR (active and past due, amounts
// per month) now, churn over the period, per currency, from the subscription events;
// an older event changes nothing.
func TestDashboardSubscriptions(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, h *harness) {
		subs := []subscriptions.Subscription{
			{ID: "s1", Currency: "USD", Status: "active", Interval: "monthly", IntervalCount: 1, Amount: "30.00", StartsAt: day("2026-01-10")},
			{ID: "s2", Currency: "USD", Status: "active", Interval: "annually", IntervalCount: 1, Amount: "120.00", StartsAt: day("2026-02-10")},
			{ID: "s3", Currency: "USD", Status: "past_due", Interval: "weekly", IntervalCount: 2, Amount: "12.00", StartsAt: day("2026-03-01")},
			{ID: "s4", Currency: "USD", Status: "trialing", Interval: "quarterly", IntervalCount: 1, Amount: "90.00", StartsAt: day("2026-06-10")},
			{ID: "s5", Currency: "USD", Status: "cancelled", Interval: "monthly", IntervalCount: 1, Amount: "50.00", StartsAt: day("2026-02-01"),
				CancelledAt: ptr(day("2026-06-16"))},
			{ID: "s6", Currency: "USD", Status: "expired", Interval: "monthly", IntervalCount: 1, Amount: "20.00", StartsAt: day("2025-11-01"),
				EndsAt: ptr(day("2026-05-20"))},
			{ID: "s7", Currency: "EUR", Status: "active", Interval: "daily", IntervalCount: 1, Amount: "1.00", StartsAt: day("2026-01-01")},
			{ID: "s8", Currency: "USD", Status: "paused", Interval: "monthly", IntervalCount: 1, Amount: "40.00", StartsAt: day("2026-04-01")},
		}
		for i := range subs {
			subs[i].CreatedAt = subs[i].StartsAt
			subs[i].UpdatedAt = day("2026-06-16").Add(time.Duration(i) * time.Minute)
			h.send(subscriptions.EventSubscriptionUpdated, subs[i])
		}
		// an older event of s8 (when it was active) comes late: it changes nothing
		old := subs[7]
		old.Status, old.UpdatedAt = "active", day("2026-06-01")
		h.send(subscriptions.EventSubscriptionResumed, old)

		monthly := map[string]decimal.Decimal{"daily": dec("365").Div(dec("12")), "weekly": dec("52").Div(dec("12")),
			"monthly": dec("1"), "quarterly": dec("1").Div(dec("3")), "annually": dec("1").Div(dec("12"))}
		for _, span := range [][3]string{{"last_7_days", "2026-06-11", "2026-06-17"}, {"last_30_days", "2026-05-19", "2026-06-17"},
			{"last_month", "2026-05-01", "2026-05-31"}} {
			var active, churned, atStart int
			mrr := decimal.Zero
			for _, s := range subs {
				if s.Currency != "USD" {
					continue
				}
				if s.Status == "active" || s.Status == "past_due" {
					active++
					mrr = mrr.Add(dec(s.Amount).Mul(monthly[s.Interval]).Div(decimal.NewFromInt(int64(s.IntervalCount))))
				}
				ended := ""
				if s.CancelledAt != nil {
					ended = s.CancelledAt.Format(time.DateOnly)
				} else if s.EndsAt != nil {
					ended = s.EndsAt.Format(time.DateOnly)
				}
				if ended >= span[1] && ended <= span[2] {
					churned++
				}
				if s.StartsAt.Format(time.DateOnly) < span[1] && (ended == "" || ended >= span[1]) {
					atStart++
				}
			}
			d := h.get("/dashboard?currency=USD&date_from=" + span[0] + "&date_to=" + span[0])
			got := obj(d["subscriptions"])
			if got["active_subscribers"] != float64(active) || got["mrr"] != money(mrr) ||
				!near(num(t, got["churn_rate"]), pct(float64(churned), float64(atStart))) {
				t.Errorf("%s: subscriptions %v, want %d active, mrr %s, churn %d of %d", span[0], got, active, money(mrr), churned, atStart)
			}
		}
		// by hand: 30 + 120/12 + 12 × 52/12 / 2
		if got := obj(h.get("/dashboard?currency=USD")["subscriptions"]); got["mrr"] != "66.00" || got["active_subscribers"] != float64(3) {
			t.Errorf("MRR %v, want 66.00 of 3", got)
		}
		if got := obj(h.get("/dashboard?currency=EUR")["subscriptions"]); got["mrr"] != "30.42" || got["active_subscribers"] != float64(1) {
			t.Errorf("EUR MRR %v, want 30.42 (1.00 a day) of 1", got)
		}
	})
}
