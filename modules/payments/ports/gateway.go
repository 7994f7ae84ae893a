// Package ports declares what the payments module needs: a provider-neutral payment
// gateway (one adapter per provider) and its stores.
package ports

import (
	"context"
	"net/http"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/payments/domain"
	"github.com/gocommerce/commerce/platform/apperr"
)

// MethodSpec describes one payment method a gateway offers (the methods operation).
type MethodSpec struct {
	MethodType           string // card, bank_transfer, paypal, alipay, wechat_pay
	DisplayName          string
	RequiresRedirect     bool
	Supports3DS          bool
	SupportsTokenization bool
	SupportsRecurring    bool
	CardFields           bool     // required_fields are the card fields
	Currencies           []string // upper-case ISO 4217 codes
	// MinMinor and MaxMinor bound the amount in the currency's minor units
	// (50 is 0.50 USD or 50 JPY).
	MinMinor, MaxMinor int64
}

// Supports reports whether the method takes the currency and the amount.
func (m MethodSpec) Supports(c domain.Currency, amount decimal.Decimal) bool {
	if !m.SupportsCurrency(c) {
		return false
	}
	minor := domain.ToMinor(amount, c)
	return minor >= m.MinMinor && minor <= m.MaxMinor
}

// SupportsCurrency reports whether the method takes the currency.
func (m MethodSpec) SupportsCurrency(c domain.Currency) bool {
	for _, x := range m.Currencies {
		if x == string(c) {
			return true
		}
	}
	return false
}

// SavedInstrument is a previously tokenized method.
type SavedInstrument struct {
	ProviderToken    string
	ProviderCustomer string
	Card             domain.CardDetails
}

// BankTransfer is a bank account debit instruction (never stored; last four only).
type BankTransfer struct {
	AccountNumber     string
	RoutingNumber     string
	AccountHolderName string
	BankName          string
}

// ChargeRequest asks a gateway to authorize (and, with Capture, capture) a payment.
type ChargeRequest struct {
	PaymentID      string
	Amount         decimal.Decimal
	Currency       domain.Currency
	MethodType     string // card, saved_card, bank_transfer, or the gateway's wallet type
	Card           *domain.Card
	Saved          *SavedInstrument
	BankTransfer   *BankTransfer
	Capture        bool   // false: authorize only (capture_method manual)
	ReturnURL      string // where the customer comes back after an action
	ActionURL      string // the service's hosted action page for this payment (test gateway)
	NotifyURL      string // this gateway's webhook URL on this service
	Description    string
	CustomerEmail  string
	Metadata       map[string]string
	IdempotencyKey string // forwarded to providers that take one
	SaveMethod     bool   // keep the method for later payments
}

// ChargeResult is a gateway's answer to a charge or a completion.
type ChargeResult struct {
	// Status is succeeded, requires_capture, requires_action, processing or failed.
	Status            domain.Status
	TransactionID     string
	ProviderReference string
	Card              *domain.CardDetails // the provider's view of the card, when it has one
	ProviderMethod    string              // the provider's reusable token, when it made one
	ProviderCustomer  string
	Action            *domain.Action // for requires_action; ExpiresAt zero means the service's default
	DeclineCode       string         // for failed: provider code such as card_declined
	DeclineMessage    string
	ReceiptURL        string
}

// CompleteRequest finishes a payment after the customer's action (3D Secure, redirect).
type CompleteRequest struct {
	PaymentID         string
	TransactionID     string
	ProviderReference string
	Amount            decimal.Decimal
	Currency          domain.Currency
	Capture           bool
	ActionData        map[string]string // payment_intent, payment_intent_client_secret, ...
}

// CaptureRequest captures an authorized payment.
type CaptureRequest struct {
	PaymentID         string
	TransactionID     string
	ProviderReference string
	Amount            decimal.Decimal
	Currency          domain.Currency
}

// CaptureResult is a capture's answer.
type CaptureResult struct {
	ProviderReference string // the capture's id when the provider makes a new one
}

// CancelRequest voids a payment that was not captured.
type CancelRequest struct {
	PaymentID         string
	TransactionID     string
	ProviderReference string
	Status            domain.Status
}

// RefundRequest gives money back.
type RefundRequest struct {
	RefundID          string
	PaymentID         string
	TransactionID     string
	ProviderReference string
	Amount            decimal.Decimal
	PaymentAmount     decimal.Decimal
	Currency          domain.Currency
	Reason            string
	NotifyURL         string
}

// RefundResult is a refund's answer.
type RefundResult struct {
	ProviderRefundID string
	Status           domain.RefundStatus // pending, succeeded or failed
	FailureReason    string
}

