package app

import (
	"context"
	"fmt"

	"golang.org/x/crypto/bcrypt"

	"github.com/gocommerce/commerce/modules/identity/api"
	"github.com/gocommerce/commerce/modules/identity/domain"
	"github.com/gocommerce/commerce/modules/identity/ports"
	"github.com/gocommerce/commerce/platform/clock"
)

// CredentialService implements api.Credentials: the customers module sets and removes
// customer passwords through it (create with a password, invite activation, password
// reset, anonymization, erasure) and revokes a customer's tokens (disable,
// anonymization, erasure). It depends only on the credential store, the revocations,
// the settings and the clock (never on customers), so it can be built before the
// customers service.
type CredentialService struct {
	settings    Settings
	creds       ports.CredentialRepository
	revocations *Revocations
	clock       clock.Clock
}

var _ api.Credentials = (*CredentialService)(nil)

// NewCredentialService builds the service.
func NewCredentialService(settings Settings, creds ports.CredentialRepository, revocations *Revocations, clk clock.Clock) *CredentialService {
	return &CredentialService{settings: settings, creds: creds, revocations: revocations, clock: clk}
}

// RevokeTokens kills every access and refresh token issued to the customer so far, in
// every process within about a second of ctx's transaction committing (at once in this
// one); tokens issued later work (docs/decisions/0096).
func (s *CredentialService) RevokeTokens(ctx context.Context, customerID string) error {
	return s.revocations.Revoke(ctx, customerID)
}

// HashPassword checks the password policy and hashes the password with bcrypt.
func (s *CredentialService) HashPassword(password string) (string, error) {
	if err := domain.ValidatePassword(password); err != nil {
		return "", err
	}
	return hashPassword(password, s.settings.BcryptCost)
}

// SetPassword validates, hashes and stores the password (joining ctx's transaction).
func (s *CredentialService) SetPassword(ctx context.Context, customerID, email, password string) error {
	hash, err := s.HashPassword(password)
	if err != nil {
		return err
	}
	return s.SetPasswordHash(ctx, customerID, email, hash)
}

// SetPasswordHash stores a bcrypt hash as the customer's credential (created or
// replaced). Anything that is not a bcrypt hash is refused.
func (s *CredentialService) SetPasswordHash(ctx context.Context, customerID, email, hash string) error {
	if _, err := bcrypt.Cost([]byte(hash)); err != nil {
		return fmt.Errorf("identity: set password: not a bcrypt hash: %w", err)
	}
	e, err := domain.NormalizeEmail(email)
	if err != nil {
		return err
	}
	now := s.clock.Now()
	return s.creds.Upsert(ctx, domain.Credential{CustomerID: customerID, Email: e, PasswordHash: hash, CreatedAt: now, UpdatedAt: now})
}

// DeleteCredentials removes the customer's credential, if any.
func (s *CredentialService) DeleteCredentials(ctx context.Context, customerID string) error {
	return s.creds.DeleteByCustomer(ctx, customerID)
}

// UpdateEmail changes the customer's login email, if the customer has a credential.
func (s *CredentialService) UpdateEmail(ctx context.Context, customerID, email string) error {
	e, err := domain.NormalizeEmail(email)
	if err != nil {
		return err
	}
	return s.creds.UpdateEmail(ctx, customerID, e, s.clock.Now())
}
