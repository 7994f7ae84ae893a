// Package api is what other modules (and cmd) may import from identity.
package api

import (
	"context"
	"time"

	"github.com/gocommerce/commerce/platform/apperr"
)

// APIKey is an API key record (never the secret).
type APIKey struct {
	ID                  string
	Name                string
	Prefix              string
	Scopes              []string
	RateLimitMultiplier string // decimal string, "" when not set
	LastUsedAt          *time.Time
	LastUsedIP          string
	Revoked             bool
	RevokedAt           *time.Time
	RevocationReason    string
	CreatedAt           time.Time
}

// CreateAPIKeyCommand creates a key.
type CreateAPIKeyCommand struct {
	Name                string
	Scopes              []string
	RateLimitMultiplier string // optional decimal string
}

// StaffUser is a staff account.
type StaffUser struct {
	ID        string
	Email     string
	Role      string
	CreatedAt time.Time
}

// Identity is the management interface used by the CLI. Errors are platform/apperr
// values: validation (400, with fields), API_KEY_NOT_FOUND (404),
// API_KEY_ALREADY_REVOKED (409), INVALID_EMAIL / INVALID_PASSWORD (400), EMAIL_TAKEN (409).
type Identity interface {
	// CreateAPIKey validates name, scopes and the optional multiplier and returns the
	// record and the full key "<prefix>.<secret>", shown once and never stored.
	CreateAPIKey(ctx context.Context, cmd CreateAPIKeyCommand) (APIKey, string, error)
	// ListAPIKeys returns every key, newest first.
	ListAPIKeys(ctx context.Context) ([]APIKey, error)
	// GetAPIKey returns a key by prefix.
	GetAPIKey(ctx context.Context, prefix string) (APIKey, error)
	// RevokeAPIKey revokes a key (reason required); effective at once in every process.
	RevokeAPIKey(ctx context.Context, prefix, reason string) (APIKey, error)
	// DeleteAPIKey deletes a key; effective at once in every process.
	DeleteAPIKey(ctx context.Context, prefix string) error
	// CreateAdmin creates a staff user with the admin role.
	CreateAdmin(ctx context.Context, email, password string) (StaffUser, error)
}

// Credentials is what identity offers the customers module for managing a customer's
// password without a dependency on customers (so the wire graph stays acyclic:
// Credentials → customers → identity's Service). Every method joins the transaction
// carried by ctx. Errors: ErrInvalidPassword (400 INVALID_PASSWORD), ErrEmailTaken
// (409 EMAIL_TAKEN) when another credential already uses the email.
type Credentials interface {
	// HashPassword checks the password policy (docs/decisions/0010) and returns an
	// opaque bcrypt hash. It is slow by design: call it before opening a transaction.
	HashPassword(password string) (string, error)
	// SetPassword validates and hashes password and stores it as the customer's
	// credential (created or replaced).
	SetPassword(ctx context.Context, customerID, email, password string) error
	// SetPasswordHash stores a hash made by HashPassword as the customer's credential
	// (created or replaced).
	SetPasswordHash(ctx context.Context, customerID, email, hash string) error
	// DeleteCredentials removes the customer's credential; none is not an error.
	DeleteCredentials(ctx context.Context, customerID string) error
	// UpdateEmail changes the login email of the customer's credential; none is not an
	// error.
	UpdateEmail(ctx context.Context, customerID, email string) error
	// RevokeTokens refuses every access and refresh token issued to the customer so
	// far (401), in every process within about a second once ctx's transaction
	// commits; tokens issued afterwards (a re-enabled customer's new login) work.
	RevokeTokens(ctx context.Context, customerID string) error
}

// Errors the Credentials methods answer (errors.Is matches on the code).
var (
	ErrInvalidPassword = apperr.New(apperr.Invalid, "INVALID_PASSWORD", "Password must be 8 to 72 bytes long and contain at least one letter and one digit")
	ErrEmailTaken      = apperr.New(apperr.Conflict, "EMAIL_TAKEN", "Email address is already registered")
	ErrInvalidEmail    = apperr.New(apperr.Invalid, "INVALID_EMAIL", "Email address is invalid")
)
