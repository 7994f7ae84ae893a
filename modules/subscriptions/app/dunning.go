package app

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/shopspring/decimal"
	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/subscriptions/api"
	"github.com/gocommerce/commerce/modules/subscriptions/domain"
	"github.com/gocommerce/commerce/modules/subscriptions/ports"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/money"
)

// sendDunningEmail sends the dunning email of the kind (first, retry, final) to the
// subscription's customer and records it; best effort (a missing address or a failed
// send is logged, the dunning goes on).
func (s *Service) sendDunningEmail(ctx context.Context, kind string, sub *domain.Subscription, inv *domain.Invoice) {
	if s.mods.Customers == nil || s.mods.Notifier == nil {
		return
	}
	log := s.log.With(zap.String("subscription_id", sub.ID), zap.String("email", kind))
	c, err := s.mods.Customers.Customer(ctx, sub.CustomerID)
	if err != nil || c.Email == "" {
		log.Warn("dunning email not sent: no customer address", zap.Error(err))
		return
	}
	retry := ""
	if inv.NextRetryAt != nil {
		retry = inv.NextRetryAt.Format("2006-01-02")
	} else if sub.GraceEndsAt != nil {
		retry = sub.GraceEndsAt.Format("2006-01-02")
	}
	name := c.Name
	if name == "" {
		name = c.Email
	}
	vars := map[string]any{
		"customer_name": name, "plan_name": sub.ProductName, "amount": money.Format(inv.Total, inv.Currency), "currency": inv.Currency,
		"retry_date": retry, "update_payment_url": strings.TrimRight(s.settings.PublicURL, "/") + "/account/subscriptions/" + sub.ID,
		"shop_name": s.settings.ShopName,
	}
	err = s.tx.InTx(ctx, func(ctx context.Context) error {
		id, err := s.mods.Notifier.Send(ctx, ports.Message{TemplateID: "dunning_" + kind + "_html", Recipient: c.Email, CustomerID: c.ID,
			Variables: vars, Metadata: map[string]any{"subscription_id": sub.ID, "invoice_id": inv.ID, "dunning": kind}})
		if err != nil {
			return err
		}
		return s.repo.AddEmail(ctx, &domain.Email{ID: s.newID(), SubscriptionID: sub.ID, InvoiceID: inv.ID, Type: kind,
			NotificationID: id, SentAt: s.clock.Now()})
	})
	if err != nil {
		log.Warn("dunning email not sent", zap.Error(err))
	}
}

// RetryInvoice is the retry task: it charges the invoice if its retry is due (the
// claim decides; a retry not due yet, or one another worker took, does nothing).
func (s *Service) RetryInvoice(ctx context.Context, invoiceID string) error {
	_, _, err := s.charge(ctx, invoiceID, nil, false)
	return err
}

// RetryResult is the manual retry's answer.
type RetryResult struct {
	PaymentID string
	Status    string // the payment's outcome: succeeded or failed
	Paid      bool
}

// ManualRetry charges the past_due subscription's open invoice now (admin).
func (s *Service) ManualRetry(ctx context.Context, id string) (RetryResult, error) {
	sub, err := s.repo.Get(ctx, id)
	if err != nil {
		return RetryResult{}, err
	}
	if sub.Status != domain.StatusPastDue {
		return RetryResult{}, domain.ErrNotInDunning
	}
	inv, err := s.repo.OpenInvoice(ctx, id)
	if errors.Is(err, domain.ErrInvoiceNotFound) {
		return RetryResult{}, domain.ErrNotInDunning
	}
	if err != nil {
		return RetryResult{}, err
	}
	res, ok, err := s.charge(ctx, inv.ID, nil, true)
	if err != nil {
		return RetryResult{}, err
	}
	if !ok {
		return RetryResult{}, domain.ErrRetryInProgress
	}
	out := RetryResult{PaymentID: res.PaymentID, Status: "failed", Paid: res.Paid}
	if res.Paid {
		out.Status = "succeeded"
	}
	return out, nil
}

