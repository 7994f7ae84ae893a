package app

import (
	"context"
	"errors"
	"strings"

	"github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/modules/customers/domain"
)

// issueInvite replaces the customer's activation token and publishes customer.invited
// (without the token: notifications fetches the link through api.AccountLinks).
func (s *Service) issueInvite(ctx context.Context, c *domain.Customer, v api.Customer) error {
	tok, _ := domain.NewAccountToken(s.settings.TokenKey, s.newID(), c.ID, domain.PurposeActivation, s.settings.InviteTTL, s.clock.Now())
	if err := s.tokens.Replace(ctx, tok); err != nil {
		return err
	}
	return s.events.Publish(ctx, api.EventCustomerInvited, string(c.ID), api.CustomerInvited{Customer: v, ActivationExpiresAt: tok.ExpiresAt.UTC()})
}

// SendInvite (POST /customers/{id}/send_invite) invites the customer (again): a new
// activation token replaces the old one and customer.invited is published. Allowed
// from invited (re-send), declined and disabled; an enabled customer answers
// INVALID_STATE_TRANSITION.
func (s *Service) SendInvite(ctx context.Context, a Actor, id string) (api.Customer, error) {
	var out api.Customer
	err := s.staffTx(ctx, a, id, func(ctx context.Context, cid domain.CustomerID) error {
		var changed bool
		c, err := s.repo.Update(ctx, cid, func(c *domain.Customer) error {
			var err error
			changed, err = c.MoveTo(domain.StateInvited, domain.ViaInvite, s.clock.Now())
			return err
		})
		if err != nil {
			return err
		}
		if out, err = s.view(ctx, c); err != nil {
			return err
		}
		if changed {
			if err := s.events.Publish(ctx, api.EventCustomerUpdated, string(c.ID), api.CustomerUpdated(out)); err != nil {
				return err
			}
		}
		return s.issueInvite(ctx, c, out)
	})
	return out, err
}

// ActivateCommand is POST /customers/{id}/activate.
type ActivateCommand struct {
	Token                string
	Password             string
	PasswordConfirmation *string
}

// Activate (public: the token is the credential) consumes the activation token, sets
// the password and enables the account; the email counts as verified. Unknown
// customer, wrong, used, replaced or expired token all answer ACTIVATION_TOKEN_INVALID.
func (s *Service) Activate(ctx context.Context, id string, cmd ActivateCommand) (api.Customer, error) {
	return s.redeem(ctx, id, cmd, domain.PurposeActivation)
}

// ResetPassword (public) consumes a password reset token and sets the new password.
func (s *Service) ResetPassword(ctx context.Context, id string, cmd ActivateCommand) (api.Customer, error) {
	return s.redeem(ctx, id, cmd, domain.PurposePasswordReset)
}

func (s *Service) redeem(ctx context.Context, id string, cmd ActivateCommand, purpose domain.TokenPurpose) (api.Customer, error) {
	invalid := domain.ErrActivationTokenInvalid
	if purpose == domain.PurposePasswordReset {
		invalid = domain.ErrResetTokenInvalid
	}
	hash, err := s.checkPassword(cmd.Password, cmd.PasswordConfirmation, false)
	if err != nil {
		return api.Customer{}, err
	}
	cid, err := customerID(id)
	if err != nil || strings.TrimSpace(cmd.Token) == "" {
		return api.Customer{}, invalid
	}
	var out api.Customer
	err = s.tx.InTx(ctx, func(ctx context.Context) error {
		now := s.clock.Now()
		ok, err := s.tokens.Consume(ctx, cid, purpose, domain.HashToken(strings.TrimSpace(cmd.Token)), now)
		if err != nil {
			return err
		}
		if !ok {
			return invalid
		}
		c, err := s.repo.Update(ctx, cid, func(c *domain.Customer) error {
			if purpose == domain.PurposeActivation {
				if _, err := c.MoveTo(domain.StateEnabled, domain.ViaActivate, now); err != nil {
					return err
				}
			} else if c.State != domain.StateEnabled {
				return invalid
			}
			c.HasPassword, c.VerifiedEmail, c.UpdatedAt = true, true, now
			return nil
		})
		if errors.Is(err, domain.ErrCustomerNotFound) {
			return invalid
		}
		if err != nil {
			return err
		}
		if err := s.creds.SetPasswordHash(ctx, string(c.ID), c.Email, hash); err != nil {
			return err
		}
		if out, err = s.view(ctx, c); err != nil {
			return err
		}
		if purpose == domain.PurposeActivation {
			return s.publishStateEvent(ctx, c, out)
		}
		return nil
	})
	return out, err
}

// RequestPasswordReset (public: POST /customers/recover) issues a reset token and
// publishes customer.password_reset when the email belongs to an enabled customer with
// a password; otherwise it does nothing. Either way the caller learns nothing.
func (s *Service) RequestPasswordReset(ctx context.Context, email string) error {
	e, err := domain.NormalizeEmail(email)
	if err != nil {
		return err
	}
	return s.tx.InTx(ctx, func(ctx context.Context) error {
		c, err := s.repo.FindByEmail(ctx, e)
		if errors.Is(err, domain.ErrCustomerNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		if !c.CanSignIn() || !c.HasPassword {
			return nil
		}
		tok, _ := domain.NewAccountToken(s.settings.TokenKey, s.newID(), c.ID, domain.PurposePasswordReset, s.settings.ResetTTL, s.clock.Now())
		if err := s.tokens.Replace(ctx, tok); err != nil {
			return err
		}
		v, err := s.view(ctx, c)
		if err != nil {
			return err
		}
		return s.events.Publish(ctx, api.EventCustomerPasswordReset, string(c.ID), api.CustomerPasswordReset{Customer: v, ResetExpiresAt: tok.ExpiresAt.UTC()})
	})
}

// ActivationLink implements api.AccountLinks.
func (s *Service) ActivationLink(ctx context.Context, customerID string) (api.AccountLink, error) {
	return s.link(ctx, customerID, domain.PurposeActivation, "/account/activate/")
}

// PasswordResetLink implements api.AccountLinks.
func (s *Service) PasswordResetLink(ctx context.Context, customerID string) (api.AccountLink, error) {
	return s.link(ctx, customerID, domain.PurposePasswordReset, "/account/reset/")
}

func (s *Service) link(ctx context.Context, id string, purpose domain.TokenPurpose, path string) (api.AccountLink, error) {
	cid, err := customerID(id)
	if err != nil {
		return api.AccountLink{}, domain.ErrActivationTokenInvalid
	}
	t, err := s.tokens.Find(ctx, cid, purpose)
	if err != nil {
		return api.AccountLink{}, err
	}
	raw, ok := t.Raw(s.settings.TokenKey, s.clock.Now())
	if !ok {
		return api.AccountLink{}, domain.ErrActivationTokenInvalid
	}
	url := strings.TrimRight(s.settings.LinkBaseURL, "/") + path + id + "/" + raw
	return api.AccountLink{CustomerID: id, URL: url, Token: raw, ExpiresAt: t.ExpiresAt.UTC()}, nil
}

// PurgeExpiredTokens deletes expired account tokens (a periodic job).
func (s *Service) PurgeExpiredTokens(ctx context.Context) (int64, error) {
	return s.tokens.PurgeExpired(ctx, s.clock.Now())
}
