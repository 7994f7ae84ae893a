package domain

import (
	"time"

	"github.com/shopspring/decimal"
)

// RefundStatus is a refund's state.
type RefundStatus string

// Refund states.
const (
	RefundPending   RefundStatus = "pending"
	RefundSucceeded RefundStatus = "succeeded"
	RefundFailed    RefundStatus = "failed"
)

// Refund reasons (Part 1 "Refund request").
var RefundReasons = map[string]bool{"duplicate": true, "fraudulent": true, "requested_by_customer": true}

// Refund is money given back on a payment.
type Refund struct {
	ID               string // ref_<uuid>
	PaymentID        string
	Amount           decimal.Decimal
	Currency         Currency
	Status           RefundStatus
	Reason           string
	Metadata         map[string]any
	ProviderRefundID string
	FailureReason    string
	CreatedAt        time.Time
	UpdatedAt        time.Time
}

// SavedMethod is a tokenized payment method kept for later payments. It holds the
// provider's token and the card's displayable details only.
type SavedMethod struct {
	Token            string // pm_<uuid>
	Owner            string // "customer:<id>", "api_key:<id>" or "staff:<id>"
	Gateway          string
	ProviderToken    string
	ProviderCustomer string
	MethodType       string
	Card             CardDetails
	IsDefault        bool
	ExpiresAt        *time.Time
	CreatedAt        time.Time
}

// CustomerOwner is the owner of the methods a customer saved.
func CustomerOwner(customerID string) string { return "customer:" + customerID }

// SavedBy reports whether the customer saved the method (never for an empty id).
func (m *SavedMethod) SavedBy(customerID string) bool {
	return customerID != "" && m.Owner == CustomerOwner(customerID)
}
