// Package ports declares what checkout needs, in its own words: the other modules'
// capabilities (carts, inventory, orders, payments, coupons, tax, shipping) and its
// stores. Every method joins the transaction ctx carries unless it says otherwise.
package ports

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/checkout/domain"
	"github.com/gocommerce/commerce/platform/auth"
)

// CartAccess names a cart and the caller's credentials.
type CartAccess struct {
	CartID       string
	SessionToken string
	Principal    *auth.Principal
}

// CartLine is a line of a cart.
type CartLine struct {
	ID, ProductID, VariantID, Title, VariantTitle, SKU string
	Quantity                                           int
	UnitPrice                                          decimal.Decimal
	RequiresShipping                                   bool
}

// Cart is a cart as checkout reads it.
type Cart struct {
	ID, CustomerID, Email, Currency string
	Status                          string // active, expired, converted
	ConvertedOrderID                string
	CouponCodes                     []string
	Lines                           []CartLine
}

// Cart statuses.
const (
	CartActive    = "active"
	CartExpired   = "expired"
	CartConverted = "converted"
)

// Carts reads carts and converts them.
type Carts interface {
	// Read returns the cart when the caller may read it, whatever its status
	// (CART_NOT_FOUND otherwise).
	Read(ctx context.Context, a CartAccess) (Cart, error)
	// CouponCart returns the cart as coupon evaluation needs it.
	CouponCart(ctx context.Context, a CartAccess) (CouponCart, error)
	// MarkConverted turns the cart into converted for the order (cart.converted).
	MarkConverted(ctx context.Context, cartID, orderID string) error
	// ChooseShipping sets the cart's shipping method to the chosen rate at its price.
	ChooseShipping(ctx context.Context, a CartAccess, method string, price decimal.Decimal) error
}

// CouponLine is a cart line as coupon evaluation needs it.
type CouponLine struct {
	ID, ProductID, VariantID string
	CollectionIDs            []string
	Quantity                 int
	UnitPrice                decimal.Decimal
}

// CouponCart is a cart as coupon evaluation needs it.
type CouponCart struct {
	CartID, Currency, CustomerID, Email string
	Lines                               []CouponLine
	Subtotal                            decimal.Decimal
	CouponCodes                         []string
	HasAutomaticDiscounts               bool
}

// Discounts is the coupons' effect on a cart.
type Discounts struct {
	Lines    map[string]decimal.Decimal
	Shipping decimal.Decimal
	Coupons  []domain.CouponUse
}

// Hold is a quantity of a variant reserved for an order.
type Hold struct {
	ProductID, VariantID, OrderID string
	Quantity                      int
	TTL                           time.Duration
	// Variant, when set, is the variant as read from the catalog in ctx's
	// transaction: the reservation does not read it again.
	Variant *VariantFacts
}

// VariantFacts is a catalog variant as checkout reads it once per attempt and passes
// it on: to inventory (the reservation) and to orders (the order's lines), which do
// not read the catalog again (docs/decisions/0229).
type VariantFacts struct {
	ProductID, VariantID string
	ProductTitle         string
	Title                string // the variant's own title
	SKU                  string
	IsDefault            bool
	Currency             string
	Price                decimal.Decimal
	Weight               decimal.Decimal
	WeightUnit           string
	RequiresShipping     bool
	Taxable              bool
	Tracked              bool   // the product's stock is tracked (inventory_management set)
	Policy               string // the variant's inventory policy: deny or continue
	LowStockThreshold    int
}

// Catalog reads the variants checkout sells.
type Catalog interface {
	// Variants returns the variants of the products (those found), by variant id, in
	// one read.
	Variants(ctx context.Context, productIDs []string) (map[string]VariantFacts, error)
}

// Reservation is a held quantity's record.
type Reservation struct {
	ID        string
	ExpiresAt time.Time
}

// Inventory reserves stock for an order, commits or releases it.
type Inventory interface {
	// Reserve holds stock for every line, all or none (INSUFFICIENT_INVENTORY when
	// one is short), one reservation per hold in order.
	Reserve(ctx context.Context, hs []Hold) ([]Reservation, error)
	// Commit turns the reservations still active into sold stock and returns the ids
	// it committed (one that lapsed meanwhile is left out).
	Commit(ctx context.Context, reservationIDs []string) ([]string, error)
	// ReleaseOrder returns every active reservation of the order to stock (expired:
	// the reason is order_expired, else order_cancelled).
	ReleaseOrder(ctx context.Context, orderID string, expired bool) error
}

// CouponUsage evaluates coupons, records and takes back their uses.
type CouponUsage interface {
	// Discounts evaluates the cart's coupons against a shipping price: the discount
	// of each line (by item id), the shipping discount and the coupons with their
	// amounts. An invalid coupon is its coupon error (COUPON_EXPIRED, ...).
	Discounts(ctx context.Context, c CouponCart, shipping decimal.Decimal) (Discounts, error)
	// Record records the order's use, enforcing usage_limit and the per-customer
	// limit exactly (COUPON_USAGE_LIMIT, COUPON_CUSTOMER_LIMIT).
	Record(ctx context.Context, use domain.CouponUse, orderID, customerID, currency string, orderTotal decimal.Decimal) error
	// Release takes the order's use back.
	Release(ctx context.Context, use domain.CouponUse, orderID string) error
}

