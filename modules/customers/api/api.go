// Package api is what other modules (and cmd) may import from customers: the
// Customers, AccountLinks and Segments interfaces, their DTOs, errors and the event
// payloads. No framework imports.
package api

import (
	"context"
	"time"

	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/postal"
)

// Customer states.
const (
	StateEnabled  = "enabled"
	StateDisabled = "disabled"
	StateInvited  = "invited"
	StateDeclined = "declined"
)

// Event types published by customers, each through the outbox in the transaction of
// its change (docs/decisions/0046 lists their payloads).
const (
	// EventCustomerCreated: data is a CustomerCreated (the customer).
	EventCustomerCreated = "customer.created"
	// EventCustomerUpdated: data is a CustomerUpdated (the customer after PUT/PATCH).
	EventCustomerUpdated = "customer.updated"
	// EventCustomerDeleted: data is a CustomerDeleted.
	EventCustomerDeleted = "customer.deleted"
	// EventCustomerEnabled: data is the customer (activation, or an admin enabling it).
	EventCustomerEnabled = "customer.enabled"
	// EventCustomerDisabled: data is the customer (an admin disabling it, anonymization).
	EventCustomerDisabled = "customer.disabled"
	// EventCustomerInvited: data is a CustomerInvited; the activation link is fetched
	// with AccountLinks.ActivationLink (the token is never in the event).
	EventCustomerInvited = "customer.invited"
	// EventCustomerPasswordReset: a reset was requested; data is a
	// CustomerPasswordReset; the link comes from AccountLinks.PasswordResetLink.
	EventCustomerPasswordReset = "customer.password_reset"
	// EventCustomerAddressCreated, Updated, Deleted: data is the Address.
	EventCustomerAddressCreated = "customer.address_created"
	EventCustomerAddressUpdated = "customer.address_updated"
	EventCustomerAddressDeleted = "customer.address_deleted"
	// EventCustomerExported: data is a CustomerExported (no personal data).
	EventCustomerExported = "customer.exported"
	// EventCustomerAnonymized: data is the anonymized customer.
	EventCustomerAnonymized = "customer.anonymized"
)

// Customer is the customer resource (Part 2 "Customer") as other modules and event
// consumers see it. Strings are never null ("" when unset); ids, timestamps and
// objects that may not exist are null. Money is a decimal string in the currency's
// minor units. The JSON tags give the event payloads their wire shape.
type Customer struct {
	ID                string         `json:"id"`
	Email             string         `json:"email"`
	Phone             string         `json:"phone"`
	FirstName         string         `json:"first_name"`
	LastName          string         `json:"last_name"`
	AcceptsMarketing  bool           `json:"accepts_marketing"`
	MarketingOptInAt  *time.Time     `json:"marketing_opt_in_at"`
	TaxExempt         bool           `json:"tax_exempt"`
	TaxExemptions     []string       `json:"tax_exemptions"`
	Currency          string         `json:"currency"`
	Language          string         `json:"language"`
	Note              string         `json:"note"`
	Tags              []string       `json:"tags"`
	VerifiedEmail     bool           `json:"verified_email"`
	State             string         `json:"state"`
	LastOrderID       *string        `json:"last_order_id"`
	LastOrderName     *string        `json:"last_order_name"`
	OrdersCount       int            `json:"orders_count"`
	TotalSpent        string         `json:"total_spent"`
	AverageOrderValue string         `json:"average_order_value"`
	DefaultAddress    *Address       `json:"default_address"`
	Addresses         []Address      `json:"addresses"`
	Metafields        map[string]any `json:"metafields"`
	CreatedAt         time.Time      `json:"created_at"`
	UpdatedAt         time.Time      `json:"updated_at"`
}

// Address is a saved customer address: Part 2's address shape (postal.Address, its
// members in place) with id, customer_id, the default flags and timestamps. Country is
// ISO 3166-1 alpha-2; State is the province or region.
type Address struct {
	ID         string `json:"id"`
	CustomerID string `json:"customer_id"`
	postal.Address
	IsDefaultShipping bool      `json:"is_default_shipping"`
	IsDefaultBilling  bool      `json:"is_default_billing"`
	CreatedAt         time.Time `json:"created_at"`
	UpdatedAt         time.Time `json:"updated_at"`
}

// CustomerCreated is the data of a customer.created event: the customer.
type CustomerCreated Customer

