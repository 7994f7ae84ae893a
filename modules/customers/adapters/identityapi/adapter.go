// Package identityapi implements the customers module's ports.Credentials on top of the
// identity module's api.Credentials (the only part of identity customers may import).
package identityapi

import (
	"context"
	"errors"

	identity "github.com/gocommerce/commerce/modules/identity/api"

	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/modules/customers/ports"
)

// Adapter translates between the customers module's and identity's words.
type Adapter struct {
	creds identity.Credentials
}

var _ ports.Credentials = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(c identity.Credentials) *Adapter { return &Adapter{creds: c} }

// HashPassword checks the policy and hashes the password.
func (a *Adapter) HashPassword(password string) (string, error) {
	h, err := a.creds.HashPassword(password)
	return h, translate(err)
}

// SetPasswordHash stores the customer's login.
func (a *Adapter) SetPasswordHash(ctx context.Context, customerID, email, hash string) error {
	return translate(a.creds.SetPasswordHash(ctx, customerID, email, hash))
}

// DeleteCredentials removes the customer's login.
func (a *Adapter) DeleteCredentials(ctx context.Context, customerID string) error {
	return translate(a.creds.DeleteCredentials(ctx, customerID))
}

// UpdateEmail moves the customer's login to a new email.
func (a *Adapter) UpdateEmail(ctx context.Context, customerID, email string) error {
	return translate(a.creds.UpdateEmail(ctx, customerID, email))
}

// RevokeTokens kills the customer's access and refresh tokens.
func (a *Adapter) RevokeTokens(ctx context.Context, customerID string) error {
	return translate(a.creds.RevokeTokens(ctx, customerID))
}

func translate(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, identity.ErrInvalidPassword):
		return domain.ErrInvalidPassword
	case errors.Is(err, identity.ErrEmailTaken):
		return domain.ErrEmailTaken
	case errors.Is(err, identity.ErrInvalidEmail):
		return domain.ErrInvalidEmail
	}
	return err
}
