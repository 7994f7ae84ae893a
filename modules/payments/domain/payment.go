// Package domain holds the payments rules: money and currencies, cards (validation,
// brand, last four), the payment and its states, refunds, saved methods, decline codes.
// Plain Go.
package domain

import (
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/apperr"
)

// Status is a payment's state (docs/decisions/0051-payment-states.md).
type Status string

// Payment states.
const (
	StatusPending           Status = "pending" // stored, gateway not answered yet
	StatusRequiresAction    Status = "requires_action"
	StatusRequiresCapture   Status = "requires_capture"
	StatusProcessing        Status = "processing"
	StatusSucceeded         Status = "succeeded"
	StatusPartiallyRefunded Status = "partially_refunded"
	StatusRefunded          Status = "refunded"
	StatusFailed            Status = "failed"
	StatusCanceled          Status = "canceled"
)

// Paid reports whether money was captured (succeeded, partially or fully refunded).
func (s Status) Paid() bool {
	return s == StatusSucceeded || s == StatusPartiallyRefunded || s == StatusRefunded
}

// Capture methods.
const (
	CaptureAutomatic = "automatic"
	CaptureManual    = "manual"
)

// Method types.
const (
	MethodCard         = "card"
	MethodSavedCard    = "saved_card"
	MethodBankTransfer = "bank_transfer"
)

// Action types of requires_action.
const (
	ActionThreeDSecure = "three_d_secure"
	ActionRedirect     = "redirect"
)

// Action is the customer action a requires_action payment waits for.
type Action struct {
	Type      string         // three_d_secure | redirect
	Data      map[string]any // type, redirect_url and provider-specific data
	ExpiresAt time.Time
}

// Payment is one payment attempt and its life.
type Payment struct {
	ID                string // pay_<uuid>
	Gateway           string
	TransactionID     string // provider's id (payment intent, order, trade number)
	ProviderReference string // provider's charge, capture or authorization id when it differs
	Status            Status
	Amount            decimal.Decimal
	AmountCaptured    decimal.Decimal
	AmountRefunded    decimal.Decimal
	Currency          Currency
	CaptureMethod     string
	CustomerID        string
	CustomerEmail     string
	OrderID           string
	Owner             string // who created it (the idempotency scope)
	Description       string
	Metadata          map[string]any
	MethodType        string
	Card              CardDetails // brand, last four, expiry, holder only
	ProviderMethod    string      // provider's token of the method used
	ProviderCustomer  string      // provider's customer the method belongs to
	SavedMethodToken  string      // pm_<uuid> when saved
	SaveRequested     bool
	ReturnURL         string
	Action            *Action
	ErrorCode         string
	ErrorMessage      string
	RetryAllowed      bool
	ReceiptURL        string
	CreatedAt         time.Time
	UpdatedAt         time.Time
	CompletedAt       *time.Time
	CapturedAt        *time.Time
	CanceledAt        *time.Time
	Version           int
}

// Refundable is what may still be refunded.
func (p *Payment) Refundable() decimal.Decimal { return p.AmountCaptured.Sub(p.AmountRefunded) }

// Succeed records a captured payment.
func (p *Payment) Succeed(now time.Time) {
	p.Status = StatusSucceeded
	p.AmountCaptured = p.Amount
	p.Action = nil
	p.ErrorCode, p.ErrorMessage, p.RetryAllowed = "", "", false
	p.CompletedAt = &now
	p.UpdatedAt = now
}

// Authorize records an authorization waiting for capture.
func (p *Payment) Authorize(now time.Time) {
	p.Status = StatusRequiresCapture
	p.Action = nil
	p.UpdatedAt = now
}

// RequireAction records a pending customer action.
func (p *Payment) RequireAction(a Action, now time.Time) {
	p.Status = StatusRequiresAction
	p.Action = &a
	p.UpdatedAt = now
}

// Fail records a decline or error.
func (p *Payment) Fail(code, message string, now time.Time) {
	p.Status = StatusFailed
	p.ErrorCode = code
	p.ErrorMessage = message
	p.RetryAllowed = RetryAllowed(code)
	p.Action = nil
	p.UpdatedAt = now
}

// Decline fails the payment with a provider's decline: the code (card_declined when
// the provider gave none) and its message (the code's own when none was given).
func (p *Payment) Decline(code, message string, now time.Time) {
	if code == "" {
		code = "card_declined"
	}
	if message == "" {
		message = DeclineError(code).Message
	}
	p.Fail(code, message, now)
}

// CanCapture checks a manual capture: ALREADY_CAPTURED once money was captured,
// a state conflict for anything but requires_capture.
func (p *Payment) CanCapture() error {
	switch {
	case p.Status == StatusRequiresCapture:
		return nil
	case p.Status.Paid():
		return ErrAlreadyCaptured
	default:
		return ErrPaymentState.WithMessage("Payment in status %s cannot be captured", p.Status)
	}
}