// CustomerUpdated is the data of customer.updated, customer.enabled,
// customer.disabled and customer.anonymized: the customer after the change.
type CustomerUpdated Customer

// CustomerInvited is the data of customer.invited: the customer and when the
// activation link expires.
type CustomerInvited struct {
	Customer
	ActivationExpiresAt time.Time `json:"activation_expires_at"`
}

// CustomerPasswordReset is the data of customer.password_reset: the customer and when
// the reset link expires.
type CustomerPasswordReset struct {
	Customer
	ResetExpiresAt time.Time `json:"reset_expires_at"`
}

// CustomerDeleted is the data of customer.deleted.
type CustomerDeleted struct {
	ID              string    `json:"id"`
	AnonymizeOrders bool      `json:"anonymize_orders"`
	DeletedAt       time.Time `json:"deleted_at"`
}

// CustomerExported is the data of customer.exported: who exported whose data, when.
type CustomerExported struct {
	CustomerID string    `json:"customer_id"`
	Actor      string    `json:"actor"`
	ExportedAt time.Time `json:"exported_at"`
}

// CreateCustomerCommand creates a customer. State defaults to enabled.
type CreateCustomerCommand struct {
	Email     string
	FirstName string
	LastName  string
	State     string
}

// Errors other modules may test for with errors.Is (they match on the code).
var (
	ErrCustomerNotFound       = apperr.New(apperr.NotFound, "CUSTOMER_NOT_FOUND", "Customer not found")
	ErrEmailTaken             = apperr.New(apperr.Conflict, "EMAIL_TAKEN", "Email address is already registered")
	ErrInvalidEmail           = apperr.New(apperr.Invalid, "INVALID_EMAIL", "Email address is invalid")
	ErrActivationTokenInvalid = apperr.New(apperr.Invalid, "ACTIVATION_TOKEN_INVALID", "Activation token is invalid or expired")
	ErrSegmentNotFound        = apperr.New(apperr.NotFound, "SEGMENT_NOT_FOUND", "Segment not found")
	ErrAddressNotFound        = apperr.New(apperr.NotFound, "ADDRESS_NOT_FOUND", "Address not found")
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
	// CustomerContact returns what an order takes from its customer, by id, or by
	// email (case-insensitive) when id is "", in one narrow read; ErrCustomerNotFound.
	CustomerContact(ctx context.Context, id, email string) (Contact, error)
}

// Contact is what an order takes from its customer (CustomerContact).
type Contact struct {
	ID, Email, Phone, FirstName, LastName string
}

// ContactOf is c's contact.
func ContactOf(c Customer) Contact {
	return Contact{ID: c.ID, Email: c.Email, Phone: c.Phone, FirstName: c.FirstName, LastName: c.LastName}
}

// AccountLink is an emailed account link: the URL (the storefront's
// /account/activate/{customer_id}/{token} or /account/reset/{customer_id}/{token} under
// http.public_url), the raw token in it and its expiry.
type AccountLink struct {
	CustomerID string
	URL        string
	Token      string
	ExpiresAt  time.Time
}

// AccountLinks gives the notifications module the links to email when it handles
// customer.invited and customer.password_reset (the raw tokens are never stored nor
// put in events; docs/decisions/0042). A link is the same on every call until the token
// is used, replaced or expired; then the answer is ErrActivationTokenInvalid.
type AccountLinks interface {
	// ActivationLink returns the customer's current invite link.
	ActivationLink(ctx context.Context, customerID string) (AccountLink, error)
	// PasswordResetLink returns the customer's current password reset link.
	PasswordResetLink(ctx context.Context, customerID string) (AccountLink, error)
}

// Segments lets other modules (e.g. coupon eligibility) test segment membership.
type Segments interface {
	// InSegment reports whether the customer matches the segment's query now;
	// ErrSegmentNotFound for an unknown segment.
	InSegment(ctx context.Context, segmentID, customerID string) (bool, error)
}

// Addresses lets other modules read a customer's saved addresses (carts checks that a
// shipping address is its customer's before tax reads it: docs/decisions/0101).
type Addresses interface {
	// CustomerAddress returns one of the customer's saved addresses, or
	// ErrAddressNotFound when the customer has none with that id (whoever else's it is).
	CustomerAddress(ctx context.Context, customerID, addressID string) (Address, error)
}
