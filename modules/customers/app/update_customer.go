package app

import (
	"context"

	"github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/platform/apperr"
)

// UpdateCommand is PUT/PATCH /customers/{id}: the fields given change, the others stay.
type UpdateCommand struct {
	Patch domain.Patch
	State *domain.State
}

// errSelfRestricted answers a customer changing fields only staff may change.
var errSelfRestricted = apperr.New(apperr.Forbidden, "", "Forbidden: Insufficient permissions. Required: customers:write (API key or staff token) to change note, tags, state, tax_exempt, tax_exemptions, verified_email or metafields")

// Update changes a customer and publishes customer.updated (plus customer.enabled or
// customer.disabled when the state moved). A customer may change its own email,
// names, phone, marketing consent, currency and language; staff and keys anything.
// Moving away from invited withdraws the pending invite; moving away from enabled
// revokes the customer's tokens (docs/decisions/0096).
func (s *Service) Update(ctx context.Context, a Actor, id string, cmd UpdateCommand) (api.Customer, error) {
	if err := a.own(id); err != nil {
		return api.Customer{}, err
	}
	p := cmd.Patch
	if a.IsCustomer() && (cmd.State != nil || p.Note.Set || p.Tags.Set || p.TaxExempt.Set ||
		p.TaxExemptions.Set || p.VerifiedEmail.Set || p.Metafields.Set) {
		return api.Customer{}, errSelfRestricted
	}
	if cmd.State != nil && !cmd.State.Valid() {
		return api.Customer{}, apperr.Validation(map[string]string{"state": "must be one of: enabled, disabled, invited, declined"})
	}
	cid, err := customerID(id)
	if err != nil {
		return api.Customer{}, err
	}
	var out api.Customer
	err = s.tx.InTx(ctx, func(ctx context.Context) error {
		var (
			emailChanged, moved bool
			from                domain.State
		)
		c, err := s.repo.Update(ctx, cid, func(c *domain.Customer) error {
			now := s.clock.Now()
			from = c.State
			var err error
			if emailChanged, err = c.Apply(p, now); err != nil {
				return err
			}
			if cmd.State != nil {
				if moved, err = c.MoveTo(*cmd.State, domain.ViaUpdate, now); err != nil {
					return err
				}
			}
			c.UpdatedAt = now
			return nil
		})
		if err != nil {
			return err
		}
		if emailChanged {
			if err := s.creds.UpdateEmail(ctx, string(c.ID), c.Email); err != nil {
				return err
			}
		}
		// Leaving enabled (to disabled: the only move from there) kills every token
		// the customer holds; a later re-enable lets it sign in again.
		if moved && from == domain.StateEnabled {
			if err := s.creds.RevokeTokens(ctx, string(c.ID)); err != nil {
				return err
			}
		}
		if moved && from == domain.StateInvited {
			if err := s.tokens.DeleteForCustomer(ctx, c.ID, domain.PurposeActivation); err != nil {
				return err
			}
		}
		out, err = s.publishChange(ctx, api.EventCustomerUpdated, c, moved)
		return err
	})
	return out, err
}
