package domain_test

import (
	"testing"
	"time"

	"github.com/gocommerce/commerce/modules/subscriptions/domain"
)

func TestAddIntervalKeepsTheAnchorDay(t *testing.T) {
	t.Parallel()
	jan31 := time.Date(2026, 1, 31, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		interval string
		n        int
		want     string
	}{
		{"daily", 1, "2026-02-01"}, {"weekly", 2, "2026-02-14"}, {"bi_weekly", 1, "2026-02-14"},
		{"monthly", 1, "2026-02-28"}, {"monthly", 2, "2026-03-31"}, {"monthly", 3, "2026-04-30"}, {"monthly", 13, "2027-02-28"},
		{"quarterly", 1, "2026-04-30"}, {"bi_annually", 1, "2026-07-31"}, {"annually", 1, "2027-01-31"},
	} {
		if got := domain.AddInterval(jan31, tc.interval, tc.n).Format("2006-01-02"); got != tc.want {
			t.Errorf("%s x%d: %s, want %s", tc.interval, tc.n, got, tc.want)
		}
	}
	leap := time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC)
	if got := domain.AddInterval(leap, "annually", 1).Format("2006-01-02"); got != "2025-02-28" {
		t.Errorf("leap day: %s", got)
	}
}

func TestDunningPlan(t *testing.T) {
	t.Parallel()
	d := domain.Dunning{Schedule: []time.Duration{24 * time.Hour, 72 * time.Hour, 168 * time.Hour}, MaxRetries: 3, Grace: 168 * time.Hour}
	t0 := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	inv := &domain.Invoice{}
	grace := d.GraceEnd(t0)
	var emails []string
	at := t0
	for i, wantRetry := range []time.Duration{24 * time.Hour, 72 * time.Hour, 168 * time.Hour, -1} {
		out := d.Failed(inv, "card_declined", "", &grace, at)
		emails = append(emails, out.Email)
		if wantRetry < 0 {
			if out.NextRetryAt != nil || !out.FailOut {
				t.Fatalf("after the last retry: %+v", out)
			}
			break
		}
		if out.NextRetryAt == nil || !out.NextRetryAt.Equal(t0.Add(wantRetry)) || out.FailOut {
			t.Fatalf("failure %d: %+v", i+1, out)
		}
		at = *out.NextRetryAt
	}
	if inv.FailedAttempts != 4 || inv.RetryCount != 3 || !inv.FirstFailedAt.Equal(t0) {
		t.Errorf("invoice %+v", inv)
	}
	if got := emails; got[0] != "first" || got[1] != "retry" || got[2] != "final" || got[3] != "" {
		t.Errorf("emails %v", got)
	}
	// Within an extended grace the last failure does not cancel.
	later := grace.Add(48 * time.Hour)
	inv = &domain.Invoice{FailedAttempts: 3, FirstFailedAt: &t0}
	if out := d.Failed(inv, "x", "", &later, grace); out.FailOut {
		t.Error("failed out within the grace")
	}
	inv.Pay("pay_1", later)
	if inv.RecoveredAttempt != 5 || inv.Status != domain.InvoicePaid {
		t.Errorf("paid %+v", inv)
	}
}