// Capture records a capture of amount (the authorized amount when zero).
func (p *Payment) Capture(amount decimal.Decimal, now time.Time) error {
	if err := p.CanCapture(); err != nil {
		return err
	}
	if amount.IsZero() {
		amount = p.Amount
	}
	if !amount.IsPositive() || amount.GreaterThan(p.Amount) {
		return ErrInvalidAmount.WithMessage("Capture amount must be positive and at most %s", FormatAmount(p.Amount, p.Currency))
	}
	p.Status = StatusSucceeded
	p.AmountCaptured = amount
	p.CapturedAt = &now
	p.CompletedAt = &now
	p.UpdatedAt = now
	return nil
}

// CanCancel checks a cancel: only payments not yet captured (requires_action,
// requires_capture, pending, processing) may be canceled.
func (p *Payment) CanCancel() error {
	switch p.Status {
	case StatusRequiresAction, StatusRequiresCapture, StatusPending, StatusProcessing:
		return nil
	case StatusSucceeded, StatusPartiallyRefunded, StatusRefunded:
		return ErrAlreadyCaptured.WithMessage("Payment has been captured; refund it instead")
	default:
		return ErrPaymentState.WithMessage("Payment in status %s cannot be canceled", p.Status)
	}
}

// Cancel records a cancellation.
func (p *Payment) Cancel(now time.Time) error {
	if err := p.CanCancel(); err != nil {
		return err
	}
	p.Status = StatusCanceled
	p.Action = nil
	p.CanceledAt = &now
	p.UpdatedAt = now
	return nil
}

// ReserveRefund adds amount to the refunded total: ALREADY_REFUNDED when nothing is
// left, REFUND_AMOUNT_INVALID when amount is not positive or exceeds what is left.
func (p *Payment) ReserveRefund(amount decimal.Decimal, now time.Time) error {
	if !p.Status.Paid() {
		return ErrPaymentState.WithMessage("Payment in status %s cannot be refunded", p.Status)
	}
	left := p.Refundable()
	if !left.IsPositive() {
		return ErrAlreadyRefunded
	}
	if !amount.IsPositive() || amount.GreaterThan(left) {
		return ErrRefundAmountInvalid.WithMessage("Refund amount must be positive and at most %s", FormatAmount(left, p.Currency))
	}
	p.AmountRefunded = p.AmountRefunded.Add(amount)
	p.refundStatus(now)
	return nil
}

// ReleaseRefund gives back a reserved refund amount (the gateway refused the refund).
func (p *Payment) ReleaseRefund(amount decimal.Decimal, now time.Time) {
	p.AmountRefunded = p.AmountRefunded.Sub(amount)
	if p.AmountRefunded.IsNegative() {
		p.AmountRefunded = decimal.Zero
	}
	p.refundStatus(now)
}

func (p *Payment) refundStatus(now time.Time) {
	switch {
	case p.AmountRefunded.IsZero():
		p.Status = StatusSucceeded
	case p.AmountRefunded.GreaterThanOrEqual(p.AmountCaptured):
		p.Status = StatusRefunded
	default:
		p.Status = StatusPartiallyRefunded
	}
	p.UpdatedAt = now
}

// declineErrors maps provider decline codes to the spec's payment codes.
var declineErrors = map[string]*apperr.Error{
	"card_declined":          ErrCardDeclined,
	"generic_decline":        ErrCardDeclined,
	"do_not_honor":           ErrCardDeclined,
	"fraudulent":             ErrCardDeclined,
	"lost_card":              ErrCardDeclined,
	"stolen_card":            ErrCardDeclined,
	"pickup_card":            ErrCardDeclined,
	"insufficient_funds":     ErrInsufficientFunds,
	"expired_card":           ErrExpiredCard,
	"incorrect_cvc":          ErrIncorrectCVC,
	"invalid_cvc":            ErrIncorrectCVC,
	"processing_error":       ErrProcessingError,
	"try_again_later":        ErrProcessingError,
	"authentication_expired": ErrProcessingError,
	"gateway_error":          ErrProcessingError,
}

// DeclineError is the spec error (with its HTTP status) of a provider decline code;
// unknown codes are CARD_DECLINED.
func DeclineError(code string) *apperr.Error {
	if e, ok := declineErrors[code]; ok {
		return e
	}
	return ErrCardDeclined
}

// retryable lists the codes for which the same payment may simply be tried again
// (docs/decisions/0052-payment-responses.md).
var retryable = map[string]bool{
	"incorrect_cvc": true, "invalid_cvc": true, "insufficient_funds": true, "processing_error": true,
	"try_again_later": true, "authentication_expired": true, "gateway_error": true,
	"payment_intent_authentication_failure": true,
}

// RetryAllowed reports whether a failed payment may be retried.
func RetryAllowed(code string) bool { return retryable[code] }
