package domain

import "github.com/gocommerce/commerce/platform/apperr"

// Public error messages of the authentication failures (Part 1 "Authentication").
const (
	MsgInvalidCredentials = "Unauthorized: Invalid email or password"
	MsgInvalidToken       = "Unauthorized: Invalid token"
	MsgTokenExpired       = "Unauthorized: Token has expired"
	MsgInvalidAPIKey      = "Unauthorized: Invalid API key"
	MsgAPIKeyRevoked      = "Unauthorized: API key has been revoked"
)

// PasswordPolicy is the password rule, as told to clients.
const PasswordPolicy = "Password must be 8 to 72 bytes long and contain at least one letter and one digit"

// Domain errors. Authentication failures carry no code, so the envelope's code is the
// HTTP status (401), as the spec shows for auth errors.
var (
	ErrInvalidEmail         = apperr.New(apperr.Invalid, "INVALID_EMAIL", "Email address is invalid").WithField("email", "must be a valid email address")
	ErrInvalidPassword      = apperr.New(apperr.Invalid, "INVALID_PASSWORD", PasswordPolicy).WithField("password", PasswordPolicy)
	ErrEmailTaken           = apperr.New(apperr.Conflict, "EMAIL_TAKEN", "Email address is already registered")
	ErrInvalidCredentials   = apperr.Unauthorized(MsgInvalidCredentials)
	ErrInvalidToken         = apperr.Unauthorized(MsgInvalidToken)
	ErrTokenExpired         = apperr.Unauthorized(MsgTokenExpired)
	ErrInvalidAPIKey        = apperr.Unauthorized(MsgInvalidAPIKey)
	ErrAPIKeyRevoked        = apperr.Unauthorized(MsgAPIKeyRevoked)
	ErrAPIKeyNotFound       = apperr.New(apperr.NotFound, "API_KEY_NOT_FOUND", "API key not found")
	ErrAPIKeyAlreadyRevoked = apperr.New(apperr.Conflict, "API_KEY_ALREADY_REVOKED", "API key is already revoked")
	ErrStaffUserNotFound    = apperr.New(apperr.NotFound, "STAFF_USER_NOT_FOUND", "Staff user not found")
	ErrCredentialNotFound   = apperr.New(apperr.NotFound, "CREDENTIAL_NOT_FOUND", "Credential not found")
	// ErrAPIKeyPrefixTaken is an internal signal: a generated prefix collided; retry.
	ErrAPIKeyPrefixTaken = apperr.New(apperr.Conflict, "API_KEY_PREFIX_TAKEN", "API key prefix already in use")
)

// ErrCustomerNotFound mirrors the customers module's CUSTOMER_NOT_FOUND (same code).
var ErrCustomerNotFound = apperr.New(apperr.NotFound, "CUSTOMER_NOT_FOUND", "Customer not found")
