// Package api is what other modules (and cmd) may import from coupons: the Coupons
// interface (evaluation for carts, usage recording for orders, cart coupon events),
// its DTOs, the event types and payloads and the errors. No framework imports.
package api

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/apperr"
)

// Coupon types.
const (
	TypePercentage   = "percentage"
	TypeFixedAmount  = "fixed_amount"
	TypeFreeShipping = "free_shipping"
	TypeBuyXGetY     = "buy_x_get_y"
)

// Event types published by coupons through the outbox, each in the transaction of its
// change (docs/decisions/0065 lists the payloads).
const (
	// EventCouponCreated: data is a CouponResource.
	EventCouponCreated = "coupon.created"
	// EventCouponUpdated: data is the CouponResource after the change.
	EventCouponUpdated = "coupon.updated"
	// EventCouponDeleted: data is a CouponDeleted.
	EventCouponDeleted = "coupon.deleted"
	// EventCouponApplied: a coupon was applied to a cart; data is a CouponApplication.
	EventCouponApplied = "coupon.applied"
	// EventCouponRemoved: a coupon was removed from a cart; data is a CouponApplication.
	EventCouponRemoved = "coupon.removed"
)

// EventOrderCreated is the orders module's event that records coupon usage; coupons
// reads the members of OrderCreated from its data (docs/decisions/0065).
const EventOrderCreated = "order.created"

// OrderCreated lists the members of the order resource coupons reads from an
// order.created event. Money members are decimal strings.
type OrderCreated struct {
	ID         string  `json:"id"`
	CustomerID *string `json:"customer_id"`
	// CouponCode is the order's coupon (null or "" without one); its discount is
	// DiscountTotal.
	CouponCode    *string `json:"coupon_code"`
	DiscountTotal string  `json:"discount_total"`
	TotalPrice    string  `json:"total_price"`
	Currency      string  `json:"currency"`
	CreatedAt     string  `json:"created_at"`
	// AppliedCoupons, when present, lists every coupon of the order with its own
	// discount (a free shipping coupon stacked with another); it takes precedence over
	// CouponCode and DiscountTotal.
	AppliedCoupons []AppliedCoupon `json:"applied_coupons,omitempty"`
}

// AppliedCoupon is one coupon of an order and the discount it gave.
type AppliedCoupon struct {
	Code           string `json:"code"`
	DiscountAmount string `json:"discount_amount"`
}

// CouponResource is a coupon as the HTTP API shows it to administrators, and the data
// of coupon.created and coupon.updated.
type CouponResource struct {
	ID                    string              `json:"id"`
	Code                  string              `json:"code"`
	Type                  string              `json:"type"`
	Value                 string              `json:"value"`
	Description           string              `json:"description"`
	MinimumOrderAmount    string              `json:"minimum_order_amount"`
	MaximumDiscountAmount *string             `json:"maximum_discount_amount"`
	StartsAt              time.Time           `json:"starts_at"`
	ExpiresAt             *time.Time          `json:"expires_at"`
	UsageLimit            *int                `json:"usage_limit"`
	UsageLimitPerCustomer *int                `json:"usage_limit_per_customer"`
	UsageCount            int                 `json:"usage_count"`
	IsActive              bool                `json:"is_active"`
	AppliesTo             AppliesTo           `json:"applies_to"`
	CustomerEligibility   CustomerEligibility `json:"customer_eligibility"`
	BuyXGetY              *BuyXGetY           `json:"buy_x_get_y"`
	CreatedAt             time.Time           `json:"created_at"`
	UpdatedAt             time.Time           `json:"updated_at"`
}

// AppliesTo is a coupon's product restriction.
type AppliesTo struct {
	ProductIDs        []string `json:"product_ids"`
	CollectionIDs     []string `json:"collection_ids"`
	ExcludeProductIDs []string `json:"exclude_product_ids"`
}

// CustomerEligibility is a coupon's customer restriction.
type CustomerEligibility struct {
	NewCustomersOnly bool     `json:"new_customers_only"`
	CustomerIDs      []string `json:"customer_ids"`
	CustomerSegments []string `json:"customer_segments"`
}

// BuyXGetY is the rule of a buy_x_get_y coupon.
type BuyXGetY struct {
	BuyQuantity      int      `json:"buy_quantity"`
	GetQuantity      int      `json:"get_quantity"`
	BuyProductIDs    []string `json:"buy_product_ids"`
	GetProductIDs    []string `json:"get_product_ids"`
	GetDiscountType  string   `json:"get_discount_type"`
	GetDiscountValue string   `json:"get_discount_value"`
}

// CouponDeleted is the data of coupon.deleted.
type CouponDeleted struct {
	ID        string    `json:"id"`
	Code      string    `json:"code"`
	DeletedAt time.Time `json:"deleted_at"`
}

// CouponApplication is the data of coupon.applied and coupon.removed.
type CouponApplication struct {
	CouponID       string    `json:"coupon_id"`
	Code           string    `json:"code"`
	Type           string    `json:"type"`
	CartID         string    `json:"cart_id"`
	CustomerID     *string   `json:"customer_id"`
	DiscountAmount string    `json:"discount_amount"`
	Currency       string    `json:"currency"`
	OccurredAt     time.Time `json:"occurred_at"`
}

