package domain

import "github.com/gocommerce/commerce/platform/apperr"

// Domain errors. Codes are Part 2's (statuses per CONTRACT §5); they match the ones
// customers/api exports, so errors.Is works across the boundary.
var (
	ErrCustomerNotFound = apperr.New(apperr.NotFound, "CUSTOMER_NOT_FOUND", "Customer not found")
	ErrEmailTaken       = apperr.New(apperr.Conflict, "EMAIL_TAKEN", "Email address is already registered")
	ErrInvalidEmail     = apperr.New(apperr.Invalid, "INVALID_EMAIL", "Email address is invalid").WithField("email", "must be a valid email address")
	ErrInvalidPassword  = apperr.New(apperr.Invalid, "INVALID_PASSWORD", "Password must be 8 to 72 bytes long and contain at least one letter and one digit").
				WithField("password", "must be 8 to 72 bytes long and contain at least one letter and one digit")
	ErrAddressNotFound        = apperr.New(apperr.NotFound, "ADDRESS_NOT_FOUND", "Address not found")
	ErrInvalidAddress         = apperr.New(apperr.Invalid, "INVALID_ADDRESS", "Address is invalid")
	ErrCustomerHasOrders      = apperr.New(apperr.Conflict, "CUSTOMER_HAS_ORDERS", "Customer has orders; delete with anonymize_orders=true or anonymize the customer instead")
	ErrInvalidStateTransition = apperr.New(apperr.Invalid, "INVALID_STATE_TRANSITION", "Customer state transition is not allowed")
	ErrActivationTokenInvalid = apperr.New(apperr.Invalid, "ACTIVATION_TOKEN_INVALID", "Activation token is invalid or expired")
	ErrSegmentNotFound        = apperr.New(apperr.NotFound, "SEGMENT_NOT_FOUND", "Segment not found")
	ErrSegmentNameTaken       = apperr.New(apperr.Conflict, "SEGMENT_NAME_TAKEN", "Segment name is already in use")
	// ErrInvalidState is an unknown state given by another module (api.CreateCustomerCommand).
	ErrInvalidState = apperr.New(apperr.Invalid, "INVALID_STATE", "State must be one of: enabled, disabled, invited, declined")
)

// ErrResetTokenInvalid is the password-reset flavour of ACTIVATION_TOKEN_INVALID (the
// spec's only token code; docs/decisions/0043).
var ErrResetTokenInvalid = ErrActivationTokenInvalid.WithMessage("Password reset token is invalid or expired")