// ExtendGrace moves a past_due subscription's grace period end days on (from now when
// it already passed); it answers the new end.
func (s *Service) ExtendGrace(ctx context.Context, id string, days int) (time.Time, error) {
	if days < 1 || days > 365 {
		return time.Time{}, apperr.Validation(map[string]string{"days": "must be between 1 and 365"})
	}
	sub, err := s.mutate(ctx, Caller{Admin: true}, id, func(ctx context.Context, sub *domain.Subscription) (string, error) {
		if sub.Status != domain.StatusPastDue {
			return "", domain.ErrNotInDunning
		}
		now := s.clock.Now()
		from := now
		if sub.GraceEndsAt != nil && sub.GraceEndsAt.After(now) {
			from = *sub.GraceEndsAt
		}
		end := from.AddDate(0, 0, days)
		sub.GraceEndsAt, sub.UpdatedAt = &end, now
		return api.EventSubscriptionUpdated, nil
	})
	if err != nil {
		return time.Time{}, err
	}
	return *sub.GraceEndsAt, nil
}

// FailedPayment is a row of the failed-payments list.
type FailedPayment struct {
	Subscription domain.Subscription
	Invoice      domain.Invoice
	Customer     ports.Customer
	MaxAttempts  int
	// Status is in_dunning (a retry pending or running) or past_due (retries
	// exhausted, in grace).
	Status string
}

// FailedPayments lists the subscriptions in dunning (status past_due, in_dunning or "").
func (s *Service) FailedPayments(ctx context.Context, status string, offset, limit int) ([]FailedPayment, int64, error) {
	if status != "" && status != "past_due" && status != "in_dunning" {
		return nil, 0, apperr.Validation(map[string]string{"status": "must be one of: past_due, in_dunning"})
	}
	rows, total, err := s.repo.Failed(ctx, ports.FailedFilter{Status: status}, offset, limit)
	if err != nil {
		return nil, 0, err
	}
	out := make([]FailedPayment, len(rows))
	for i, r := range rows {
		c := ports.Customer{ID: r.Subscription.CustomerID}
		if s.mods.Customers != nil {
			if got, err := s.mods.Customers.Customer(ctx, c.ID); err == nil {
				c = got
			}
		}
		st := "past_due"
		if r.Invoice.NextRetryAt != nil || r.Invoice.Status == domain.InvoiceBilled {
			st = "in_dunning"
		}
		out[i] = FailedPayment{Subscription: r.Subscription, Invoice: r.Invoice, Customer: c, MaxAttempts: s.settings.Dunning.MaxRetries + 1, Status: st}
	}
	return out, total, nil
}

// Periods are the metrics' windows.
var Periods = map[string]time.Duration{"7d": 7 * 24 * time.Hour, "30d": 30 * 24 * time.Hour, "90d": 90 * 24 * time.Hour, "1y": 365 * 24 * time.Hour}

// AttemptRecoveries is one row of recovery_by_attempt.
type AttemptRecoveries struct {
	Attempt    int
	Recoveries int
	Rate       float64
}

// Metrics are the dunning figures of a period.
type Metrics struct {
	Period                   string
	TotalFailures            int
	TotalRecoveries          int
	RecoveryRate             float64
	RecoveredRevenue         decimal.Decimal
	LostRevenue              decimal.Decimal
	RecoveryByAttempt        []AttemptRecoveries
	AverageRecoveryTimeHours float64
}

func percent(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return math.Round(float64(n)*10000/float64(of)) / 100
}

