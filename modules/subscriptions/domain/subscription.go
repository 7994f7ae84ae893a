// Package domain holds the subscription and its invoices: statuses, the seven
// billing intervals and their calendar, the billing cycle, the moves of the lifecycle
// (pause, resume, cancel now or at period end, expire after max_cycles) and the dunning
// plan of a failed renewal. Plain Go.
package domain

import (
	"time"

	"github.com/shopspring/decimal"
)

// Status is a subscription status (Part 2 "Subscription").
type Status string

// Subscription statuses.
const (
	StatusPending   Status = "pending"
	StatusTrialing  Status = "trialing"
	StatusActive    Status = "active"
	StatusPastDue   Status = "past_due"
	StatusPaused    Status = "paused"
	StatusCancelled Status = "cancelled"
	StatusExpired   Status = "expired"
)

// Statuses lists every subscription status (the list filter).
var Statuses = []string{"active", "paused", "cancelled", "expired", "past_due", "trialing", "pending"}

// Ended reports a subscription that bills no more.
func (s Status) Ended() bool { return s == StatusCancelled || s == StatusExpired }

// Intervals are the billing intervals of Part 2.
var Intervals = []string{"daily", "weekly", "bi_weekly", "monthly", "quarterly", "bi_annually", "annually"}

// Cancellation reasons (Part 2 "Cancel").
const (
	ReasonCustomerRequested = "customer_requested"
	ReasonPaymentFailed     = "payment_failed"
)

// Reasons lists the cancellation reasons.
var Reasons = []string{"customer_requested", "payment_failed", "fraudulent", "too_expensive", "not_useful", "other"}

// Gateways are the payment gateway ids (CONTRACT §6).
var Gateways = []string{"test", "stripe", "paypal", "alipay", "wechat_pay"}

// Subscription is a customer's recurring purchase of a product.
type Subscription struct {
	ID, CustomerID, OrderID, ProductID, VariantID string
	ProductName                                   string
	Status                                        Status
	BillingInterval                               string
	IntervalCount                                 int
	Currency                                      string
	Amount                                        decimal.Decimal
	SetupFee                                      decimal.Decimal
	TrialDays                                     int
	TrialEndsAt                                   *time.Time
	CurrentCycle                                  int
	MinCycles                                     int
	MaxCycles                                     *int
	StartsAt                                      time.Time
	NextBillingAt                                 *time.Time
	LastBillingAt                                 *time.Time
	EndsAt                                        *time.Time
	CancelledAt                                   *time.Time
	CancellationReason                            string
	CancellationDetails                           string
	// CancelAtEnd: cancel at NextBillingAt instead of billing (cancel_at_end true).
	CancelAtEnd     bool
	PaymentMethodID string
	Gateway         string
	Notes           string
	// BillingAnchor is the date cycle AnchorCycle+1 is due; later cycles follow it on
	// the interval's calendar (no drift from short months).
	BillingAnchor time.Time
	AnchorCycle   int
	PausedAt      *time.Time
	// GraceEndsAt is when a past_due subscription whose retries are exhausted is
	// cancelled (extend-grace moves it).
	GraceEndsAt *time.Time
	CreatedAt   time.Time
	UpdatedAt   time.Time
	Version     int
}

// AddInterval returns t moved n intervals on (months keep the anchor's day, clamped to
// the month's last day).
func AddInterval(t time.Time, interval string, n int) time.Time {
	switch interval {
	case "daily":
		return t.AddDate(0, 0, n)
	case "weekly":
		return t.AddDate(0, 0, 7*n)
	case "bi_weekly":
		return t.AddDate(0, 0, 14*n)
	case "monthly":
		return addMonths(t, n)
	case "quarterly":
		return addMonths(t, 3*n)
	case "bi_annually":
		return addMonths(t, 6*n)
	default: // annually
		return addMonths(t, 12*n)
	}
}

func addMonths(t time.Time, n int) time.Time {
	y, m, d := t.Date()
	first := time.Date(y, m+time.Month(n), 1, t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), t.Location())
	last := first.AddDate(0, 1, -1).Day()
	if d > last {
		d = last
	}
	return first.AddDate(0, 0, d-1)
}

// DueOf is when cycle (1-based) is due.
func (s *Subscription) DueOf(cycle int) time.Time {
	return AddInterval(s.BillingAnchor, s.BillingInterval, (cycle-s.AnchorCycle-1)*s.IntervalCount)
}

// NextCycle is the cycle number the next invoice bills.
func (s *Subscription) NextCycle() int { return s.CurrentCycle + 1 }

// Reanchor makes at the due date of the next cycle and the anchor of the cycles after
// it (after a change of interval, interval_count or next_billing_at, or a resume).
func (s *Subscription) Reanchor(at time.Time) {
	s.BillingAnchor, s.AnchorCycle = at, s.CurrentCycle
	s.NextBillingAt = &at
}

