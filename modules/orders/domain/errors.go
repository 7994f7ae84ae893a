package domain

import "github.com/gocommerce/commerce/platform/apperr"

// Errors of the orders module (Part 2 "Errors"; statuses per CONTRACT §5 where the spec
// gives none). Codes other modules share (PRODUCT_NOT_FOUND, ...) keep their strings.
var (
	ErrOrderNotFound           = apperr.New(apperr.NotFound, "ORDER_NOT_FOUND", "Order not found")
	ErrOrderAlreadyCancelled   = apperr.New(apperr.Conflict, "ORDER_ALREADY_CANCELLED", "Order is already cancelled")
	ErrOrderAlreadyClosed      = apperr.New(apperr.Conflict, "ORDER_ALREADY_CLOSED", "Order is already closed")
	ErrInvalidStatusTransition = apperr.New(apperr.Invalid, "INVALID_STATUS_TRANSITION", "Requested status is not reachable from the order's current status")
	ErrLineItemNotFound        = apperr.New(apperr.NotFound, "LINE_ITEM_NOT_FOUND", "Line item not found")
	ErrInvalidQuantity         = apperr.New(apperr.Invalid, "INVALID_QUANTITY", "Quantity must be positive")
	ErrInsufficientInventory   = apperr.New(apperr.Invalid, "INSUFFICIENT_INVENTORY", "Not enough stock available")
	ErrFulfillmentNotFound     = apperr.New(apperr.NotFound, "FULFILLMENT_NOT_FOUND", "Fulfillment not found")
	ErrRefundExceedsTotal      = apperr.New(apperr.Invalid, "REFUND_EXCEEDS_TOTAL", "Refund amount is higher than the amount that can be refunded")
	ErrPaymentRequired         = apperr.New(apperr.PaymentRequired, "PAYMENT_REQUIRED", "Order requires payment")
	ErrNoteNotFound            = apperr.New(apperr.NotFound, "NOTE_NOT_FOUND", "Note not found")
	ErrTransactionNotFound     = apperr.New(apperr.NotFound, "TRANSACTION_NOT_FOUND", "Transaction not found")
	ErrProductNotFound         = apperr.New(apperr.NotFound, "PRODUCT_NOT_FOUND", "Product not found")
	ErrVariantNotFound         = apperr.New(apperr.NotFound, "VARIANT_NOT_FOUND", "Variant not found")
	ErrCustomerNotFound        = apperr.New(apperr.NotFound, "CUSTOMER_NOT_FOUND", "Customer not found")
	ErrInvalidPrice            = apperr.New(apperr.Invalid, "INVALID_PRICE", "Amount must be a non-negative decimal string")
	ErrInvalidCurrency         = apperr.New(apperr.Invalid, "INVALID_CURRENCY", "Invalid currency code")
	ErrInvalidEmail            = apperr.New(apperr.Invalid, "INVALID_EMAIL", "Email address is invalid")
	// ErrStale is a lost optimistic update (another writer saved the order first); the
	// use case retries.
	ErrStale = apperr.New(apperr.Conflict, "", "The order was changed concurrently; retry")
)
