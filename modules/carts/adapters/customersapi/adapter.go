// Package customersapi implements the carts module's ports.Addresses on top of the
// customers module's api.
package customersapi

import (
	"context"
	"errors"

	customers "github.com/gocommerce/commerce/modules/customers/api"

	"github.com/gocommerce/commerce/modules/carts/ports"
)

// Adapter answers whether an address is a customer's.
type Adapter struct {
	addresses customers.Addresses
}

var _ ports.Addresses = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(a customers.Addresses) *Adapter { return &Adapter{addresses: a} }

// CustomerHasAddress reads the customer's address: found is true, ADDRESS_NOT_FOUND is
// false, any other failure is an error.
func (a *Adapter) CustomerHasAddress(ctx context.Context, customerID, addressID string) (bool, error) {
	_, err := a.addresses.CustomerAddress(ctx, customerID, addressID)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, customers.ErrAddressNotFound):
		return false, nil
	default:
		return false, err
	}
}
