// Package api is what other modules (and cmd) may import from customers: the Customers
// interface, its DTOs, its errors and its event payloads. No framework imports.
package api

import (
	"context"
	"time"

	"github.com/gocommerce/commerce/platform/apperr"
)

// Customer states.
const (
	StateEnabled  = "enabled"
	StateDisabled = "disabled"
	StateInvited  = "invited"
	StateDeclined = "declined"
)

// EventCustomerCreated is published (through the outbox, in the creating transaction)
// when a customer is created; its data is a CustomerCreated.
const EventCustomerCreated = "customer.created"

// Customer is a customer profile as other modules see it. The JSON tags give the
// event payload its wire shape.
type Customer struct {
	ID        string    `json:"id"`
	Email     string    `json:"email"`
	FirstName string    `json:"first_name"`
	LastName  string    `json:"last_name"`
	State     string    `json:"state"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// CustomerCreated is the data of a customer.created event: the customer.
type CustomerCreated Customer

// CreateCustomerCommand creates a customer. State defaults to enabled.
type CreateCustomerCommand struct {
	Email     string
	FirstName string
	LastName  string
	State     string
}

// Errors other modules may test for with errors.Is (they match on the code).
var (
	ErrCustomerNotFound = apperr.New(apperr.NotFound, "CUSTOMER_NOT_FOUND", "Customer not found")
	ErrEmailTaken       = apperr.New(apperr.Conflict, "EMAIL_TAKEN", "Email address is already registered")
	ErrInvalidEmail     = apperr.New(apperr.Invalid, "INVALID_EMAIL", "Email address is invalid")
)

// Customers is what the customers module offers other modules. Every method joins the
// transaction carried by ctx, if any.
type Customers interface {
	// CreateCustomer creates a customer; a duplicate email is ErrEmailTaken.
	CreateCustomer(ctx context.Context, cmd CreateCustomerCommand) (Customer, error)
	// GetCustomer returns a customer by id, or ErrCustomerNotFound.
	GetCustomer(ctx context.Context, id string) (Customer, error)
	// FindCustomerByEmail returns a customer by email (case-insensitive), or ErrCustomerNotFound.
	FindCustomerByEmail(ctx context.Context, email string) (Customer, error)
}
