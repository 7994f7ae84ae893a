package app

import (
	"context"

	"github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/platform/ids"
)

func addressID(id string) (domain.AddressID, error) {
	if !ids.Valid(id) {
		return "", domain.ErrAddressNotFound
	}
	return domain.AddressID(id), nil
}

// ListAddresses answers a page of the customer's addresses (oldest first).
func (s *Service) ListAddresses(ctx context.Context, a Actor, customer string, p Page) ([]api.Address, int64, error) {
	c, err := s.load(ctx, a, customer)
	if err != nil {
		return nil, 0, err
	}
	list, total, err := s.addrs.List(ctx, c.ID, p.Offset, p.Limit)
	if err != nil {
		return nil, 0, err
	}
	out := make([]api.Address, len(list))
	for i, ad := range list {
		out[i] = toAPIAddress(ad)
	}
	return out, total, nil
}

// GetAddress answers one address of the customer.
func (s *Service) GetAddress(ctx context.Context, a Actor, customer, address string) (api.Address, error) {
	c, err := s.load(ctx, a, customer)
	if err != nil {
		return api.Address{}, err
	}
	ad, err := s.address(ctx, c.ID, address)
	if err != nil {
		return api.Address{}, err
	}
	return toAPIAddress(ad), nil
}

// addressTx runs an address change for a customer: access check, the customer's row
// lock (so two changes of its defaults never interleave) and the transaction.
func (s *Service) addressTx(ctx context.Context, a Actor, customer string, fn func(ctx context.Context, cid domain.CustomerID) error) error {
	if err := a.own(customer); err != nil {
		return err
	}
	cid, err := customerID(customer)
	if err != nil {
		return err
	}
	return s.tx.InTx(ctx, func(ctx context.Context) error {
		if err := s.repo.Lock(ctx, cid); err != nil {
			return err
		}
		return fn(ctx, cid)
	})
}

// makeDefault gives ad the default of the kind, taking it from the others first (the
// unique partial index allows one per customer); it publishes
// customer.address_updated for every other address that lost the flag.
func (s *Service) makeDefault(ctx context.Context, ad *domain.Address, kind domain.AddressKind) error {
	cleared, err := s.addrs.ClearDefault(ctx, ad.CustomerID, kind, ad.ID)
	if err != nil {
		return err
	}
	ad.SetDefault(kind, true, s.clock.Now())
	return s.publishAddresses(ctx, api.EventCustomerAddressUpdated, ad.CustomerID, cleared)
}

func (s *Service) publishAddresses(ctx context.Context, eventType string, customer domain.CustomerID, list []domain.AddressID) error {
	for _, id := range list {
		other, err := s.addrs.Get(ctx, customer, id)
		if err != nil {
			return err
		}
		if err := s.events.Publish(ctx, eventType, string(id), toAPIAddress(other)); err != nil {
			return err
		}
	}
	return nil
}

func hasDefault(list []*domain.Address, kind domain.AddressKind) bool {
	for _, a := range list {
		if a.IsDefault(kind) {
			return true
		}
	}
	return false
}

// CreateAddress saves an address. It becomes the default shipping (billing) address
// when asked, or when the customer has none yet (unless asked not to).
func (s *Service) CreateAddress(ctx context.Context, a Actor, customer string, in AddressInput) (api.Address, error) {
	var out api.Address
	err := s.addressTx(ctx, a, customer, func(ctx context.Context, cid domain.CustomerID) error {
		ad, err := domain.NewAddress(domain.AddressID(s.newID()), cid, in.Fields, s.clock.Now())
		if err != nil {
			return err
		}
		existing, err := s.addrs.All(ctx, cid)
		if err != nil {
			return err
		}
		if err := s.addrs.Create(ctx, ad); err != nil {
			return err
		}
		for _, k := range []struct {
			kind domain.AddressKind
			flag *bool
		}{{domain.DefaultShipping, in.DefaultShipping}, {domain.DefaultBilling, in.DefaultBilling}} {
			if (k.flag != nil && *k.flag) || (k.flag == nil && !hasDefault(existing, k.kind)) {
				if err := s.makeDefault(ctx, ad, k.kind); err != nil {
					return err
				}
			}
		}
		out, err = s.saveAddress(ctx, ad, api.EventCustomerAddressCreated)
		return err
	})
	return out, err
}

