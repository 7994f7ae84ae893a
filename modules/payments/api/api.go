// Package api is what other modules (orders, checkout, subscriptions) and cmd may import
// from payments: the Payments interface, its DTOs, its errors and its event payloads.
// No framework imports. Calls through this interface are trusted (no principal checks);
// card data passed in is never stored or logged.
package api

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/apperr"
)

// Event types (docs/decisions/0053-payment-events.md says which operation raises each).
const (
	EventPaymentCreated         = "payment.created"
	EventPaymentSucceeded       = "payment.succeeded"
	EventPaymentFailed          = "payment.failed"
	EventPaymentCaptured        = "payment.captured"
	EventPaymentCanceled        = "payment.canceled"
	EventPaymentRequiresAction  = "payment.requires_action"
	EventPaymentActionCompleted = "payment.action_completed"
	EventRefundCreated          = "refund.created"
	EventRefundSucceeded        = "refund.succeeded"
	EventRefundFailed           = "refund.failed"
)

// Result types of initiate and complete.
const (
	ResultSuccess        = "success"
	ResultRequiresAction = "requires_action"
	ResultFailed         = "failed"
)

// Payment statuses.
const (
	StatusPending           = "pending"
	StatusRequiresAction    = "requires_action"
	StatusRequiresCapture   = "requires_capture"
	StatusProcessing        = "processing"
	StatusSucceeded         = "succeeded"
	StatusPartiallyRefunded = "partially_refunded"
	StatusRefunded          = "refunded"
	StatusFailed            = "failed"
	StatusCanceled          = "canceled"
)

// Errors other modules may test for with errors.Is (they match on the code).
var (
	ErrPaymentNotFound      = apperr.New(apperr.NotFound, "PAYMENT_NOT_FOUND", "Payment not found")
	ErrInvalidAmount        = apperr.New(apperr.Invalid, "INVALID_AMOUNT", "Invalid amount")
	ErrInvalidCurrency      = apperr.New(apperr.Invalid, "INVALID_CURRENCY", "Invalid currency")
	ErrInvalidPaymentMethod = apperr.New(apperr.Invalid, "INVALID_PAYMENT_METHOD", "Payment method is invalid")
	ErrAlreadyCaptured      = apperr.New(apperr.Conflict, "ALREADY_CAPTURED", "Payment has already been captured")
	ErrAlreadyRefunded      = apperr.New(apperr.Conflict, "ALREADY_REFUNDED", "Payment has already been fully refunded")
	ErrRefundAmountInvalid  = apperr.New(apperr.Invalid, "REFUND_AMOUNT_INVALID", "Refund amount is invalid")
	ErrGatewayNotFound      = apperr.New(apperr.NotFound, "GATEWAY_NOT_FOUND", "Payment gateway not found or not enabled")
	ErrIdempotencyKeyReused = apperr.New(apperr.Conflict, "IDEMPOTENCY_KEY_REUSED", "Idempotency key reused")
	ErrProcessingError      = apperr.New(apperr.PaymentRequired, "PROCESSING_ERROR", "Processing error")
)

// Card is raw card data (never stored).
type Card struct {
	Number   string
	ExpMonth int
	ExpYear  int
	CVC      string
	Name     string
}

// BankTransfer is a bank account debit.
type BankTransfer struct {
	AccountNumber     string
	RoutingNumber     string
	AccountHolderName string
	BankName          string
}

// PaymentMethodInput is the payment_method of initiate: Type card (Card), saved_card
// (Token pm_<uuid>), bank_transfer (BankTransfer) or a wallet gateway's type (paypal,
// alipay, wechat_pay; may be empty for those gateways).
type PaymentMethodInput struct {
	Type         string
	Card         *Card
	Token        string
	CVC          string // optional re-entered CVC for a saved card
	BankTransfer *BankTransfer
}

