// Package customersapi implements identity's ports.Customers on top of the customers
// module's api package (the only part of customers identity may import).
package customersapi

import (
	"context"
	"errors"

	customers "github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/modules/identity/domain"
	"github.com/gocommerce/commerce/modules/identity/ports"
)

// Adapter translates between identity's and the customers module's words.
type Adapter struct {
	customers customers.Customers
}

var _ ports.Customers = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(c customers.Customers) *Adapter { return &Adapter{customers: c} }

// Create creates an enabled customer (joining ctx's transaction).
func (a *Adapter) Create(ctx context.Context, c ports.NewCustomer) (ports.Customer, error) {
	out, err := a.customers.CreateCustomer(ctx, customers.CreateCustomerCommand{
		Email: c.Email, FirstName: c.FirstName, LastName: c.LastName, State: customers.StateEnabled,
	})
	if err != nil {
		switch {
		case errors.Is(err, customers.ErrEmailTaken):
			return ports.Customer{}, domain.ErrEmailTaken
		case errors.Is(err, customers.ErrInvalidEmail):
			return ports.Customer{}, domain.ErrInvalidEmail
		}
		return ports.Customer{}, err
	}
	return toPort(out), nil
}

// Get returns a customer, or domain.ErrCustomerNotFound.
func (a *Adapter) Get(ctx context.Context, id string) (ports.Customer, error) {
	out, err := a.customers.GetCustomer(ctx, id)
	if err != nil {
		if errors.Is(err, customers.ErrCustomerNotFound) {
			return ports.Customer{}, domain.ErrCustomerNotFound
		}
		return ports.Customer{}, err
	}
	return toPort(out), nil
}

func toPort(c customers.Customer) ports.Customer {
	return ports.Customer{
		ID: c.ID, Email: c.Email, FirstName: c.FirstName, LastName: c.LastName,
		CanSignIn: c.State == customers.StateEnabled,
	}
}