// UpdateAddress changes an address; a default flag set true takes the default from
// the customer's other address, false gives it up.
func (s *Service) UpdateAddress(ctx context.Context, a Actor, customer, address string, in AddressInput) (api.Address, error) {
	var out api.Address
	err := s.addressTx(ctx, a, customer, func(ctx context.Context, cid domain.CustomerID) error {
		ad, err := s.address(ctx, cid, address)
		if err != nil {
			return err
		}
		now := s.clock.Now()
		if err := ad.Apply(in.Fields, now); err != nil {
			return err
		}
		for _, k := range []struct {
			kind domain.AddressKind
			flag *bool
		}{{domain.DefaultShipping, in.DefaultShipping}, {domain.DefaultBilling, in.DefaultBilling}} {
			switch {
			case k.flag == nil:
			case *k.flag && !ad.IsDefault(k.kind):
				if err := s.makeDefault(ctx, ad, k.kind); err != nil {
					return err
				}
			case !*k.flag:
				ad.SetDefault(k.kind, false, now)
			}
		}
		ad.UpdatedAt = now
		out, err = s.saveAddress(ctx, ad, api.EventCustomerAddressUpdated)
		return err
	})
	return out, err
}

// DeleteAddress removes an address. When it was a default, the customer's oldest
// remaining address takes that default (customer.address_updated).
func (s *Service) DeleteAddress(ctx context.Context, a Actor, customer, address string) error {
	return s.addressTx(ctx, a, customer, func(ctx context.Context, cid domain.CustomerID) error {
		ad, err := s.address(ctx, cid, address)
		if err != nil {
			return err
		}
		if err := s.addrs.Delete(ctx, cid, ad.ID); err != nil {
			return err
		}
		if err := s.events.Publish(ctx, api.EventCustomerAddressDeleted, string(ad.ID), toAPIAddress(ad)); err != nil {
			return err
		}
		rest, err := s.addrs.All(ctx, cid)
		if err != nil || len(rest) == 0 {
			return err
		}
		heir := rest[0]
		changed := false
		for _, kind := range []domain.AddressKind{domain.DefaultShipping, domain.DefaultBilling} {
			if ad.IsDefault(kind) && !hasDefault(rest, kind) {
				heir.SetDefault(kind, true, s.clock.Now())
				changed = true
			}
		}
		if !changed {
			return nil
		}
		if err := s.addrs.Save(ctx, heir); err != nil {
			return err
		}
		return s.events.Publish(ctx, api.EventCustomerAddressUpdated, string(heir.ID), toAPIAddress(heir))
	})
}

// SetDefaultAddress makes an address the default of the kind (shipping or billing).
func (s *Service) SetDefaultAddress(ctx context.Context, a Actor, customer, address string, kind domain.AddressKind) (api.Address, error) {
	var out api.Address
	err := s.addressTx(ctx, a, customer, func(ctx context.Context, cid domain.CustomerID) error {
		ad, err := s.address(ctx, cid, address)
		if err != nil {
			return err
		}
		if ad.IsDefault(kind) {
			out = toAPIAddress(ad)
			return nil
		}
		if err := s.makeDefault(ctx, ad, kind); err != nil {
			return err
		}
		out, err = s.saveAddress(ctx, ad, api.EventCustomerAddressUpdated)
		return err
	})
	return out, err
}

// saveAddress stores ad and publishes eventType with the stored address, which it
// returns.
func (s *Service) saveAddress(ctx context.Context, ad *domain.Address, eventType string) (api.Address, error) {
	if err := s.addrs.Save(ctx, ad); err != nil {
		return api.Address{}, err
	}
	out := toAPIAddress(ad)
	return out, s.events.Publish(ctx, eventType, string(ad.ID), out)
}

// address reads the customer's address with the given id (ADDRESS_NOT_FOUND for one
// that is not an id).
func (s *Service) address(ctx context.Context, cid domain.CustomerID, id string) (*domain.Address, error) {
	aid, err := addressID(id)
	if err != nil {
		return nil, err
	}
	return s.addrs.Get(ctx, cid, aid)
}
