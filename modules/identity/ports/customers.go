package ports

import "context"

// Customer is what identity needs to know about a customer.
type Customer struct {
	ID        string
	Email     string
	FirstName string
	LastName  string
	// CanSignIn is false for disabled (and not yet activated) customers.
	CanSignIn bool
}

// NewCustomer is a customer to create at registration.
type NewCustomer struct {
	Email     string
	FirstName string
	LastName  string
}

// Customers is identity's view of the customers module. Calls join ctx's transaction.
type Customers interface {
	// Create creates an enabled customer; a duplicate email is domain.ErrEmailTaken.
	Create(ctx context.Context, c NewCustomer) (Customer, error)
	// Get returns a customer, or domain.ErrCustomerNotFound.
	Get(ctx context.Context, id string) (Customer, error)
}