// InitiateCommand starts a payment. GatewayID empty means payment.default_gateway.
type InitiateCommand struct {
	GatewayID         string
	Amount            string // decimal string in the currency's minor units
	Currency          string
	PaymentMethod     PaymentMethodInput
	OrderID           string
	CustomerEmail     string
	CustomerID        string
	Description       string
	Metadata          map[string]any
	ReturnURL         string
	IdempotencyKey    string
	SavePaymentMethod bool
}

// MethodDetails is the payment_method of a success body (no card number, no CVC).
type MethodDetails struct {
	MethodType     string  `json:"method_type"`
	LastFour       string  `json:"last_four"`
	CardBrand      string  `json:"card_brand"`
	ExpMonth       int     `json:"exp_month"`
	ExpYear        int     `json:"exp_year"`
	CardholderName string  `json:"cardholder_name"`
	Token          *string `json:"token"`
}

// Action is a requires_action answer's action.
type Action struct {
	Type      string         `json:"action_type"`
	Data      map[string]any `json:"action_data"`
	ExpiresAt time.Time      `json:"expires_at"`
}

// PaymentResult is the answer of initiate, complete and capture, distinguished by Type.
type PaymentResult struct {
	Type          string         `json:"type"`
	PaymentID     string         `json:"payment_id"`
	TransactionID string         `json:"transaction_id,omitempty"`
	PaymentStatus string         `json:"payment_status,omitempty"`
	PaymentMethod *MethodDetails `json:"payment_method,omitempty"`
	ReceiptURL    string         `json:"receipt_url,omitempty"`
	Action        *Action        `json:"action,omitempty"`
	// Failed: provider code (card_declined, ...), message, and whether a retry may help.
	ErrorCode    string `json:"error_code,omitempty"`
	ErrorMessage string `json:"error_message,omitempty"`
	RetryAllowed bool   `json:"retry_allowed,omitempty"`
	// SpecCode is the spec's payment code of a failure (CARD_DECLINED, ...), which
	// decides its HTTP status (402).
	SpecCode string `json:"spec_code,omitempty"`
	// Payment is the payment as the answer left it (Record sets it): a caller may pass
	// it on instead of reading the payment again (docs/decisions/0229). Not answered
	// over HTTP.
	Payment *Payment `json:"-"`
}

// MethodSummary is a payment record's payment_method.
type MethodSummary struct {
	MethodType string `json:"method_type"`
	LastFour   string `json:"last_four"`
	CardBrand  string `json:"card_brand"`
}

// Payment is the payment status record as other modules see it.
type Payment struct {
	ID             string // pay_<uuid>
	Status         string
	Amount         decimal.Decimal
	AmountCaptured decimal.Decimal
	AmountRefunded decimal.Decimal
	Currency       string
	Gateway        string
	TransactionID  string
	CaptureMethod  string
	PaymentMethod  MethodSummary
	OrderID        string
	CustomerID     string
	CustomerEmail  string
	Metadata       map[string]any
	ErrorCode      string
	ErrorMessage   string
	CreatedAt      time.Time
	CompletedAt    *time.Time
}

// PaymentEvent is the data of every payment.* event: the payment status record with
// amounts as decimal strings, plus the subscription details of provider invoice events.
type PaymentEvent struct {
	PaymentID      string            `json:"payment_id"`
	Status         string            `json:"status"`
	Amount         string            `json:"amount"`
	AmountRefunded string            `json:"amount_refunded"`
	Currency       string            `json:"currency"`
	Gateway        string            `json:"gateway"`
	TransactionID  string            `json:"transaction_id"`
	CaptureMethod  string            `json:"capture_method"`
	PaymentMethod  MethodSummary     `json:"payment_method"`
	OrderID        string            `json:"order_id,omitempty"`
	CustomerID     string            `json:"customer_id,omitempty"`
	CustomerEmail  string            `json:"customer_email,omitempty"`
	Metadata       map[string]any    `json:"metadata,omitempty"`
	ErrorCode      string            `json:"error_code,omitempty"`
	ErrorMessage   string            `json:"error_message,omitempty"`
	ActionType     string            `json:"action_type,omitempty"`
	Subscription   map[string]string `json:"subscription,omitempty"`
	CreatedAt      time.Time         `json:"created_at"`
	CompletedAt    *time.Time        `json:"completed_at"`
}

