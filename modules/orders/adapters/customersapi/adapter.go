// Package customersapi implements the orders module's ports.Customers on top of the
// customers module's api.
package customersapi

import (
	"context"
	"errors"

	customers "github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/modules/orders/domain"
	"github.com/gocommerce/commerce/modules/orders/ports"
)

// Adapter is ports.Customers over customers/api.Customers.
type Adapter struct {
	customers customers.Customers
}

var _ ports.Customers = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(c customers.Customers) *Adapter { return &Adapter{customers: c} }

func toCustomer(c customers.Contact) ports.Customer {
	return ports.Customer{ID: c.ID, Email: c.Email, Phone: c.Phone, FirstName: c.FirstName, LastName: c.LastName}
}

// Get returns a customer (the customers module's narrow contact read).
func (a *Adapter) Get(ctx context.Context, id string) (ports.Customer, error) {
	c, err := a.customers.CustomerContact(ctx, id, "")
	if err != nil {
		if errors.Is(err, customers.ErrCustomerNotFound) {
			return ports.Customer{}, domain.ErrCustomerNotFound
		}
		return ports.Customer{}, err
	}
	return toCustomer(c), nil
}

// FindByEmail returns the customer with the email, if any.
func (a *Adapter) FindByEmail(ctx context.Context, email string) (ports.Customer, bool, error) {
	c, err := a.customers.CustomerContact(ctx, "", email)
	if err != nil {
		if errors.Is(err, customers.ErrCustomerNotFound) {
			return ports.Customer{}, false, nil
		}
		return ports.Customer{}, false, err
	}
	return toCustomer(c), true, nil
}
