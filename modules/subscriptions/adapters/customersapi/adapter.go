// Package customersapi implements the subscriptions module's ports.Customers on the
// customers module's api.
package customersapi

import (
	"context"
	"strings"

	customers "github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/modules/subscriptions/ports"
)

// Adapter is ports.Customers over customers.Customers.
type Adapter struct{ customers customers.Customers }

var _ ports.Customers = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(c customers.Customers) *Adapter { return &Adapter{customers: c} }

// Customer reads the customer's id, email and name.
func (a *Adapter) Customer(ctx context.Context, id string) (ports.Customer, error) {
	c, err := a.customers.GetCustomer(ctx, id)
	if err != nil {
		return ports.Customer{}, err
	}
	return ports.Customer{ID: c.ID, Email: c.Email, Name: strings.TrimSpace(c.FirstName + " " + c.LastName)}, nil
}
