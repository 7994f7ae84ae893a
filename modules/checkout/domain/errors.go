package domain

import "github.com/gocommerce/commerce/platform/apperr"

// Errors of the checkout module (statuses per CONTRACT §5 where the spec gives none).
var (
	ErrCartEmpty            = apperr.New(apperr.Invalid, "CART_EMPTY", "Cart has no items")
	ErrShippingRateNotFound = apperr.New(apperr.NotFound, "SHIPPING_RATE_NOT_FOUND", "Shipping rate not found; initiate checkout with a shipping address first")
	ErrShippingRequired     = apperr.New(apperr.Invalid, "SHIPPING_ADDRESS_REQUIRED", "A shipping address is required: initiate checkout first")
	ErrCheckoutBusy         = apperr.New(apperr.Conflict, "CHECKOUT_IN_PROGRESS", "This checkout is being completed by another request; retry")
	ErrIdempotencyKeyReused = apperr.New(apperr.Conflict, "IDEMPOTENCY_KEY_REUSED", "Idempotency key reused")
	ErrCheckoutPending      = apperr.New(apperr.Conflict, "CHECKOUT_PAYMENT_PENDING", "The order of this checkout waits for its payment")
)
