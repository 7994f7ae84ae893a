// Package api is what other modules (and cmd) may import from subscriptions: the
// subscription and invoice resources (the HTTP shapes, which are also the data of the
// subscription.* and invoice.* events), the event types and Queries, the query side the
// customers module's data export reads. No framework imports.
package api

import (
	"context"
	"time"
)

// Event types, each written to the outbox in the transaction of its change
// (docs/decisions/0204 says which operation raises each). Data: a Subscription for
// subscription.*, an Invoice for invoice.*.
const (
	EventSubscriptionCreated   = "subscription.created"
	EventSubscriptionUpdated   = "subscription.updated"
	EventSubscriptionPaused    = "subscription.paused"
	EventSubscriptionResumed   = "subscription.resumed"
	EventSubscriptionCancelled = "subscription.cancelled"
	EventSubscriptionExpired   = "subscription.expired"
	EventSubscriptionRenewed   = "subscription.renewed"
	EventSubscriptionPastDue   = "subscription.past_due"
	EventSubscriptionRecovered = "subscription.recovered"

	EventInvoiceCreated       = "invoice.created"
	EventInvoicePaid          = "invoice.paid"
	EventInvoicePaymentFailed = "invoice.payment_failed"
	EventInvoiceCancelled     = "invoice.cancelled"
)

// Subscription is the subscription resource (Part 2 "Subscription").
type Subscription struct {
	ID                 string     `json:"id"`
	CustomerID         string     `json:"customer_id"`
	OrderID            string     `json:"order_id"`
	ProductID          string     `json:"product_id"`
	VariantID          *string    `json:"variant_id"`
	Status             string     `json:"status"`
	Interval           string     `json:"interval"`
	IntervalCount      int        `json:"interval_count"`
	Currency           string     `json:"currency"`
	Amount             string     `json:"amount"`
	SetupFee           string     `json:"setup_fee"`
	TrialDays          int        `json:"trial_days"`
	TrialEndsAt        *time.Time `json:"trial_ends_at"`
	CurrentCycle       int        `json:"current_cycle"`
	MinCycles          int        `json:"min_cycles"`
	MaxCycles          *int       `json:"max_cycles"`
	StartsAt           time.Time  `json:"starts_at"`
	NextBillingAt      *time.Time `json:"next_billing_at"`
	LastBillingAt      *time.Time `json:"last_billing_at"`
	EndsAt             *time.Time `json:"ends_at"`
	CancelledAt        *time.Time `json:"cancelled_at"`
	CancellationReason *string    `json:"cancellation_reason"`
	PaymentMethodID    string     `json:"payment_method_id"`
	Gateway            string     `json:"gateway"`
	Notes              string     `json:"notes"`
	CreatedAt          time.Time  `json:"created_at"`
	UpdatedAt          time.Time  `json:"updated_at"`
}

// Invoice is the subscription invoice resource (Part 2 "Subscription invoice").
type Invoice struct {
	ID             string     `json:"id"`
	SubscriptionID string     `json:"subscription_id"`
	OrderID        *string    `json:"order_id"`
	CycleNumber    int        `json:"cycle_number"`
	PeriodStart    time.Time  `json:"period_start"`
	PeriodEnd      time.Time  `json:"period_end"`
	Subtotal       string     `json:"subtotal"`
	TaxTotal       string     `json:"tax_total"`
	Total          string     `json:"total"`
	Status         string     `json:"status"`
	PaidAt         *time.Time `json:"paid_at"`
	PaymentID      *string    `json:"payment_id"`
	FailedAttempts int        `json:"failed_attempts"`
	LastFailedAt   *time.Time `json:"last_failed_at"`
	FailureReason  *string    `json:"failure_reason"`
	NextRetryAt    *time.Time `json:"next_retry_at"`
	RetryCount     int        `json:"retry_count"`
	CreatedAt      time.Time  `json:"created_at"`
	UpdatedAt      time.Time  `json:"updated_at"`
}

// ExportedSubscription is one subscription of a customer's data export, with its
// invoices.
type ExportedSubscription struct {
	Subscription
	Invoices []Invoice `json:"invoices"`
}

// Queries is the query side: it depends on no other module, so customers may read it
// for its data export without a wire cycle (docs/decisions/0108).
type Queries interface {
	// ExportSubscriptions returns every subscription of the customer with its
	// invoices, newest first.
	ExportSubscriptions(ctx context.Context, customerID string) ([]ExportedSubscription, error)
}
