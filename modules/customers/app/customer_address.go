package app

import (
	"context"
	"strings"

	"github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/platform/ids"
)

var _ api.Addresses = (*Service)(nil)

// CustomerAddress returns one of the customer's saved addresses for another module
// (api.Addresses): one read on the address's id and its customer, so an address of
// another customer is ADDRESS_NOT_FOUND exactly like an unknown one.
func (s *Service) CustomerAddress(ctx context.Context, customerID, addressID string) (api.Address, error) {
	if !ids.Valid(customerID) || !ids.Valid(addressID) {
		return api.Address{}, domain.ErrAddressNotFound
	}
	a, err := s.addrs.Get(ctx, domain.CustomerID(strings.ToLower(customerID)), domain.AddressID(strings.ToLower(addressID)))
	if err != nil {
		return api.Address{}, err
	}
	return toAPIAddress(a), nil
}
