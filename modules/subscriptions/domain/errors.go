package domain

import "github.com/gocommerce/commerce/platform/apperr"

// The module's errors (Part 2 names no subscription codes; docs/decisions/0201).
var (
	ErrSubscriptionNotFound = apperr.New(apperr.NotFound, "SUBSCRIPTION_NOT_FOUND", "Subscription not found")
	ErrInvoiceNotFound      = apperr.New(apperr.NotFound, "INVOICE_NOT_FOUND", "Invoice not found")
	ErrInvalidTransition    = apperr.New(apperr.Invalid, "INVALID_STATE_TRANSITION", "The subscription cannot make this move")
	ErrAlreadyCancelled     = apperr.New(apperr.Conflict, "SUBSCRIPTION_ALREADY_CANCELLED", "The subscription is already cancelled")
	ErrMinCycles            = apperr.New(apperr.Invalid, "MIN_CYCLES_NOT_MET", "The subscription has not reached its minimum cycles")
	ErrEnded                = apperr.New(apperr.Invalid, "SUBSCRIPTION_ENDED", "The subscription is cancelled or expired")
	ErrNotInDunning         = apperr.New(apperr.Invalid, "SUBSCRIPTION_NOT_PAST_DUE", "The subscription has no failed payment to retry")
	ErrRetryInProgress      = apperr.New(apperr.Conflict, "PAYMENT_ALREADY_IN_PROGRESS", "A charge of this invoice is in progress")
	ErrInvalidPeriod        = apperr.New(apperr.Invalid, "INVALID_PERIOD", "period must be one of 7d, 30d, 90d, 1y")
	ErrStale                = apperr.New(apperr.Conflict, "SUBSCRIPTION_CHANGED", "The subscription changed meanwhile; try again")
)
