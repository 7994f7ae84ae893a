// Package customersapi implements the notifications module's ports.Customers on top
// of the customers module's api (the customer, its marketing consent and its account
// links).
package customersapi

import (
	"context"

	customers "github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/modules/notifications/ports"
)

// Adapter is ports.Customers over customers/api.
type Adapter struct {
	customers customers.Customers
	links     customers.AccountLinks
}

var _ ports.Customers = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(c customers.Customers, l customers.AccountLinks) *Adapter {
	return &Adapter{customers: c, links: l}
}

// Customer reads a customer.
func (a *Adapter) Customer(ctx context.Context, id string) (ports.Customer, error) {
	return toPort(a.customers.GetCustomer(ctx, id))
}

// CustomerByEmail finds a customer by email.
func (a *Adapter) CustomerByEmail(ctx context.Context, email string) (ports.Customer, error) {
	return toPort(a.customers.FindCustomerByEmail(ctx, email))
}

// toPort is the customer customers answered in the notifications module's words.
func toPort(c customers.Customer, err error) (ports.Customer, error) {
	if err != nil {
		return ports.Customer{}, err
	}
	return ports.Customer{ID: c.ID, Email: c.Email, Phone: c.Phone, FirstName: c.FirstName, LastName: c.LastName,
		AcceptsMarketing: c.AcceptsMarketing}, nil
}

// ActivationLink returns the customer's invite link.
func (a *Adapter) ActivationLink(ctx context.Context, id string) (ports.Link, error) {
	l, err := a.links.ActivationLink(ctx, id)
	return ports.Link{URL: l.URL, ExpiresAt: l.ExpiresAt}, err
}

// PasswordResetLink returns the customer's reset link.
func (a *Adapter) PasswordResetLink(ctx context.Context, id string) (ports.Link, error) {
	l, err := a.links.PasswordResetLink(ctx, id)
	return ports.Link{URL: l.URL, ExpiresAt: l.ExpiresAt}, err
}
