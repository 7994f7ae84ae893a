// Package ports declares what identity needs from the outside, in identity's words:
// repositories, the customers capability, the token codec and the cross-process API key
// invalidation channel.
package ports

import (
	"context"
	"time"

	"github.com/gocommerce/commerce/modules/identity/domain"
)

// CredentialRepository stores customer credentials. Methods use ctx's transaction.
type CredentialRepository interface {
	// Create inserts a credential; a duplicate email is domain.ErrEmailTaken.
	Create(ctx context.Context, c domain.Credential) error
	// FindByEmail returns the credential of a lower-case email, or domain.ErrCredentialNotFound.
	FindByEmail(ctx context.Context, email string) (domain.Credential, error)
	// Upsert creates the customer's credential or replaces its email and hash; an email
	// used by another customer's credential is domain.ErrEmailTaken.
	Upsert(ctx context.Context, c domain.Credential) error
	// DeleteByCustomer removes the customer's credential (none is not an error).
	DeleteByCustomer(ctx context.Context, customerID string) error
	// UpdateEmail changes the email of the customer's credential (none is not an
	// error); an email used by another credential is domain.ErrEmailTaken.
	UpdateEmail(ctx context.Context, customerID, email string, at time.Time) error
}

// StaffRepository stores staff users.
type StaffRepository interface {
	// Create inserts a staff user; a duplicate email is domain.ErrEmailTaken.
	Create(ctx context.Context, u domain.StaffUser) error
	// FindByEmail returns a staff user by lower-case email, or domain.ErrStaffUserNotFound.
	FindByEmail(ctx context.Context, email string) (domain.StaffUser, error)
	// Get returns a staff user by id, or domain.ErrStaffUserNotFound.
	Get(ctx context.Context, id string) (domain.StaffUser, error)
}

// APIKeyRepository stores API keys.
type APIKeyRepository interface {
	// Create inserts a key; a duplicate prefix is domain.ErrAPIKeyPrefixTaken.
	Create(ctx context.Context, k domain.APIKey) error
	// List returns every key, newest first.
	List(ctx context.Context) ([]domain.APIKey, error)
	// GetByPrefix returns a key, or domain.ErrAPIKeyNotFound.
	GetByPrefix(ctx context.Context, prefix string) (domain.APIKey, error)
	// Update loads the key (row-locked where the engine supports it) inside ctx's
	// transaction, lets change modify it and saves its revocation state.
	Update(ctx context.Context, prefix string, change func(*domain.APIKey) error) (domain.APIKey, error)
	// Delete removes a key, or answers domain.ErrAPIKeyNotFound.
	Delete(ctx context.Context, prefix string) error
	// TouchLastUsed records a use unless one was recorded after notBefore (so several
	// processes write at most about once per interval).
	TouchLastUsed(ctx context.Context, id string, at time.Time, ip string, notBefore time.Time) error
	// RevokedOrMissing returns, among prefixes, those whose key is revoked or gone.
	RevokedOrMissing(ctx context.Context, prefixes []string) ([]string, error)
}

// TokenRevocationRepository stores each customer's token generation (docs/decisions/0096).
type TokenRevocationRepository interface {
	// Revoke raises the customer's generation by one inside ctx's transaction and
	// returns the new state: every token issued before is dead once it commits.
	Revoke(ctx context.Context, customerID string, at time.Time) (domain.TokenRevocation, error)
	// Generation returns the customer's current generation (0 when never revoked).
	Generation(ctx context.Context, customerID string) (int64, error)
	// Since returns the revocations made at or after t.
	Since(ctx context.Context, t time.Time) ([]domain.TokenRevocation, error)
}