// CycleTotal is the subtotal of cycle n: the amount, plus the setup fee on the first.
func (s *Subscription) CycleTotal(n int) decimal.Decimal {
	if n == 1 {
		return s.Amount.Add(s.SetupFee)
	}
	return s.Amount
}

// MaxReached reports that every cycle of max_cycles was billed.
func (s *Subscription) MaxReached() bool { return s.MaxCycles != nil && s.CurrentCycle >= *s.MaxCycles }

// Billable reports a subscription the renewal sweep may bill at now.
func (s *Subscription) Billable(now time.Time) bool {
	return (s.Status == StatusActive || s.Status == StatusTrialing) && s.NextBillingAt != nil && !s.NextBillingAt.After(now)
}

// Pause suspends billing (active only).
func (s *Subscription) Pause(now time.Time) error {
	if s.Status != StatusActive {
		return ErrInvalidTransition.WithMessage("Only an active subscription can be paused (status %s)", s.Status)
	}
	s.Status, s.PausedAt, s.UpdatedAt = StatusPaused, &now, now
	return nil
}

// Resume restarts billing: the next cycle is due at the date it had, or now when that
// passed during the pause.
func (s *Subscription) Resume(now time.Time) error {
	if s.Status != StatusPaused {
		return ErrInvalidTransition.WithMessage("Only a paused subscription can be resumed (status %s)", s.Status)
	}
	next := now
	if s.NextBillingAt != nil && s.NextBillingAt.After(now) {
		next = *s.NextBillingAt
	}
	s.Reanchor(next)
	s.Status, s.PausedAt, s.UpdatedAt = StatusActive, nil, now
	return nil
}

// CancelCommand is a cancellation.
type CancelCommand struct {
	Reason, Details string
	AtEnd           bool
	// EnforceMinCycles refuses a cancellation before min_cycles were billed.
	EnforceMinCycles bool
}

// Cancel ends the subscription now, or schedules the end at the current period's end
// (AtEnd; a paused subscription, or one without a next billing date, ends now).
func (s *Subscription) Cancel(cmd CancelCommand, now time.Time) error {
	switch {
	case s.Status == StatusCancelled:
		return ErrAlreadyCancelled
	case s.Status == StatusExpired:
		return ErrInvalidTransition.WithMessage("The subscription has expired")
	case cmd.EnforceMinCycles && s.CurrentCycle < s.MinCycles:
		return ErrMinCycles.WithMessage("The subscription may be cancelled after %d billing cycles (%d billed)", s.MinCycles, s.CurrentCycle)
	}
	s.CancellationReason, s.CancellationDetails, s.UpdatedAt = cmd.Reason, cmd.Details, now
	if cmd.AtEnd && s.Status != StatusPaused && s.NextBillingAt != nil && s.NextBillingAt.After(now) {
		s.CancelAtEnd = true
		end := *s.NextBillingAt
		s.EndsAt = &end
		return nil
	}
	s.end(StatusCancelled, now)
	return nil
}

func (s *Subscription) end(st Status, now time.Time) {
	s.Status, s.UpdatedAt = st, now
	if st == StatusCancelled {
		s.CancelledAt = &now
	}
	if s.EndsAt == nil || s.EndsAt.After(now) {
		s.EndsAt = &now
	}
	s.NextBillingAt, s.GraceEndsAt, s.CancelAtEnd = nil, nil, false
}

// EndAtDue ends a due subscription that bills no more: cancelled at period end, or
// expired after max_cycles. It reports whether it did.
func (s *Subscription) EndAtDue(now time.Time) (Status, bool) {
	switch {
	case s.CancelAtEnd:
		at := *s.NextBillingAt
		s.end(StatusCancelled, now)
		s.CancelledAt, s.EndsAt = &at, &at
		return StatusCancelled, true
	case s.MaxReached():
		at := *s.NextBillingAt
		s.end(StatusExpired, now)
		s.EndsAt = &at
		return StatusExpired, true
	}
	return "", false
}

// Paid records the payment of cycle n covering [start, end): the subscription is
// active, the next cycle due at end (and ends_at set after the last of max_cycles).
func (s *Subscription) Paid(n int, end, now time.Time) {
	if n > s.CurrentCycle {
		s.CurrentCycle = n
	}
	s.Status, s.LastBillingAt, s.GraceEndsAt, s.UpdatedAt = StatusActive, &now, nil, now
	s.NextBillingAt = &end
	if s.MaxReached() {
		e := end
		s.EndsAt = &e
	}
}

// PastDue marks a failed renewal: past_due with its grace period (kept when already
// set, e.g. extended).
func (s *Subscription) PastDue(graceEnds, now time.Time) {
	s.Status, s.UpdatedAt = StatusPastDue, now
	if s.GraceEndsAt == nil {
		s.GraceEndsAt = &graceEnds
	}
}

// FailOut cancels a subscription whose dunning ended without payment.
func (s *Subscription) FailOut(now time.Time) {
	s.CancellationReason = ReasonPaymentFailed
	s.end(StatusCancelled, now)
}