// DunningMetrics computes the figures of the invoices whose dunning started in the
// period (default 30d): recoveries, the revenue recovered and lost, recoveries by the
// charge attempt that recovered (2 is the first retry) and the mean time from the first
// failure to the payment.
func (s *Service) DunningMetrics(ctx context.Context, period string) (Metrics, error) {
	if period == "" {
		period = "30d"
	}
	window, ok := Periods[period]
	if !ok {
		return Metrics{}, domain.ErrInvalidPeriod
	}
	invs, err := s.repo.DunningSince(ctx, s.clock.Now().Add(-window))
	if err != nil {
		return Metrics{}, err
	}
	m := Metrics{Period: period, TotalFailures: len(invs), RecoveredRevenue: decimal.Zero, LostRevenue: decimal.Zero}
	by := map[int]int{}
	var hours float64
	for _, inv := range invs {
		switch {
		case inv.Status == domain.InvoicePaid && inv.RecoveredAttempt > 0:
			m.TotalRecoveries++
			m.RecoveredRevenue = m.RecoveredRevenue.Add(inv.Total)
			by[inv.RecoveredAttempt]++
			hours += inv.PaidAt.Sub(*inv.FirstFailedAt).Hours()
		case inv.LostAt != nil:
			m.LostRevenue = m.LostRevenue.Add(inv.Total)
		}
	}
	m.RecoveryRate = percent(m.TotalRecoveries, m.TotalFailures)
	for a := 2; a <= s.settings.Dunning.MaxRetries+1; a++ {
		m.RecoveryByAttempt = append(m.RecoveryByAttempt, AttemptRecoveries{Attempt: a, Recoveries: by[a], Rate: percent(by[a], m.TotalFailures)})
	}
	for a, n := range by { // manual retries past the schedule
		if a > s.settings.Dunning.MaxRetries+1 {
			m.RecoveryByAttempt = append(m.RecoveryByAttempt, AttemptRecoveries{Attempt: a, Recoveries: n, Rate: percent(n, m.TotalFailures)})
		}
	}
	slices.SortFunc(m.RecoveryByAttempt, func(a, b AttemptRecoveries) int { return a.Attempt - b.Attempt })
	if m.TotalRecoveries > 0 {
		m.AverageRecoveryTimeHours = math.Round(hours*100/float64(m.TotalRecoveries)) / 100
	}
	return m, nil
}

// History is a subscription's dunning history.
type History struct {
	Subscription domain.Subscription
	Attempts     []domain.Attempt
	Emails       []domain.Email
}

// DunningHistory returns the charge attempts of the subscription's invoices that
// failed at least once, and the dunning emails sent.
func (s *Service) DunningHistory(ctx context.Context, id string) (History, error) {
	sub, err := s.repo.Get(ctx, id)
	if err != nil {
		return History{}, err
	}
	attempts, err := s.repo.Attempts(ctx, id)
	if err != nil {
		return History{}, err
	}
	failed := map[string]bool{}
	for _, a := range attempts {
		if !a.Succeeded {
			failed[a.InvoiceID] = true
		}
	}
	h := History{Subscription: *sub, Attempts: []domain.Attempt{}}
	for _, a := range attempts {
		if failed[a.InvoiceID] {
			h.Attempts = append(h.Attempts, a)
		}
	}
	if h.Emails, err = s.repo.Emails(ctx, id); err != nil {
		return History{}, err
	}
	return h, nil
}

// ProviderInvoice is a provider's invoice event as payments recorded it
// (payment.succeeded / payment.failed carrying subscription details).
type ProviderInvoice struct {
	PaymentID               string
	Paid                    bool
	InvoiceID               string // our invoice id, when the provider's metadata names it
	ErrorCode, ErrorMessage string
}

// ApplyProviderInvoice moves the matching invoice: paid settles it (the subscription
// renews or recovers), a failure counts as a failed charge of dunning. An event that
// matches no invoice of ours, or one already settled, is ignored.
func (s *Service) ApplyProviderInvoice(ctx context.Context, ev ProviderInvoice) error {
	var inv *domain.Invoice
	var err error
	if ev.InvoiceID != "" {
		inv, err = s.repo.GetInvoice(ctx, ev.InvoiceID)
	} else {
		inv, err = s.repo.InvoiceByPayment(ctx, ev.PaymentID)
	}
	if errors.Is(err, domain.ErrInvoiceNotFound) || (err == nil && ev.PaymentID == "" && ev.InvoiceID == "") {
		return nil
	}
	if err != nil {
		return err
	}
	attempt := &domain.Attempt{ID: s.newID(), InvoiceID: inv.ID, SubscriptionID: inv.SubscriptionID, Number: inv.FailedAttempts + 1,
		AttemptedAt: s.clock.Now(), Succeeded: ev.Paid, ErrorCode: ev.ErrorCode, ErrorMessage: ev.ErrorMessage, PaymentID: ev.PaymentID}
	if ev.Paid {
		return s.settlePaid(ctx, nil, inv.ID, ev.PaymentID, []domain.InvoiceStatus{domain.InvoicePending, domain.InvoiceBilled, domain.InvoiceFailed}, "", attempt)
	}
	return s.settleFailed(ctx, nil, inv.ID, ev.ErrorCode, ev.ErrorMessage, []domain.InvoiceStatus{domain.InvoicePending, domain.InvoiceFailed}, "", attempt)
}
