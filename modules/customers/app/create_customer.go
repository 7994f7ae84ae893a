package app

import (
	"context"
	"fmt"

	"github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/modules/customers/domain"
)

// CreateCustomer validates and stores a customer and publishes customer.created in the
// same transaction (joining the caller's, if ctx carries one).
func (s *Service) CreateCustomer(ctx context.Context, cmd api.CreateCustomerCommand) (api.Customer, error) {
	c, err := domain.NewCustomer(domain.CustomerID(s.newID()), cmd.Email, cmd.FirstName, cmd.LastName, domain.State(cmd.State), s.clock.Now())
	if err != nil {
		return api.Customer{}, err
	}
	out := toAPI(c)
	err = s.tx.InTx(ctx, func(ctx context.Context) error {
		if err := s.repo.Create(ctx, c); err != nil {
			return err
		}
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
