package domain

import "github.com/gocommerce/commerce/platform/apperr"

// Payment error codes (Part 1 "Payment codes"). The HTTP status follows from the kind.
var (
	ErrPaymentNotFound       = apperr.New(apperr.NotFound, "PAYMENT_NOT_FOUND", "Payment not found")
	ErrInvalidAmount         = apperr.New(apperr.Invalid, "INVALID_AMOUNT", "Amount must be a positive decimal string with at most the currency's minor units")
	ErrInvalidCurrency       = apperr.New(apperr.Invalid, "INVALID_CURRENCY", "Currency must be a supported ISO 4217 code")
	ErrInvalidPaymentMethod  = apperr.New(apperr.Invalid, "INVALID_PAYMENT_METHOD", "Payment method is invalid")
	ErrCardDeclined          = apperr.New(apperr.PaymentRequired, "CARD_DECLINED", "Your card was declined")
	ErrInsufficientFunds     = apperr.New(apperr.PaymentRequired, "INSUFFICIENT_FUNDS", "Your card has insufficient funds")
	ErrExpiredCard           = apperr.New(apperr.PaymentRequired, "EXPIRED_CARD", "Your card has expired")
	ErrIncorrectCVC          = apperr.New(apperr.PaymentRequired, "INCORRECT_CVC", "Your card's security code is incorrect")
	ErrProcessingError       = apperr.New(apperr.PaymentRequired, "PROCESSING_ERROR", "An error occurred while processing the payment")
	ErrAlreadyCaptured       = apperr.New(apperr.Conflict, "ALREADY_CAPTURED", "Payment has already been captured")
	ErrAlreadyRefunded       = apperr.New(apperr.Conflict, "ALREADY_REFUNDED", "Payment has already been fully refunded")
	ErrRefundAmountInvalid   = apperr.New(apperr.Invalid, "REFUND_AMOUNT_INVALID", "Refund amount must be positive and cannot exceed the refundable amount")
	ErrGatewayNotFound       = apperr.New(apperr.NotFound, "GATEWAY_NOT_FOUND", "Payment gateway not found or not enabled")
	ErrIdempotencyKeyReused  = apperr.New(apperr.Conflict, "IDEMPOTENCY_KEY_REUSED", "Idempotency key was already used with a different request")
	ErrPaymentMethodNotFound = apperr.New(apperr.NotFound, "PAYMENT_METHOD_NOT_FOUND", "Saved payment method not found")

	// ErrPaymentState is a generic 409 for an operation the payment's status does not allow.
	ErrPaymentState = apperr.New(apperr.Conflict, "", "The payment's status does not allow this operation")
	// ErrInvalidSignature is a webhook whose signature does not verify (400).
	ErrInvalidSignature = apperr.New(apperr.Invalid, "INVALID_SIGNATURE", "Invalid webhook signature")
)
