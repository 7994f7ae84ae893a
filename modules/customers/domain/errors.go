package domain

import (
	"github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/platform/apperr"
)

// Domain errors. Codes are Part 2's (statuses per CONTRACT §5); the ones customers/api
// exports are its values (ErrInvalidEmail with its field), so errors.Is works across
// the boundary.
var (
	ErrCustomerNotFound = api.ErrCustomerNotFound
	ErrEmailTaken       = api.ErrEmailTaken
	ErrInvalidEmail     = api.ErrInvalidEmail.WithField("email", "must be a valid email address")
	ErrInvalidPassword  = apperr.New(apperr.Invalid, "INVALID_PASSWORD", "Password must be 8 to 72 bytes long and contain at least one letter and one digit").
				WithField("password", "must be 8 to 72 bytes long and contain at least one letter and one digit")
	ErrAddressNotFound        = api.ErrAddressNotFound
	ErrInvalidAddress         = apperr.New(apperr.Invalid, "INVALID_ADDRESS", "Address is invalid")
	ErrCustomerHasOrders      = apperr.New(apperr.Conflict, "CUSTOMER_HAS_ORDERS", "Customer has orders; delete with anonymize_orders=true or anonymize the customer instead")
	ErrInvalidStateTransition = apperr.New(apperr.Invalid, "INVALID_STATE_TRANSITION", "Customer state transition is not allowed")
	ErrActivationTokenInvalid = api.ErrActivationTokenInvalid
	ErrSegmentNotFound        = api.ErrSegmentNotFound
	ErrSegmentNameTaken       = apperr.New(apperr.Conflict, "SEGMENT_NAME_TAKEN", "Segment name is already in use")
	// ErrInvalidState is an unknown state given by another module (api.CreateCustomerCommand).
	ErrInvalidState = apperr.New(apperr.Invalid, "INVALID_STATE", "State must be one of: enabled, disabled, invited, declined")
)

// ErrResetTokenInvalid is the password-reset flavour of ACTIVATION_TOKEN_INVALID (the
// spec's only token code; docs/decisions/0043).
var ErrResetTokenInvalid = ErrActivationTokenInvalid.WithMessage("Password reset token is invalid or expired")
