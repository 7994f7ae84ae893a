// Package api is what other modules (and cmd) may import from orders: the Orders and
// Queries interfaces, their commands, the order resources (the HTTP shapes, which are
// also the data of the order events), the event types and the errors. No framework
// imports.
package api

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/apperr"
)

// Event types, each written to the outbox in the transaction of its change
// (docs/decisions/0076 lists their data).
const (
	// EventOrderCreated: data is an OrderCreated (the order and send_receipt).
	EventOrderCreated = "order.created"
	// EventOrderUpdated: data is the Order after any other change of it (update, line
	// items, fulfillments, refunds, authorizations and voids).
	EventOrderUpdated = "order.updated"
	// EventOrderCancelled: data is an OrderCancelled (the order, restock, notify_customer).
	EventOrderCancelled = "order.cancelled"
	// EventOrderClosed and EventOrderReopened: data is the Order.
	EventOrderClosed   = "order.closed"
	EventOrderReopened = "order.reopened"
	// EventOrderPaymentReceived: money was received (a captured payment or a manual
	// sale); data is the Order.
	EventOrderPaymentReceived = "order.payment_received"
	// EventOrderFulfillmentCreated, Updated, Cancelled: data is a FulfillmentEvent.
	EventOrderFulfillmentCreated   = "order.fulfillment_created"
	EventOrderFulfillmentUpdated   = "order.fulfillment_updated"
	EventOrderFulfillmentCancelled = "order.fulfillment_cancelled"
	// EventOrderRefundCreated: a refund succeeded; data is a RefundEvent.
	EventOrderRefundCreated = "order.refund_created"
	// EventOrderNoteCreated: data is a NoteEvent.
	EventOrderNoteCreated = "order.note_created"
)

// Order statuses, financial and fulfillment statuses.
const (
	StatusOpen      = "open"
	StatusClosed    = "closed"
	StatusCancelled = "cancelled"

	FinancialPending           = "pending"
	FinancialAuthorized        = "authorized"
	FinancialPaid              = "paid"
	FinancialPartiallyPaid     = "partially_paid"
	FinancialRefunded          = "refunded"
	FinancialPartiallyRefunded = "partially_refunded"
	FinancialVoided            = "voided"

	FulfillmentUnfulfilled = "unfulfilled"
	FulfillmentPartial     = "partial"
	FulfillmentFulfilled   = "fulfilled"
)

// Inventory behaviours of CreateOrderCommand (Shopify's names).
const (
	InventoryBypass                  = "bypass"
	InventoryDecrementIgnoringPolicy = "decrement_ignoring_policy"
	InventoryDecrementObeyingPolicy  = "decrement_obeying_policy"
)

// Errors other modules may test for with errors.Is (they match on the code).
var (
	ErrOrderNotFound         = apperr.New(apperr.NotFound, "ORDER_NOT_FOUND", "Order not found")
	ErrInsufficientInventory = apperr.New(apperr.Invalid, "INSUFFICIENT_INVENTORY", "Not enough stock available")
)

// LineItemInput is a line of a new order: a variant (its product is then found in the
// catalog), or a product and, unless it has only its default variant, a variant of it;
// the price defaults to the variant's.
type LineItemInput struct {
	ProductID string
	VariantID string
	Quantity  int
	Price     string // decimal string; "" for the catalog price
	// Variant, with ProductID and VariantID set, is the variant as the caller has
	// just read it from the catalog (checkout): when every line has it, the catalog is
	// not read again (docs/decisions/0229).
	Variant *LineVariant
}

// LineVariant is what an order's line takes from its catalog variant.
type LineVariant struct {
	ProductTitle     string
	VariantTitle     string // "" for a product's default variant
	SKU              string
	Currency         string
	Price            decimal.Decimal
	Weight           decimal.Decimal
	WeightUnit       string
	RequiresShipping bool
	Taxable          bool
	Tracked          bool // the product's stock is tracked
}

// ShippingLineInput is a shipping charge of a new order.
type ShippingLineInput struct {
	Title, Price, Code, Source string
}

// TaxLineInput is a tax of a new order: a rate (a decimal fraction such as "0.2"), a
// price, or both. Without a price it is the rate times the taxable amount.
type TaxLineInput struct {
	Title, Rate, Price string
}