// SaveMethodRequest tokenizes a method for later payments.
type SaveMethodRequest struct {
	Card  domain.Card
	Owner string
	Email string
}

// SavedMethodResult is the provider's token.
type SavedMethodResult struct {
	ProviderToken    string
	ProviderCustomer string
	Card             *domain.CardDetails
}

// EventKind is what a provider event means for this service.
type EventKind string

// Provider event kinds.
const (
	EventIgnored              EventKind = "ignored"
	EventPaymentSucceeded     EventKind = "payment_succeeded"
	EventPaymentFailed        EventKind = "payment_failed"
	EventPaymentCanceled      EventKind = "payment_canceled"
	EventRefundUpdated        EventKind = "refund_updated"
	EventInvoicePaid          EventKind = "invoice_paid"
	EventInvoicePaymentFailed EventKind = "invoice_payment_failed"
)

// WebhookRefund is one refund a provider event reports.
type WebhookRefund struct {
	ProviderRefundID string
	RefundID         string // ours, when the provider echoes our metadata
	Amount           decimal.Decimal
	Status           domain.RefundStatus
}

// WebhookEvent is a verified provider event in neutral terms.
type WebhookEvent struct {
	ID                string // provider's event id (deduplication key)
	Type              string // provider's event type (payment_intent.succeeded, ...)
	Kind              EventKind
	TransactionID     string
	ProviderReference string
	PaymentID         string // ours, when the provider echoes our metadata
	Amount            decimal.Decimal
	Currency          domain.Currency
	AmountRefunded    decimal.Decimal // total refunded so far (refund events)
	Refunds           []WebhookRefund
	DeclineCode       string
	DeclineMessage    string
	Subscription      map[string]string // invoice events: subscription_id, invoice_id, customer
	CustomerEmail     string
	OccurredAt        time.Time
	Payload           []byte
}

// Gateway is a payment provider behind one neutral interface. Implementations make
// network calls: callers never hold a database transaction across them.
type Gateway interface {
	ID() string
	Name() string
	// Methods lists the payment methods the gateway offers.
	Methods() []MethodSpec
	// CaptureMethod is the configured capture method (automatic or manual).
	CaptureMethod() string
	// Authorize authorizes a payment and captures it when req.Capture is set.
	Authorize(ctx context.Context, req ChargeRequest) (ChargeResult, error)
	// Complete finishes a payment after the customer's action.
	Complete(ctx context.Context, req CompleteRequest) (ChargeResult, error)
	// Capture captures an authorized payment.
	Capture(ctx context.Context, req CaptureRequest) (CaptureResult, error)
	// Cancel voids a payment that was not captured.
	Cancel(ctx context.Context, req CancelRequest) error
	// Refund gives money back on a captured payment.
	Refund(ctx context.Context, req RefundRequest) (RefundResult, error)
	// SaveMethod tokenizes a method for later payments (domain.ErrInvalidPaymentMethod
	// when the gateway cannot).
	SaveMethod(ctx context.Context, req SaveMethodRequest) (SavedMethodResult, error)
	// DeleteMethod forgets a tokenized method at the provider.
	DeleteMethod(ctx context.Context, providerToken, providerCustomer string) error
	// ParseWebhook verifies a provider's webhook request and reads its event
	// (domain.ErrInvalidSignature when the signature does not verify).
	ParseWebhook(ctx context.Context, headers http.Header, body []byte) (WebhookEvent, error)
}

// Gateways is the set of enabled gateways.
type Gateways interface {
	// Get returns an enabled gateway.
	Get(id string) (Gateway, bool)
	// Enabled lists the enabled gateways in a stable order.
	Enabled() []Gateway
	// Default is payment.default_gateway.
	Default() string
}

// Check answers a payment the method cannot take: INVALID_CURRENCY for a currency it
// does not accept, INVALID_AMOUNT outside its bounds (naming them), and a validation
// error for save_payment_method unless a new card is paid on a method that tokenizes.
func (m MethodSpec) Check(gatewayID string, c domain.Currency, amount decimal.Decimal, save, newCard bool) error {
	if !m.SupportsCurrency(c) {
		return domain.ErrInvalidCurrency.WithMessage("Gateway %s does not accept %s", gatewayID, c)
	}
	if !m.Supports(c, amount) {
		return domain.ErrInvalidAmount.WithMessage("Amount must be between %s and %s %s",
			domain.FormatAmount(domain.FromMinor(m.MinMinor, c), c), domain.FormatAmount(domain.FromMinor(m.MaxMinor, c), c), c)
	}
	if save && (!newCard || !m.SupportsTokenization) {
		return apperr.Validation(map[string]string{"save_payment_method": "only a new card on a gateway that supports tokenization can be saved"})
	}
	return nil
}
