// Package ports declares what the customers module needs from the outside: its stores
// and the capabilities of other modules (credentials, orders, carts, subscriptions,
// notifications), in the customers module's words.
package ports

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/modules/customers/domain"
)

// SortField is a customer list sort key.
type SortField string

// Sort keys (Part 2: created_at, updated_at, total_spent, orders_count).
const (
	SortCreatedAt   SortField = "created_at"
	SortUpdatedAt   SortField = "updated_at"
	SortTotalSpent  SortField = "total_spent"
	SortOrdersCount SortField = "orders_count"
)

// CustomerFilter narrows a customer list; zero members do not filter. Every text is
// matched case-insensitively.
type CustomerFilter struct {
	Email            string // exact
	Phone            string // exact (normalized)
	EmailContains    string
	PhoneContains    string
	FirstName        string // substring
	LastName         string // substring
	States           []domain.State
	AcceptsMarketing *bool
	Tags             []string // tag keys; the customer has every one
	AnyTags          []string // tag keys; the customer has at least one
	MinOrders        *int
	MinTotalSpent    *decimal.Decimal
	CreatedAfter     *time.Time
	CreatedBefore    *time.Time
	UpdatedAfter     *time.Time
	// Terms must each appear in the full name, the email or the phone.
	Terms []string
	// Conditions are a segment's, evaluated at Now.
	Conditions []domain.Condition
	Now        time.Time
}

// CustomerQuery is a filtered, sorted page of customers.
type CustomerQuery struct {
	Filter CustomerFilter
	Sort   SortField
	Desc   bool
	Offset int
	Limit  int
}

// CustomerRepository stores customers. Every method uses the transaction carried by ctx.
type CustomerRepository interface {
	// Create inserts a customer (and its tags); a duplicate email is domain.ErrEmailTaken.
	Create(ctx context.Context, c *domain.Customer) error
	// Get returns a customer, or domain.ErrCustomerNotFound.
	Get(ctx context.Context, id domain.CustomerID) (*domain.Customer, error)
	// FindByEmail returns a customer by its (lower-case) email, or domain.ErrCustomerNotFound.
	FindByEmail(ctx context.Context, email string) (*domain.Customer, error)
	// Contact reads a customer's id, email, phone and names, by id, or by its
	// (lower-case) email when id is "", or domain.ErrCustomerNotFound.
	Contact(ctx context.Context, id domain.CustomerID, email string) (api.Contact, error)
	// Update loads the customer (row-locked where the engine can) inside ctx's
	// transaction, lets change modify it and saves every field and the tags; a
	// duplicate email is domain.ErrEmailTaken.
	Update(ctx context.Context, id domain.CustomerID, change func(*domain.Customer) error) (*domain.Customer, error)
	// Lock takes the customer's row lock for the transaction (serializing its address
	// changes) and answers domain.ErrCustomerNotFound when it does not exist.
	Lock(ctx context.Context, id domain.CustomerID) error
	// Delete removes the customer with its tags (addresses and tokens cascade).
	Delete(ctx context.Context, id domain.CustomerID) error
	// List returns a page and the total matching.
	List(ctx context.Context, q CustomerQuery) ([]*domain.Customer, int64, error)
	// Matches reports whether the customer passes the filter.
	Matches(ctx context.Context, id domain.CustomerID, f CustomerFilter) (bool, error)
	// SetStats stores the order statistics of a customer (no-op when it is gone).
	SetStats(ctx context.Context, id domain.CustomerID, s domain.OrderStats) error
}