// DiscountCodeInput is a discount of a new order: the code and the amount it took off.
type DiscountCodeInput struct {
	Code, Amount, Type string
}

// CreateOrderCommand creates an order (the admin create endpoint, and checkout).
type CreateOrderCommand struct {
	// ID, when a UUID, is the new order's id (checkout names the order before it
	// exists: its reservations, coupon uses and payment carry the id); else one is made.
	ID                 string
	CustomerID         string
	Email              string
	Phone              string
	Currency           string // default: the products' currency
	LineItems          []LineItemInput
	ShippingAddress    *Address
	BillingAddress     *Address
	ShippingLines      []ShippingLineInput
	TaxLines           []TaxLineInput
	DiscountCodes      []DiscountCodeInput
	Note               string
	NoteAttributes     map[string]any
	Tags               []string
	Metafields         map[string]any
	SourceName         string // default "api"
	CartToken          string
	CheckoutToken      string
	ReferringSite      string
	LandingSite        string
	ClientDetails      *ClientDetails
	SendReceipt        bool
	InventoryBehaviour string // default bypass
	ProcessedAt        *time.Time
	// CouponUsesRecorded says the caller recorded the discount codes' coupon uses for
	// the order id itself (checkout); otherwise each code that is a coupon is recorded
	// with its limits enforced, and a limit reached fails the create.
	CouponUsesRecorded bool
	// PaymentID names a payment of the payments module already made for this order
	// (checkout's charge): its state is read and recorded on the new order as
	// SyncPayment would record it after the create (a sale pays the order, and
	// order.payment_received follows order.created), in the same transaction.
	PaymentID string
	// Payment, when it is the payment PaymentID names, is that payment as the caller
	// has just recorded it in ctx's transaction (checkout): it is used instead of
	// reading the payment (docs/decisions/0229).
	Payment *KnownPayment
}

// KnownPayment is a payment of the payments module as its caller knows it.
type KnownPayment struct {
	ID             string
	Status         string // the payments module's status (succeeded, requires_capture, ...)
	Amount         decimal.Decimal
	AmountCaptured decimal.Decimal
	Currency       string
	Gateway        string
	OrderID        string
}

// CustomerOrderFilter narrows a customer's order history.
type CustomerOrderFilter struct {
	Status          string
	FinancialStatus string
}

// Orders is the command side other modules (checkout) use. Calls are trusted (no
// principal checks) and join ctx's transaction.
type Orders interface {
	// CreateOrder creates an order; INSUFFICIENT_INVENTORY with
	// decrement_obeying_policy when stock is short (nothing is created).
	CreateOrder(ctx context.Context, cmd CreateOrderCommand) (Order, error)
	// CancelOrder cancels an open order with a reason (customer_request, fraudulent,
	// inventory, other) without restocking (checkout: an unpaid order that expired).
	CancelOrder(ctx context.Context, orderID, reason string) (Order, error)
	// SyncPayment reads a payment of the payments module and records it on the order
	// it names (idempotent; a payment made before its order existed).
	SyncPayment(ctx context.Context, paymentID string) error
}

// Queries is the read side (plus the anonymization customers asks for), served by a
// service that depends only on the orders module's own stores, so that catalog and
// customers may depend on it without a dependency cycle. Calls join ctx's transaction.
type Queries interface {
	// GetOrder returns an order by id or number, or ErrOrderNotFound.
	GetOrder(ctx context.Context, idOrNumber string) (Order, error)
	// ProductHasOrders reports whether any order has a line of the product.
	ProductHasOrders(ctx context.Context, productID string) (bool, error)
	// CustomerHasOrders reports whether any order references the customer.
	CustomerHasOrders(ctx context.Context, customerID string) (bool, error)
	// ListCustomerOrders returns a page of the customer's orders, newest first, and the total.
	ListCustomerOrders(ctx context.Context, customerID string, f CustomerOrderFilter, offset, limit int) ([]OrderSummary, int64, error)
	// ExportCustomerOrders returns every order of the customer with its fulfillments,
	// refunds and transactions (a data export).
	ExportCustomerOrders(ctx context.Context, customerID string) ([]Order, error)
	// AnonymizeCustomerOrders removes the customer's personal data from its orders
	// (email, phone, addresses, client details, customer link).
	AnonymizeCustomerOrders(ctx context.Context, customerID string) error
}
