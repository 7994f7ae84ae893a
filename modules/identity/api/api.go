// Package api is what other modules (and cmd) may import from identity.
package api

import (
	"context"
	"time"
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
