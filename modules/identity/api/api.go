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

// Identity is the management interface used by the CLI.
type Identity interface {
	// CreateAPIKey returns the record and the full key, shown once.
	CreateAPIKey(ctx context.Context, cmd CreateAPIKeyCommand) (APIKey, string, error)
	ListAPIKeys(ctx context.Context) ([]APIKey, error)
	GetAPIKey(ctx context.Context, prefix string) (APIKey, error)
	RevokeAPIKey(ctx context.Context, prefix, reason string) (APIKey, error)
	DeleteAPIKey(ctx context.Context, prefix string) error
	CreateAdmin(ctx context.Context, email, password string) (StaffUser, error)
}
