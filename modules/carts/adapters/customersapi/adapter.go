// Package customersapi implements the carts module's ports.Addresses on top of the
// customers module's api.
package customersapi

import (
	"context"
	"errors"

	customers "github.com/gocommerce/commerce/modules/customers/api"

	"github.com/gocommerce/commerce/modules/carts/ports"
)

// Adapter reads a customer's saved addresses.
type Adapter struct {
	addresses customers.Addresses
}

var _ ports.Addresses = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(a customers.Addresses) *Adapter { return &Adapter{addresses: a} }

// CustomerAddress reads the customer's address: ADDRESS_NOT_FOUND is nil, any other
// failure is an error.
func (a *Adapter) CustomerAddress(ctx context.Context, customerID, addressID string) (*ports.Address, error) {
	addr, err := a.addresses.CustomerAddress(ctx, customerID, addressID)
	switch {
	case err == nil:
		return &ports.Address{Country: addr.Country, Region: addr.State, PostalCode: addr.Zip, City: addr.City}, nil
	case errors.Is(err, customers.ErrAddressNotFound):
		return nil, nil // not found is no address, not an error (ports.Addresses)
	default:
		return nil, err
	}
}
