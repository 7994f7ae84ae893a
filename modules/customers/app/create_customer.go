package app

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/platform/apperr"
)

// CreateCustomer validates and stores a customer and publishes customer.created in the
// same transaction (joining the caller's, if ctx carries one). It is what identity's
// registration uses: an enabled customer created this way signs in with the password
// the caller stores alongside, so it counts as having one.
func (s *Service) CreateCustomer(ctx context.Context, cmd api.CreateCustomerCommand) (api.Customer, error) {
	c, err := domain.NewCustomer(domain.CustomerID(s.newID()), cmd.Email, cmd.FirstName, cmd.LastName, domain.State(cmd.State), s.clock.Now())
	if err != nil {
		return api.Customer{}, err
	}
	c.HasPassword = c.State == domain.StateEnabled
	var out api.Customer
	err = s.tx.InTx(ctx, func(ctx context.Context) error {
		if err := s.repo.Create(ctx, c); err != nil {
			return err
		}
		out = toAPI(c, []*domain.Address{}, nil)
		if err := s.events.Publish(ctx, api.EventCustomerCreated, out.ID, api.CustomerCreated(out)); err != nil {
			return fmt.Errorf("create customer: %w", err)
		}
		return nil
	})
	if err != nil {
		return api.Customer{}, err
	}
	return out, nil
}

// AddressInput is an address to create or change, with the requested default flags
// (nil: unchanged, or automatic for a customer's first address).
type AddressInput struct {
	Fields          domain.AddressPatch
	DefaultShipping *bool
	DefaultBilling  *bool
}

// CreateCommand is POST /customers.
type CreateCommand struct {
	Draft                domain.Draft
	VerifiedEmail        *bool // default true (created by staff, as in Shopify)
	Password             *string
	PasswordConfirmation *string
	Addresses            []AddressInput
	SendEmailInvite      *bool // default true
}

// MaxAddressesOnCreate bounds the addresses given with a new customer.
const MaxAddressesOnCreate = 50

// checkPassword applies the confirmation rule and hashes the password (before any
// transaction: bcrypt is slow).
func (s *Service) checkPassword(password string, confirmation *string, confirmationRequired bool) (string, error) {
	if confirmation == nil && confirmationRequired {
		return "", apperr.Validation(map[string]string{"password_confirmation": "is required"})
	}
	if confirmation != nil && *confirmation != password {
		return "", apperr.Validation(map[string]string{"password_confirmation": "must match password"})
	}
	return s.creds.HashPassword(password)
}

// Create creates a customer from the admin API (docs/decisions/0040): with a password
// (and matching confirmation) it is enabled; without one it is invited and an invite is
// sent (customer.invited), or disabled when send_email_invite is false. Addresses given
// are saved, the first becoming the default shipping and billing address unless
// another is flagged.
func (s *Service) Create(ctx context.Context, a Actor, cmd CreateCommand) (api.Customer, error) {
	if err := a.staffWrite(); err != nil {
		return api.Customer{}, err
	}
	now := s.clock.Now()
	d := cmd.Draft
	d.VerifiedEmail = cmd.VerifiedEmail == nil || *cmd.VerifiedEmail
	invite := cmd.SendEmailInvite == nil || *cmd.SendEmailInvite
	var hash string
	switch {
	case cmd.Password != nil:
		h, err := s.checkPassword(*cmd.Password, cmd.PasswordConfirmation, true)
		if err != nil {
			return api.Customer{}, err
		}
		hash, d.State = h, domain.StateEnabled
	case invite:
		d.State = domain.StateInvited
	default:
		d.State = domain.StateDisabled
	}
	c, err := domain.Create(domain.CustomerID(s.newID()), d, now)
	if err != nil {
		return api.Customer{}, err
	}
	c.HasPassword = hash != ""
	addrs, err := s.newAddresses(c.ID, cmd.Addresses, now)
	if err != nil {
		return api.Customer{}, err
	}
	var out api.Customer
	err = s.tx.InTx(ctx, func(ctx context.Context) error {
		if err := s.repo.Create(ctx, c); err != nil {
			return err
		}
		for _, ad := range addrs {
			if err := s.addrs.Create(ctx, ad); err != nil {
				return err
			}
		}
		if hash != "" {
			if err := s.creds.SetPasswordHash(ctx, string(c.ID), c.Email, hash); err != nil {
				return err
			}
		}
		v, err := s.view(ctx, c)
		if err != nil {
			return err
		}
		out = v
		if err := s.events.Publish(ctx, api.EventCustomerCreated, string(c.ID), api.CustomerCreated(v)); err != nil {
			return err
		}
		if c.State == domain.StateInvited {
			return s.issueInvite(ctx, c, v)
		}
		return nil
	})
	if err != nil {
		return api.Customer{}, err
	}
	return out, nil
}

// newAddresses validates the addresses of a new customer and settles the defaults:
// the first address flagged for a kind gets it, else the first address.
func (s *Service) newAddresses(id domain.CustomerID, in []AddressInput, now time.Time) ([]*domain.Address, error) {
	if len(in) > MaxAddressesOnCreate {
		return nil, apperr.Validation(map[string]string{"addresses": "must have at most " + strconv.Itoa(MaxAddressesOnCreate) + " addresses"})
	}
	out := make([]*domain.Address, 0, len(in))
	var errs *apperr.Error
	for i, ai := range in {
		ad, err := domain.NewAddress(domain.AddressID(s.newID()), id, ai.Fields, now.Add(time.Duration(i)*time.Microsecond))
		if err != nil {
			pe, _ := apperr.As(prefixAddressError(err, i))
			if errs == nil {
				errs = pe
			} else {
				for k, v := range pe.Fields {
					errs = errs.WithField(k, v)
				}
			}
			continue
		}
		out = append(out, ad)
	}
	if errs != nil {
		return nil, errs
	}
	pick := func(flag func(AddressInput) *bool, set func(*domain.Address)) {
		if len(out) == 0 {
			return
		}
		for i, ai := range in {
			if f := flag(ai); f != nil && *f {
				set(out[i])
				return
			}
		}
		for i, ai := range in {
			if flag(ai) == nil {
				set(out[i])
				return
			}
		}
	}
	pick(func(ai AddressInput) *bool { return ai.DefaultShipping }, func(a *domain.Address) { a.IsDefaultShipping = true })
	pick(func(ai AddressInput) *bool { return ai.DefaultBilling }, func(a *domain.Address) { a.IsDefaultBilling = true })
	return out, nil
}

// prefixAddressError names an address field inside addresses[i].
func prefixAddressError(err error, i int) error {
	e, ok := apperr.As(err)
	if !ok || len(e.Fields) == 0 {
		return err
	}
	out := domain.ErrInvalidAddress
	for k, v := range e.Fields {
		out = out.WithField("addresses."+strconv.Itoa(i)+"."+k, v)
	}
	return out
}
