package domain

import (
	"github.com/gocommerce/commerce/modules/carts/api"
	"github.com/gocommerce/commerce/platform/apperr"
)

// Errors of the carts module (Part 1 "Cart codes"; statuses per CONTRACT.md §5 and
// docs/decisions/0060).
var (
	ErrCartNotFound         = api.ErrCartNotFound
	ErrCartExpired          = api.ErrCartExpired
	ErrCartConverted        = api.ErrCartConverted
	ErrItemNotFound         = apperr.New(apperr.NotFound, "ITEM_NOT_FOUND", "Cart item not found")
	ErrInvalidQuantity      = apperr.New(apperr.Invalid, "INVALID_QUANTITY", "Quantity must be 1 to 9999").WithField("quantity", "must be 1 to 9999")
	ErrProductNotAvailable  = apperr.New(apperr.Invalid, "PRODUCT_NOT_AVAILABLE", "Product is inactive or out of stock")
	ErrProductNotFound      = apperr.New(apperr.NotFound, "PRODUCT_NOT_FOUND", "Product not found")
	ErrVariantNotFound      = apperr.New(apperr.NotFound, "VARIANT_NOT_FOUND", "Variant not found")
	ErrCurrencyMismatch     = apperr.New(apperr.Invalid, "CURRENCY_MISMATCH", "The product's currency differs from the cart's")
	ErrInvalidCurrency      = apperr.New(apperr.Invalid, "INVALID_CURRENCY", "Currency must be an ISO 4217 code").WithField("currency", "must be an ISO 4217 code")
	ErrCouponInvalid        = apperr.New(apperr.Invalid, "COUPON_INVALID", "Coupon code is invalid or expired")
	ErrCouponMinimumNotMet  = apperr.New(apperr.Invalid, "COUPON_MINIMUM_NOT_MET", "Cart subtotal is below the coupon's minimum order amount")
	ErrCouponUsageLimit     = apperr.New(apperr.Invalid, "COUPON_USAGE_LIMIT", "Coupon usage limit has been reached")
	ErrCouponAlreadyApplied = apperr.New(apperr.Conflict, "COUPON_ALREADY_APPLIED", "Coupon is already applied to this cart")
	ErrCouponCannotCombine  = apperr.New(apperr.Conflict, "COUPON_CANNOT_COMBINE", "Coupon cannot be combined with an existing discount")
	// ErrAddressNotFound answers totals asked for a shipping address that is not one of
	// the cart customer's saved addresses (the customers module's code; decision 0101).
	ErrAddressNotFound = apperr.New(apperr.NotFound, "ADDRESS_NOT_FOUND", "Address not found")
	// ErrCustomerTokenRequired answers /carts/me and merge for principals that are not
	// customers (API keys, staff).
	ErrCustomerTokenRequired = apperr.New(apperr.Forbidden, "", "Forbidden: Insufficient permissions. Required: a customer token")
)

// CouponError turns a coupon evaluation's code into the cart's error
// (CONTRACT.md §7): unknown, inactive, not yet started and expired codes are
// COUPON_INVALID; the codes the cart table names keep theirs; the other coupon codes
// pass through with status 400 (409 for the combination codes).
func CouponError(code, message string) error {
	var base *apperr.Error
	switch code {
	case "COUPON_NOT_FOUND", "COUPON_INACTIVE", "COUPON_EXPIRED", "COUPON_NOT_STARTED":
		return ErrCouponInvalid.WithMessage("Coupon code is invalid or expired")
	case "COUPON_MINIMUM_NOT_MET":
		base = ErrCouponMinimumNotMet
	case "COUPON_USAGE_LIMIT":
		base = ErrCouponUsageLimit
	case "COUPON_ALREADY_APPLIED":
		base = ErrCouponAlreadyApplied
	case "COUPON_CANNOT_COMBINE":
		base = ErrCouponCannotCombine
	case "":
		return ErrCouponInvalid
	default:
		base = apperr.New(apperr.Invalid, code, message)
	}
	if message != "" {
		return base.WithMessage("%s", message)
	}
	return base
}

// ErrInvalidAttributes answers custom attributes out of bounds (400 validation).
var ErrInvalidAttributes = apperr.Validation(map[string]string{"custom_attributes": "is invalid"})
