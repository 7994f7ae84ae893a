// Package ports declares what the customers module needs from the outside.
package ports

import (
	"context"

	"github.com/gocommerce/commerce/modules/customers/domain"
)

// CustomerRepository stores customers. Every method uses the transaction carried by ctx.
type CustomerRepository interface {
	// Create inserts a customer; a duplicate email is domain.ErrEmailTaken.
	Create(ctx context.Context, c *domain.Customer) error
	// Get returns a customer, or domain.ErrCustomerNotFound.
	Get(ctx context.Context, id domain.CustomerID) (*domain.Customer, error)
	// FindByEmail returns a customer by its (lower-case) email, or domain.ErrCustomerNotFound.
	FindByEmail(ctx context.Context, email string) (*domain.Customer, error)
}