// AddressRepository stores saved addresses.
type AddressRepository interface {
	// Create inserts an address.
	Create(ctx context.Context, a *domain.Address) error
	// Get returns one address of the customer, or domain.ErrAddressNotFound.
	Get(ctx context.Context, customer domain.CustomerID, id domain.AddressID) (*domain.Address, error)
	// List returns a page of the customer's addresses (oldest first) and the total.
	List(ctx context.Context, customer domain.CustomerID, offset, limit int) ([]*domain.Address, int64, error)
	// All returns every address of the customer, oldest first.
	All(ctx context.Context, customer domain.CustomerID) ([]*domain.Address, error)
	// Save writes every field and flag of an address.
	Save(ctx context.Context, a *domain.Address) error
	// Delete removes one address (domain.ErrAddressNotFound when absent).
	Delete(ctx context.Context, customer domain.CustomerID, id domain.AddressID) error
	// DeleteAll removes every address of the customer.
	DeleteAll(ctx context.Context, customer domain.CustomerID) error
	// ClearDefault removes the default flag of the kind from the customer's addresses
	// other than except; it answers the ids it changed.
	ClearDefault(ctx context.Context, customer domain.CustomerID, kind domain.AddressKind, except domain.AddressID) ([]domain.AddressID, error)
	// DefaultShipping returns the default shipping address of each customer that has one.
	DefaultShipping(ctx context.Context, customers []domain.CustomerID) (map[domain.CustomerID]*domain.Address, error)
}

// TokenRepository stores account tokens (hashes only).
type TokenRepository interface {
	// Replace stores the token, removing the customer's other token of the purpose.
	Replace(ctx context.Context, t domain.AccountToken) error
	// Find returns the customer's token of the purpose, or domain.ErrActivationTokenInvalid.
	Find(ctx context.Context, customer domain.CustomerID, purpose domain.TokenPurpose) (domain.AccountToken, error)
	// Consume deletes the customer's token of the purpose with the hash if it has not
	// expired at now, and reports whether it did (single use under concurrency).
	Consume(ctx context.Context, customer domain.CustomerID, purpose domain.TokenPurpose, hash string, now time.Time) (bool, error)
	// DeleteForCustomer removes the customer's tokens (of the purposes, or all).
	DeleteForCustomer(ctx context.Context, customer domain.CustomerID, purposes ...domain.TokenPurpose) error
	// ForCustomer lists the customer's tokens.
	ForCustomer(ctx context.Context, customer domain.CustomerID) ([]domain.AccountToken, error)
	// PurgeExpired removes tokens expired at now and answers how many.
	PurgeExpired(ctx context.Context, now time.Time) (int64, error)
}

// OrderStatsRepository keeps one fact per order (idempotent per order id).
type OrderStatsRepository interface {
	// Record stores the fact unless a newer version (later UpdatedAt) is stored. It
	// answers whether it applied and the customer the order belonged to before ("" if
	// new or unchanged).
	Record(ctx context.Context, f domain.OrderFact) (applied bool, previousCustomer domain.CustomerID, err error)
	// ForCustomer returns the customer's facts.
	ForCustomer(ctx context.Context, customer domain.CustomerID) ([]domain.OrderFact, error)
	// DeleteForCustomer removes the customer's facts.
	DeleteForCustomer(ctx context.Context, customer domain.CustomerID) error
}

// SegmentRepository stores segments.
type SegmentRepository interface {
	// Create inserts a segment; a duplicate name (case-insensitive) is domain.ErrSegmentNameTaken.
	Create(ctx context.Context, s *domain.Segment) error
	// Get returns a segment, or domain.ErrSegmentNotFound.
	Get(ctx context.Context, id domain.SegmentID) (*domain.Segment, error)
	// List returns a page of segments (by name) and the total.
	List(ctx context.Context, offset, limit int) ([]*domain.Segment, int64, error)
	// Delete removes a segment, or answers domain.ErrSegmentNotFound.
	Delete(ctx context.Context, id domain.SegmentID) error
}

// PrivacyAction is an audited privacy operation.
type PrivacyAction string

// Audited actions.
const (
	ActionExport    PrivacyAction = "export"
	ActionAnonymize PrivacyAction = "anonymize"
	ActionDelete    PrivacyAction = "delete"
)

// AuditEntry records who ran a privacy operation on which customer, and when.
type AuditEntry struct {
	ID         string
	CustomerID domain.CustomerID
	Action     PrivacyAction
	Actor      string // the principal's client id, e.g. "key:AbCd1234", "staff:<id>", "customer:<id>"
	ActorKind  string // api_key, staff, customer
	CreatedAt  time.Time
}

// AuditRepository stores the privacy audit trail.
type AuditRepository interface {
	// Record appends an entry.
	Record(ctx context.Context, e AuditEntry) error
	// ForCustomer lists the customer's entries, oldest first.
	ForCustomer(ctx context.Context, customer domain.CustomerID) ([]AuditEntry, error)
}
