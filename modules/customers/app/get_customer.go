package app

import (
	"context"

	"github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/platform/ids"
)

// GetCustomer returns a customer by id; a malformed id is not found.
func (s *Service) GetCustomer(ctx context.Context, id string) (api.Customer, error) {
	if !ids.Valid(id) {
		return api.Customer{}, domain.ErrCustomerNotFound
	}
	c, err := s.repo.Get(ctx, domain.CustomerID(id))
	if err != nil {
		return api.Customer{}, err
	}
	return toAPI(c), nil
}

// FindCustomerByEmail returns a customer by email, case-insensitively.
func (s *Service) FindCustomerByEmail(ctx context.Context, email string) (api.Customer, error) {
	e, err := domain.NormalizeEmail(email)
	if err != nil {
		return api.Customer{}, domain.ErrCustomerNotFound
	}
	c, err := s.repo.FindByEmail(ctx, e)
	if err != nil {
		return api.Customer{}, err
	}
	return toAPI(c), nil
}