// OrderDraft is the order checkout creates.
type OrderDraft struct {
	ID, CustomerID, Email, Currency, CartID, CheckoutID string
	Lines                                               []domain.Line
	ShippingAddress, BillingAddress                     *domain.Address
	Shipping                                            *domain.Rate
	Totals                                              domain.Totals
	Coupons                                             []domain.CouponUse
	// PaymentID, when set, is the order's succeeded charge: the order is created with
	// it recorded (paid).
	PaymentID string
	// Payment, when set, is that charge as just recorded: the orders module records it
	// without reading the payment again.
	Payment *RecordedPayment
	// Variants, by variant id, are the lines' variants as read from the catalog by the
	// attempt (Catalog.Variants): the order's lines are built from them without
	// reading the catalog again. A line whose variant is missing is read.
	Variants map[string]VariantFacts
}

// RecordedPayment is a payment as its answer was recorded.
type RecordedPayment struct {
	ID, Status, Currency, Gateway, OrderID string
	Amount, AmountCaptured                 decimal.Decimal
}

// Order is an order as checkout answers it.
type Order struct {
	ID, Number, Status, FinancialStatus, Email, CustomerID, Currency string
	Total                                                            decimal.Decimal
}

// Orders creates and cancels orders.
type Orders interface {
	// Create creates the order (pending payment) with the draft's id.
	Create(ctx context.Context, d OrderDraft) (Order, error)
	// Get returns an order.
	Get(ctx context.Context, id string) (Order, error)
	// Cancel cancels an unpaid order whose checkout failed or expired.
	Cancel(ctx context.Context, id string) error
	// SyncPayment records a payment on the order it names.
	SyncPayment(ctx context.Context, paymentID string) error
}

// PaymentMethod is how the customer pays: a new card (Card), a provider token or a
// saved method (Token), or a wallet type.
type PaymentMethod struct {
	Type      string
	Token     string
	CVC       string
	GatewayID string
	Card      *Card
}

// Card is raw card data (never stored).
type Card struct {
	Number   string
	ExpMonth int
	ExpYear  int
	CVC      string
	Name     string
}

// Charge asks for a payment.
type Charge struct {
	Amount         decimal.Decimal
	Currency       string
	Method         PaymentMethod
	OrderID        string
	CustomerID     string
	Email          string
	ReturnURL      string
	IdempotencyKey string
	Metadata       map[string]any
}

// Payment outcomes.
const (
	PaymentSucceeded      = "success"
	PaymentRequiresAction = "requires_action"
	PaymentFailed         = "failed"
)

// PaymentResult is the gateway's answer.
type PaymentResult struct {
	Outcome       string
	PaymentID     string
	Status        string
	TransactionID string
	Method        map[string]any // method_type, last_four, card_brand, ...
	ReceiptURL    string
	Action        *domain.Action
	// Failed: the provider's code, message, whether to retry, and the spec's code.
	ErrorCode, ErrorMessage, SpecCode string
	RetryAllowed                      bool
	// Recorded is the payment as the answer left it (Record sets it when the payments
	// module answers it).
	Recorded *RecordedPayment
}

// PreparedCharge is a charge whose payment Prepare stored (pending) and whose gateway
// call Authorize makes.
type PreparedCharge struct {
	PaymentID string
	Handle    any // the payments module's own: passed back as it is
}

// ChargeAnswer is the gateway's answer to a prepared charge, not recorded yet.
type ChargeAnswer struct {
	PreparedCharge
	Declined bool
}

// Payments takes payments: Prepare and Record inside the attempt's transactions, the
// rest never inside one.
type Payments interface {
	// Prepare checks the charge and stores its payment pending in the transaction ctx
	// carries (a rollback leaves no payment); nothing is asked of the gateway.
	Prepare(ctx context.Context, c Charge) (PreparedCharge, error)
	// Ask asks the gateway for the prepared charge, outside any transaction, and keeps
	// its answer for Record (nothing is written): a decline is an answer, not an error.
	Ask(ctx context.Context, p PreparedCharge) (ChargeAnswer, error)
	// Record writes the answer in the transaction ctx carries, if any; after that
	// transaction rolled back it may be called again, alone.
	Record(ctx context.Context, a ChargeAnswer) (PaymentResult, error)
	// Status returns a payment's status (succeeded, requires_action, canceled, ...).
	Status(ctx context.Context, paymentID string) (string, error)
	// Void cancels a payment not captured, or refunds a captured one in full.
	Void(ctx context.Context, paymentID string) error
}

// TaxLine is a line to tax.
type TaxLine struct {
	ItemID, ProductID, Title, SKU string
	Quantity                      int
	UnitPrice                     decimal.Decimal
	Amount                        decimal.Decimal // taxable: after its discount
}

// TaxQuery asks for the tax of lines and shipping delivered to an address.
type TaxQuery struct {
	Currency        string
	Lines           []TaxLine
	Shipping        decimal.Decimal // after its discount
	ShippingAddress domain.Address
	BillingAddress  *domain.Address
	CustomerID      string
	VATID           string
}

// Tax calculates tax (the tax module).
type Tax interface {
	Calculate(ctx context.Context, q TaxQuery) (domain.Tax, error)
}

// Parcel is what is shipped.
type Parcel struct {
	Items  int
	Value  decimal.Decimal
	Weight decimal.Decimal // grams; zero when unknown
}

// RateQuery asks for the rates to a destination.
type RateQuery struct {
	Currency    string
	Destination domain.Address
	Parcel      Parcel
}

// Shipping quotes shipping (the shipping module).
type Shipping interface {
	// Rates returns the rates available for the destination and parcel.
	Rates(ctx context.Context, q RateQuery) ([]domain.Rate, error)
}
