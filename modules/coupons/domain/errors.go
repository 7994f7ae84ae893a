package domain

import (
	"github.com/gocommerce/commerce/modules/coupons/api"
	"github.com/gocommerce/commerce/platform/apperr"
)

// Coupon error codes (Part 1 "Coupon codes"; COUPON_CUSTOMER_NOT_ELIGIBLE is ours,
// docs/decisions/0063). HTTP statuses follow CONTRACT.md §5.
const (
	CodeNotFound            = "COUPON_NOT_FOUND"
	CodeExpired             = "COUPON_EXPIRED"
	CodeNotStarted          = "COUPON_NOT_STARTED"
	CodeInactive            = "COUPON_INACTIVE"
	CodeUsageLimit          = "COUPON_USAGE_LIMIT"
	CodeCustomerLimit       = "COUPON_CUSTOMER_LIMIT"
	CodeMinimumNotMet       = "COUPON_MINIMUM_NOT_MET"
	CodeProductNotEligible  = "COUPON_PRODUCT_NOT_ELIGIBLE"
	CodeAlreadyApplied      = "COUPON_ALREADY_APPLIED"
	CodeCannotCombine       = "COUPON_CANNOT_COMBINE"
	CodeNewCustomersOnly    = "COUPON_NEW_CUSTOMERS_ONLY"
	CodeCustomerNotEligible = "COUPON_CUSTOMER_NOT_ELIGIBLE"
	CodeCodeExists          = "COUPON_CODE_EXISTS"
)

// Errors of the coupons module (those other modules test for are api's).
var (
	ErrCouponNotFound      = api.ErrCouponNotFound
	ErrExpired             = apperr.New(apperr.Invalid, CodeExpired, "Coupon has expired")
	ErrNotStarted          = apperr.New(apperr.Invalid, CodeNotStarted, "Coupon is not valid yet")
	ErrInactive            = apperr.New(apperr.Invalid, CodeInactive, "Coupon is inactive")
	ErrUsageLimit          = api.ErrUsageLimit
	ErrCustomerLimit       = api.ErrCustomerLimit
	ErrMinimumNotMet       = apperr.New(apperr.Invalid, CodeMinimumNotMet, "Cart subtotal is below the coupon's minimum order amount")
	ErrProductNotEligible  = apperr.New(apperr.Invalid, CodeProductNotEligible, "No products in the cart are eligible for this coupon")
	ErrAlreadyApplied      = apperr.New(apperr.Conflict, CodeAlreadyApplied, "Coupon is already applied to this cart")
	ErrCannotCombine       = apperr.New(apperr.Conflict, CodeCannotCombine, "Coupon cannot be combined with an existing discount")
	ErrNewCustomersOnly    = apperr.New(apperr.Invalid, CodeNewCustomersOnly, "Coupon is for first-time customers only")
	ErrCustomerNotEligible = apperr.New(apperr.Invalid, CodeCustomerNotEligible, "Coupon is not available to this customer")
	ErrCodeExists          = apperr.New(apperr.Conflict, CodeCodeExists, "Coupon code is already in use")
)