// Line is one cart line to evaluate a coupon against.
type Line struct {
	ID            string // the cart item id; discounts are keyed by it
	ProductID     string
	VariantID     string
	CollectionIDs []string // the product's collections, when known
	Quantity      int
	UnitPrice     decimal.Decimal
}

// EvaluateCommand asks what a coupon would do to a cart.
type EvaluateCommand struct {
	Code          string
	Lines         []Line
	Subtotal      decimal.Decimal
	ShippingTotal decimal.Decimal
	CustomerID    string // "" for a guest cart
	Email         string // the cart's email (new-customer check of guests)
	Currency      string
	// AppliedCodes are the coupons already on the cart (for a re-evaluation of an
	// applied coupon: the other ones).
	AppliedCodes []string
	// HasAutomaticDiscounts reports automatic discounts on the cart.
	HasAutomaticDiscounts bool
	// Collections, when set, returns the collections of the lines' products (by
	// product id). It is called only for a coupon restricted to collections, and then
	// fills the lines' CollectionIDs, so that a cart reads the catalog's collections
	// only when a coupon needs them.
	Collections func(ctx context.Context) (map[string][]string, error)
}

// CouponSummary is the public face of a coupon.
type CouponSummary struct {
	ID          string
	Code        string
	Type        string
	Value       decimal.Decimal
	Description string
}

// Evaluation is the answer: valid with the discount, or the precise coupon error code
// (COUPON_NOT_FOUND, COUPON_EXPIRED, ...).
type Evaluation struct {
	Valid        bool
	ErrorCode    string
	ErrorMessage string
	// Coupon is set whenever the coupon exists.
	Coupon CouponSummary
	// LineDiscounts maps cart item ids to their discount (rounded to the currency's
	// minor unit; they add up to the line part of DiscountAmount).
	LineDiscounts map[string]decimal.Decimal
	// ShippingDiscount is the shipping discount (free_shipping coupons).
	ShippingDiscount decimal.Decimal
	// DiscountAmount is the sum of the line discounts and the shipping discount.
	DiscountAmount decimal.Decimal
}

// RecordUsageCommand records that an order used a coupon (CouponID, or CouponCode).
type RecordUsageCommand struct {
	CouponID       string
	CouponCode     string
	OrderID        string
	CustomerID     string // "" for a guest order
	DiscountAmount decimal.Decimal
	OrderTotal     decimal.Decimal
	Currency       string
	UsedAt         time.Time // zero: now
}

// ReleaseUsageCommand names an order's use of a coupon to take back.
type ReleaseUsageCommand struct {
	CouponID   string
	CouponCode string
	OrderID    string
}

// Usage is the recorded use.
type Usage struct {
	CouponID string
	Code     string
	OrderID  string
	// Recorded is false when the order's use was already recorded (idempotent call).
	Recorded bool
}

// CartCoupon describes a coupon applied to or removed from a cart.
type CartCoupon struct {
	Code string
	// CouponID and Type, when both are set, come from an Evaluation in the caller's
	// transaction (Code then as the coupon spells it): the coupon is not read again.
	// Otherwise the coupon is looked up by Code.
	CouponID       string
	Type           string
	CartID         string
	CustomerID     string
	DiscountAmount decimal.Decimal
	Currency       string
}

// Coupons is what the coupons module offers other modules. Every method joins the
// transaction carried by ctx, if any.
type Coupons interface {
	// Evaluate checks a code against a cart and computes its discount; coupon
	// problems are an invalid Evaluation, not an error.
	Evaluate(ctx context.Context, cmd EvaluateCommand) (Evaluation, error)
	// RecordUsage records an order's use of a coupon, idempotent per (coupon, order).
	// The total and per-customer limits hold under concurrency: ErrUsageLimit,
	// ErrCustomerLimit; an unknown coupon is ErrCouponNotFound. Deleted coupons are
	// still recorded (their orders are unaffected).
	RecordUsage(ctx context.Context, cmd RecordUsageCommand) (Usage, error)
	// ReleaseUsage takes back an order's recorded use of a coupon (CouponID, or
	// CouponCode) in ctx's transaction: the use is deleted and usage_count decremented.
	// Releasing a use that is not recorded is a no-op (checkout: a payment that failed).
	ReleaseUsage(ctx context.Context, cmd ReleaseUsageCommand) error
	// NotifyApplied publishes coupon.applied (carts calls it when a coupon is applied).
	NotifyApplied(ctx context.Context, c CartCoupon) error
	// NotifyRemoved publishes coupon.removed.
	NotifyRemoved(ctx context.Context, c CartCoupon) error
}

// Errors other modules may test for with errors.Is (they match on the code).
var (
	ErrCouponNotFound = apperr.New(apperr.NotFound, "COUPON_NOT_FOUND", "Coupon not found")
	ErrUsageLimit     = apperr.New(apperr.Invalid, "COUPON_USAGE_LIMIT", "Coupon usage limit has been reached")
	ErrCustomerLimit  = apperr.New(apperr.Invalid, "COUPON_CUSTOMER_LIMIT", "Coupon has already been used the maximum number of times by this customer")
)
