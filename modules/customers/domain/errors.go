package domain

import "github.com/gocommerce/commerce/platform/apperr"

// Domain errors. Codes match the ones customers/api exports, so errors.Is works across
// the boundary.
var (
	ErrCustomerNotFound = apperr.New(apperr.NotFound, "CUSTOMER_NOT_FOUND", "Customer not found")
	ErrEmailTaken       = apperr.New(apperr.Conflict, "EMAIL_TAKEN", "Email address is already registered")
	ErrInvalidEmail     = apperr.New(apperr.Invalid, "INVALID_EMAIL", "Email address is invalid")
	ErrInvalidState     = apperr.New(apperr.Invalid, "INVALID_STATE", "State must be one of: enabled, disabled, invited, declined")
)