// RefundCommand refunds a captured payment (Amount empty: everything left).
type RefundCommand struct {
	PaymentID string
	Amount    string
	Reason    string
	Metadata  map[string]any
	// IdempotencyKey, when set, makes a retry of the same refund answer the first
	// one's refund instead of refunding again (IDEMPOTENCY_KEY_REUSED for a different
	// request with the key).
	IdempotencyKey string
}

// Refund is the refund record.
type Refund struct {
	ID        string // ref_<uuid>
	PaymentID string
	Amount    decimal.Decimal
	Currency  string
	Status    string // pending, succeeded, failed
	Reason    string
	Metadata  map[string]any
	CreatedAt time.Time
}

// RefundEvent is the data of every refund.* event: the refund record with the amount as
// a decimal string.
type RefundEvent struct {
	RefundID      string         `json:"refund_id"`
	PaymentID     string         `json:"payment_id"`
	Amount        string         `json:"amount"`
	Currency      string         `json:"currency"`
	Status        string         `json:"status"`
	Reason        string         `json:"reason"`
	Metadata      map[string]any `json:"metadata,omitempty"`
	FailureReason string         `json:"failure_reason,omitempty"`
	CreatedAt     time.Time      `json:"created_at"`
}

// CaptureCommand captures an authorized payment (Amount empty: the authorized amount).
type CaptureCommand struct {
	PaymentID string
	Amount    string
}

// Prepared is a payment Prepare stored whose gateway call Authorize makes.
type Prepared struct {
	PaymentID string
	// Handle is the payments module's own state of the payment (the card data among
	// it, which is never stored): pass the value back to Authorize as it is.
	Handle any
}

// Answer is the gateway's answer to a prepared payment, not recorded yet.
type Answer struct {
	Prepared
	// Declined: the gateway refused the payment (Record then marks it failed).
	Declined bool
}

// Payments is what the payments module offers other modules. Calls are trusted (no
// principal checks); never call them inside a database transaction (Prepare aside),
// since they talk to the provider.
type Payments interface {
	// Initiate starts a payment; a decline is a PaymentResult of type failed (not an error).
	// It is Prepare, Ask and Record in one.
	Initiate(ctx context.Context, cmd InitiateCommand) (PaymentResult, error)
	// Prepare validates a payment and stores it pending (payment.created) in the
	// transaction ctx carries, if any: a caller's transaction that rolls back leaves no
	// payment. Nothing is asked of the gateway yet.
	Prepare(ctx context.Context, cmd InitiateCommand) (Prepared, error)
	// Ask makes a prepared payment's gateway call (outside any transaction) and keeps
	// the answer for Record; nothing is written.
	Ask(ctx context.Context, p Prepared) (Answer, error)
	// Record writes an answer Ask got (payment.succeeded, payment.failed, ...) in the
	// transaction ctx carries, if any; it may be called again after that transaction
	// rolled back (it records the answer once).
	Record(ctx context.Context, a Answer) (PaymentResult, error)
	// Get returns the payment record, or ErrPaymentNotFound.
	Get(ctx context.Context, paymentID string) (Payment, error)
	// Refund refunds all or part of a captured payment.
	Refund(ctx context.Context, cmd RefundCommand) (Refund, error)
	// Capture captures an authorized (capture_method manual) payment.
	Capture(ctx context.Context, cmd CaptureCommand) (PaymentResult, error)
	// Cancel voids a payment that was not captured.
	Cancel(ctx context.Context, paymentID string) (Payment, error)
	// OwnsSavedMethod reports whether the customer saved the payment method the token
	// names (false for an unknown token): another module takes a token from a customer
	// only when it is theirs.
	OwnsSavedMethod(ctx context.Context, customerID, token string) (bool, error)
}
