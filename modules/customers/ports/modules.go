package ports

import (
	"context"
	"time"

	"github.com/shopspring/decimal"
)

// Credentials is the customers module's view of identity's password store. Methods
// join ctx's transaction. Errors: domain.ErrInvalidPassword, domain.ErrEmailTaken,
// domain.ErrInvalidEmail.
type Credentials interface {
	// HashPassword checks the password policy and hashes it (slow: outside transactions).
	HashPassword(password string) (string, error)
	// SetPasswordHash creates or replaces the customer's login with the hash.
	SetPasswordHash(ctx context.Context, customerID, email, hash string) error
	// DeleteCredentials removes the customer's login (none is fine).
	DeleteCredentials(ctx context.Context, customerID string) error
	// UpdateEmail moves the customer's login to a new email (none is fine).
	UpdateEmail(ctx context.Context, customerID, email string) error
	// RevokeTokens refuses every token issued to the customer so far, in every process,
	// once ctx's transaction commits (docs/decisions/0096).
	RevokeTokens(ctx context.Context, customerID string) error
}

// OrderFilter narrows a customer's order history.
type OrderFilter struct {
	Status          string
	FinancialStatus string
}

// OrderSummary is one order of a customer's history (Part 2's order summary).
type OrderSummary struct {
	ID                string
	OrderNumber       string
	Email             string
	TotalPrice        decimal.Decimal
	Currency          string
	Status            string
	FinancialStatus   string
	FulfillmentStatus string
	CreatedAt         time.Time
	UpdatedAt         time.Time
}

// Record is one exported record of another module, as that module shapes it.
type Record = map[string]any

// Orders is what customers needs from the orders module. Until that module exists the
// default adapter answers "no orders".
type Orders interface {
	// HasOrders reports whether any order references the customer.
	HasOrders(ctx context.Context, customerID string) (bool, error)
	// ListOrders returns a page of the customer's orders, newest first, and the total.
	ListOrders(ctx context.Context, customerID string, f OrderFilter, offset, limit int) ([]OrderSummary, int64, error)
	// ExportOrders returns every order of the customer, for a data export.
	ExportOrders(ctx context.Context, customerID string) ([]Record, error)
	// AnonymizeCustomerOrders removes the customer's personal data from its orders
	// (delete with anonymize_orders); it joins ctx's transaction.
	AnonymizeCustomerOrders(ctx context.Context, customerID string) error
}

// Exporter exports a customer's resources of one kind that another module keeps (its
// carts, subscriptions, the notifications sent to it), for a data export.
type Exporter interface {
	Export(ctx context.Context, customerID string) ([]Record, error)
}
