// Package ports declares what the subscriptions module needs, in its own words: its
// store, and the orders, payments, catalog, customers and notifications modules.
package ports

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/subscriptions/domain"
)

// Filter narrows a list of subscriptions (CustomerID "" and Status "": every one).
type Filter struct {
	CustomerID string
	Status     string
}

// FailedFilter narrows the failed-payments list: past_due (retries exhausted, in
// grace) or in_dunning (a retry pending); "" both.
type FailedFilter struct {
	Status string
}

// Failed is one subscription in dunning with its open invoice.
type Failed struct {
	Subscription domain.Subscription
	Invoice      domain.Invoice
}

// Claim takes an invoice's charge for one worker: the invoice moves to billed with the
// token and the lease, if it is in one of the states the claim allows.
type Claim struct {
	InvoiceID string
	Token     string
	Until     time.Time
	Now       time.Time
	// Retry allows a failed invoice whose retry is due (Manual: any failed invoice).
	Retry, Manual bool
}

// Repository stores subscriptions, invoices, charge attempts and dunning emails.
// Every invariant holds through conditional updates and unique indexes.
type Repository interface {
	Create(ctx context.Context, s *domain.Subscription) error
	Get(ctx context.Context, id string) (*domain.Subscription, error)
	// Update writes the subscription when its version matches (ErrStale otherwise)
	// and increments the version.
	Update(ctx context.Context, s *domain.Subscription) error
	List(ctx context.Context, f Filter, offset, limit int) ([]domain.Subscription, int64, error)
	ListByCustomer(ctx context.Context, customerID string) ([]domain.Subscription, error)
	// Due lists subscriptions whose next cycle is due at now (active or trialing),
	// oldest first, at most limit.
	Due(ctx context.Context, now time.Time, limit int) ([]string, error)
	// GraceOver lists past_due subscriptions without a pending retry whose grace ended.
	GraceOver(ctx context.Context, now time.Time, limit int) ([]string, error)

	// CreateInvoice stores the invoice unless the subscription already has one for
	// the cycle; it reports whether it did.
	CreateInvoice(ctx context.Context, inv *domain.Invoice) (bool, error)
	GetInvoice(ctx context.Context, id string) (*domain.Invoice, error)
	InvoiceOfCycle(ctx context.Context, subscriptionID string, cycle int) (*domain.Invoice, error)
	InvoiceByPayment(ctx context.Context, paymentID string) (*domain.Invoice, error)
	Invoices(ctx context.Context, subscriptionID string) ([]domain.Invoice, error)
	// OpenInvoice is the subscription's invoice in dunning (failed or billed), or
	// ErrInvoiceNotFound.
	OpenInvoice(ctx context.Context, subscriptionID string) (*domain.Invoice, error)
	// Claim moves the invoice to billed for the claim's token; false when another
	// worker holds it or it is not chargeable.
	Claim(ctx context.Context, c Claim) (bool, error)
	// Settle writes the invoice's outcome if its status is still from (and, when
	// token is set, the claim is still token's); false when it is not.
	Settle(ctx context.Context, inv *domain.Invoice, from []domain.InvoiceStatus, token string) (bool, error)
	// SetInvoiceOrder records the order made for the invoice.
	SetInvoiceOrder(ctx context.Context, invoiceID, orderID string) error
	// Pending lists invoices to charge now: pending, due retries and billed ones
	// whose claim lapsed (a crashed worker), at most limit.
	Pending(ctx context.Context, now time.Time, limit int) ([]string, error)
	// PaidWithoutOrder lists paid invoices whose order is not made yet.
	PaidWithoutOrder(ctx context.Context, limit int) ([]string, error)
	// DunningSince lists invoices whose dunning started at or after since.
	DunningSince(ctx context.Context, since time.Time) ([]domain.Invoice, error)
	// Failed lists subscriptions in dunning with their open invoice.
	Failed(ctx context.Context, f FailedFilter, offset, limit int) ([]Failed, int64, error)

	AddAttempt(ctx context.Context, a *domain.Attempt) error
	Attempts(ctx context.Context, subscriptionID string) ([]domain.Attempt, error)
	AddEmail(ctx context.Context, e *domain.Email) error
	Emails(ctx context.Context, subscriptionID string) ([]domain.Email, error)
}

// ChargeRequest is a merchant-initiated charge of a saved payment method.
type ChargeRequest struct {
	Gateway, PaymentMethodID, CustomerID, OrderID string
	Amount                                        decimal.Decimal
	Currency                                      string
	IdempotencyKey                                string
	Description                                   string
	Metadata                                      map[string]any
}

// ChargeResult is a charge's outcome: paid, or declined with the provider's code.
type ChargeResult struct {
	PaymentID               string
	Paid                    bool
	ErrorCode, ErrorMessage string
}

// Payments charges saved payment methods (never inside a transaction).
type Payments interface {
	Charge(ctx context.Context, r ChargeRequest) (ChargeResult, error)
	// OwnsMethod reports whether the customer saved the payment method the token names.
	OwnsMethod(ctx context.Context, customerID, token string) (bool, error)
}

// OrderDraft is the order of a paid cycle.
type OrderDraft struct {
	ID, CustomerID, ProductID, VariantID string
	Currency                             string
	Price                                decimal.Decimal
	PaymentID                            string
	Note                                 string
	Attributes                           map[string]any
}

// Orders reads and creates orders.
type Orders interface {
	// Exists reports whether the order exists.
	Exists(ctx context.Context, id string) (bool, error)
	// CustomerOf is the order's customer ("" for a guest order); ORDER_NOT_FOUND.
	CustomerOf(ctx context.Context, id string) (string, error)
	// Create creates the cycle's order, paid by the payment (joins ctx's transaction).
	Create(ctx context.Context, d OrderDraft) error
}

// Catalog names products.
type Catalog interface {
	// ProductName is the product's title; PRODUCT_NOT_FOUND.
	ProductName(ctx context.Context, productID string) (string, error)
}

// Customer is who a dunning email goes to.
type Customer struct {
	ID, Email, Name string
}

// Customers reads customers.
type Customers interface {
	Customer(ctx context.Context, id string) (Customer, error)
}

// Message is a dunning email to send.
type Message struct {
	TemplateID, Recipient, CustomerID string
	Variables                         map[string]any
	Metadata                          map[string]any
}

// Notifier sends emails through the notifications module (joins ctx's transaction);
// it answers the notification id.
type Notifier interface {
	Send(ctx context.Context, m Message) (string, error)
}
