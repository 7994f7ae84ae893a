package domain

import (
	"time"

	"github.com/shopspring/decimal"
)

// InvoiceStatus is a subscription invoice status (Part 2 "Subscription invoice").
type InvoiceStatus string

// Invoice statuses: pending (issued, not charged yet), billed (a charge in flight,
// claimed by one worker), paid, failed (in dunning, a retry due at next_retry_at),
// cancelled (dunning ended without payment, or the subscription ended). past_due is
// not used: the subscription carries it (docs/decisions/0203).
const (
	InvoicePending   InvoiceStatus = "pending"
	InvoiceBilled    InvoiceStatus = "billed"
	InvoicePaid      InvoiceStatus = "paid"
	InvoiceFailed    InvoiceStatus = "failed"
	InvoicePastDue   InvoiceStatus = "past_due"
	InvoiceCancelled InvoiceStatus = "cancelled"
)

// Invoice is the bill of one cycle.
type Invoice struct {
	ID, SubscriptionID, CustomerID string
	// OrderRef is the id the cycle's order is created with (so a resumed billing never
	// makes two); OrderID is set once it exists.
	OrderRef, OrderID           string
	CycleNumber                 int
	PeriodStart, PeriodEnd      time.Time
	Subtotal, TaxTotal, Total   decimal.Decimal
	Currency                    string
	Status                      InvoiceStatus
	PaidAt                      *time.Time
	PaymentID                   string
	FailedAttempts              int
	LastFailedAt, FirstFailedAt *time.Time
	FailureReason               string
	NextRetryAt                 *time.Time
	RetryCount                  int
	RecoveredAttempt            int
	LostAt                      *time.Time
	ClaimToken                  string
	ClaimedUntil                *time.Time
	CreatedAt, UpdatedAt        time.Time
}

// Attempt is one charge of an invoice: attempt 1 is the cycle's first charge, the
// retries of dunning follow.
type Attempt struct {
	ID, InvoiceID, SubscriptionID string
	Number                        int
	AttemptedAt                   time.Time
	Succeeded                     bool
	ErrorCode, ErrorMessage       string
	PaymentID                     string
	Manual                        bool
}

// Email is a dunning email sent for a subscription.
type Email struct {
	ID, SubscriptionID, InvoiceID, Type string
	NotificationID                      string
	SentAt                              time.Time
}

// Dunning email types (templates dunning_<type>_html).
const (
	EmailFirst = "first"
	EmailRetry = "retry"
	EmailFinal = "final"
)

// Dunning is the retry plan of a failed renewal.
type Dunning struct {
	// Schedule is the delay of retry k (1-based) after the first failure.
	Schedule []time.Duration
	// MaxRetries is how many retries follow the first failure.
	MaxRetries int
	// Grace is how long after the first failure a subscription whose retries are
	// exhausted stays past_due before it is cancelled.
	Grace time.Duration
}

// Outcome is what a failed charge leads to.
type Outcome struct {
	// NextRetryAt is the next retry, nil when none is left.
	NextRetryAt *time.Time
	// Email is the dunning email to send ("" none).
	Email string
	// FailOut: no retry is left and the grace period is over: cancel.
	FailOut bool
}

// Failed records failed charge attempt (the invoice's first failure starts dunning)
// and answers what follows: the next retry on the schedule, the email, or the end.
func (d Dunning) Failed(inv *Invoice, code, message string, graceEnds *time.Time, now time.Time) Outcome {
	if inv.FirstFailedAt == nil {
		inv.FirstFailedAt = &now
	}
	inv.FailedAttempts++
	inv.RetryCount = inv.FailedAttempts - 1
	inv.Status, inv.LastFailedAt, inv.FailureReason, inv.UpdatedAt = InvoiceFailed, &now, code, now
	if message != "" && code == "" {
		inv.FailureReason = message
	}
	inv.ClaimToken, inv.ClaimedUntil, inv.NextRetryAt = "", nil, nil
	left := d.MaxRetries - inv.RetryCount
	var out Outcome
	if left > 0 {
		at := inv.FirstFailedAt.Add(d.Schedule[inv.RetryCount])
		if at.Before(now) {
			at = now
		}
		inv.NextRetryAt, out.NextRetryAt = &at, &at
	}
	switch {
	case inv.FailedAttempts == 1:
		out.Email = EmailFirst
	case left == 1:
		out.Email = EmailFinal
	case left > 1:
		out.Email = EmailRetry
	}
	if left <= 0 && (graceEnds == nil || !graceEnds.After(now)) {
		out.FailOut = true
	}
	return out
}

// GraceEnd is the end of the grace period of dunning that started at first.
func (d Dunning) GraceEnd(first time.Time) time.Time { return first.Add(d.Grace) }

// Pay records the invoice's payment (in dunning, RecoveredAttempt is the number of
// the charge that recovered it: 2 is the first retry).
func (inv *Invoice) Pay(paymentID string, now time.Time) {
	if inv.FirstFailedAt != nil {
		inv.RecoveredAttempt = inv.FailedAttempts + 1
	}
	inv.Status, inv.PaidAt, inv.PaymentID, inv.UpdatedAt = InvoicePaid, &now, paymentID, now
	inv.NextRetryAt, inv.ClaimToken, inv.ClaimedUntil = nil, "", nil
}

// Lose cancels an invoice whose dunning ended without payment.
func (inv *Invoice) Lose(now time.Time) {
	inv.Status, inv.NextRetryAt, inv.UpdatedAt = InvoiceCancelled, nil, now
	if inv.FirstFailedAt != nil {
		inv.LostAt = &now
	}
}
