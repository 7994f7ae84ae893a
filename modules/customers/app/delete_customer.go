package app

import (
	"context"

	"github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/modules/customers/ports"
)

// hasOrders reports whether orders reference the customer: the orders module says so,
// or customers recorded one from the order events.
func (s *Service) hasOrders(ctx context.Context, id domain.CustomerID) (bool, error) {
	has, err := s.orders.HasOrders(ctx, string(id))
	if err != nil || has {
		return has, err
	}
	facts, err := s.stats.ForCustomer(ctx, id)
	return len(facts) > 0, err
}

// Delete erases a customer (DELETE /customers/{id}, staff and keys only): the profile,
// addresses, tags, tokens, recorded order facts and the login, and revokes its access
// and refresh tokens (docs/decisions/0096). A customer with orders
// answers CUSTOMER_HAS_ORDERS unless anonymizeOrders is set, which asks the orders
// module to strip the customer's personal data from its orders in the same
// transaction. Audited; publishes customer.deleted.
func (s *Service) Delete(ctx context.Context, a Actor, id string, anonymizeOrders bool) error {
	return s.staffTx(ctx, a, id, func(ctx context.Context, cid domain.CustomerID) error {
		if err := s.repo.Lock(ctx, cid); err != nil {
			return err
		}
		has, err := s.hasOrders(ctx, cid)
		if err != nil {
			return err
		}
		if has && !anonymizeOrders {
			return domain.ErrCustomerHasOrders
		}
		if has {
			if err := s.orders.AnonymizeCustomerOrders(ctx, id); err != nil {
				return err
			}
		}
		if err := s.forgetAccess(ctx, cid); err != nil {
			return err
		}
		if err := s.stats.DeleteForCustomer(ctx, cid); err != nil {
			return err
		}
		if err := s.repo.Delete(ctx, cid); err != nil {
			return err
		}
		now := s.clock.Now()
		if err := s.recordAudit(ctx, a, cid, ports.ActionDelete, now); err != nil {
			return err
		}
		return s.events.Publish(ctx, api.EventCustomerDeleted, id, api.CustomerDeleted{ID: id, AnonymizeOrders: anonymizeOrders, DeletedAt: now.UTC()})
	})
}
