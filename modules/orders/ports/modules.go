package ports

import (
	"context"

	"github.com/shopspring/decimal"
)

// CatalogVariant is a product variant as an order line needs it.
type CatalogVariant struct {
	ProductID        string
	VariantID        string
	ProductTitle     string
	VariantTitle     string // "" for a product's default variant
	SKU              string
	Price            decimal.Decimal
	Currency         string
	Weight           decimal.Decimal
	WeightUnit       string
	RequiresShipping bool
	Taxable          bool
	Tracked          bool // this service tracks the variant's stock
}

// Catalog looks up what is sold.
type Catalog interface {
	// Variant returns a variant of a product, or its default variant when variantID is
	// "" (domain.ErrProductNotFound, domain.ErrVariantNotFound). With productID "" the
	// variant is looked up by its id alone and its product found
	// (domain.ErrVariantNotFound).
	Variant(ctx context.Context, productID, variantID string) (CatalogVariant, error)
	// Variants is Variant for several lines with one catalog read for the products
	// they name: one result per ref, errs[i] the error of ref i (errs nil when none).
	Variants(ctx context.Context, refs []VariantRef) (vs []CatalogVariant, errs []error)
}

// VariantRef names a variant as a line does: product and variant (either may be "").
type VariantRef struct {
	ProductID string
	VariantID string
}

// StockChange is a quantity of a variant taken from or given back to stock for an order.
type StockChange struct {
	ProductID, VariantID string
	Quantity             int
	Reference            string // e.g. "order #1001"
}

// Inventory claims and returns stock at the default location. Methods join ctx's
// transaction.
type Inventory interface {
	// Claim takes quantity units. Obeying the variant's policy, a shortfall is
	// domain.ErrInsufficientInventory; ignoring it, as many units as there are are
	// taken and their number returned.
	Claim(ctx context.Context, c StockChange, obeyPolicy bool) (int, error)
	// Restock gives units back.
	Restock(ctx context.Context, c StockChange) error
}

// Payment is a payment of the payments module.
type Payment struct {
	ID       string
	Status   string // the payments module's status (succeeded, requires_capture, ...)
	Amount   decimal.Decimal
	Currency string
	Gateway  string
	OrderID  string
}

// Payment statuses the orders module reads.
const (
	PaymentRequiresCapture = "requires_capture"
	PaymentSucceeded       = "succeeded"
	PaymentCanceled        = "canceled"
)

// RefundRequest refunds part of a payment at its gateway.
type RefundRequest struct {
	PaymentID     string
	Amount        decimal.Decimal
	Currency      string
	OrderID       string
	TransactionID string // the order's pending refund transaction (sent as metadata)
}

// RefundResult is the gateway's answer: succeeded, pending (settles later; the
// payments module reports it by event) or failed.
type RefundResult struct {
	ID     string // ref_<uuid>
	Status string // succeeded, pending, failed
}

// Refund statuses.
const (
	RefundSucceeded = "succeeded"
	RefundPending   = "pending"
	RefundFailed    = "failed"
)

// Payments reaches the payment gateways. Never call it inside a transaction.
type Payments interface {
	// Get returns a payment (an error wrapping a not-found apperr when unknown).
	Get(ctx context.Context, paymentID string) (Payment, error)
	// Refund refunds part of a captured payment.
	Refund(ctx context.Context, r RefundRequest) (RefundResult, error)
	// Capture captures an authorized payment (amount zero: all of it).
	Capture(ctx context.Context, paymentID string, amount decimal.Decimal) (Payment, error)
	// Void cancels an authorized payment.
	Void(ctx context.Context, paymentID string) (Payment, error)
}

// Customer is a customer as orders needs it.
type Customer struct {
	ID, Email, Phone, FirstName, LastName string
}

// Customers looks customers up.
type Customers interface {
	// Get returns a customer (domain.ErrCustomerNotFound).
	Get(ctx context.Context, id string) (Customer, error)
	// FindByEmail returns the customer with the email, if any.
	FindByEmail(ctx context.Context, email string) (Customer, bool, error)
}
