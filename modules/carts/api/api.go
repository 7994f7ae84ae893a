// Package api is what other modules (and cmd) may import from carts: the Carts
// interface (for checkout and coupons), the Queries interface (for the customers
// module's data export), their DTOs, the event types and
// payloads and the errors. No framework imports.
package api

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/auth"
)

// Cart states (Part 1 "States and transitions").
const (
	StatusActive    = "active"
	StatusExpired   = "expired"
	StatusConverted = "converted"
)

// Event types published by carts through the outbox, each in the transaction of its
// change (docs/decisions/0060 lists the payloads).
const (
	// EventCartCreated: data is a CartResource (guest creation, GET /carts/me, merge).
	EventCartCreated = "cart.created"
	// EventCartUpdated: data is the CartResource after PUT /carts/{id}.
	EventCartUpdated = "cart.updated"
	// EventCartItemAdded, Updated, Removed: data is a CartItemEvent (clearing a cart
	// publishes one cart.item_removed per item).
	EventCartItemAdded   = "cart.item_added"
	EventCartItemUpdated = "cart.item_updated"
	EventCartItemRemoved = "cart.item_removed"
	// EventCartCouponApplied, Removed: data is the CartResource after the change.
	EventCartCouponApplied = "cart.coupon_applied"
	EventCartCouponRemoved = "cart.coupon_removed"
	// EventCartMerged: data is a CartMerged.
	EventCartMerged = "cart.merged"
	// EventCartConverted: data is a CartConverted.
	EventCartConverted = "cart.converted"
)

// CartResource is a cart as the HTTP API shows it (without the session token), and
// the data of cart events. Money is a decimal string in the cart currency's minor
// units.
type CartResource struct {
	ID             string         `json:"id"`
	CustomerID     *string        `json:"customer_id"`
	Currency       string         `json:"currency"`
	Subtotal       string         `json:"subtotal"`
	DiscountTotal  string         `json:"discount_total"`
	TaxTotal       string         `json:"tax_total"`
	ShippingTotal  string         `json:"shipping_total"`
	Total          string         `json:"total"`
	CouponCode     *string        `json:"coupon_code,omitempty"`
	CouponCodes    []string       `json:"coupon_codes"`
	ItemCount      int            `json:"item_count"`
	Items          []ItemResource `json:"items"`
	Email          string         `json:"email"`
	ShippingMethod string         `json:"shipping_method"`
	Notes          string         `json:"notes"`
	ExpiresAt      time.Time      `json:"expires_at"`
	CreatedAt      time.Time      `json:"created_at"`
	UpdatedAt      time.Time      `json:"updated_at"`
}

// ItemResource is a cart item as the HTTP API shows it.
type ItemResource struct {
	ID               string            `json:"id"`
	ProductID        string            `json:"product_id"`
	VariantID        string            `json:"variant_id"`
	Quantity         int               `json:"quantity"`
	UnitPrice        string            `json:"unit_price"`
	OriginalPrice    string            `json:"original_price"`
	Subtotal         string            `json:"subtotal"`
	DiscountAmount   string            `json:"discount_amount"`
	Total            string            `json:"total"`
	SKU              string            `json:"sku"`
	Title            string            `json:"title"`
	VariantTitle     string            `json:"variant_title"`
	ImageURL         string            `json:"image_url"`
	RequiresShipping bool              `json:"requires_shipping"`
	IsGiftCard       bool              `json:"is_gift_card"`
	CustomAttributes map[string]string `json:"custom_attributes"`
}

// CartItemEvent is the data of cart.item_added, cart.item_updated and
// cart.item_removed: the item, its cart id and the cart's totals after the change.
type CartItemEvent struct {
	CartID   string       `json:"cart_id"`
	Item     ItemResource `json:"item"`
	Subtotal string       `json:"subtotal"`
	Total    string       `json:"total"`
	Currency string       `json:"currency"`
}

// CartMerged is the data of cart.merged: the customer's cart after the merge and the
// guest cart merged into it (now converted).
type CartMerged struct {
	CartResource
	SourceCartID string `json:"source_cart_id"`
}

// CartConverted is the data of cart.converted: the cart and the order it became.
type CartConverted struct {
	CartResource
	OrderID string `json:"order_id"`
}

// Item is a cart line as other modules see it.
type Item struct {
	ID               string
	ProductID        string
	VariantID        string
	Quantity         int
	UnitPrice        decimal.Decimal
	OriginalPrice    decimal.Decimal
	Subtotal         decimal.Decimal
	DiscountAmount   decimal.Decimal
	Total            decimal.Decimal
	SKU              string
	Title            string
	VariantTitle     string
	ImageURL         string
	RequiresShipping bool
	IsGiftCard       bool
	CustomAttributes map[string]string
}

// Cart is a cart with its items and totals as other modules see it.
type Cart struct {
	ID             string
	CustomerID     string // "" for a guest cart
	Status         string // active, expired (also when expires_at has passed), converted
	Currency       string
	Email          string
	ShippingMethod string
	Notes          string
	Subtotal       decimal.Decimal
	DiscountTotal  decimal.Decimal
	// ShippingTotal is after shipping discounts; ShippingBeforeDiscount before.
	ShippingTotal          decimal.Decimal
	ShippingBeforeDiscount decimal.Decimal
	TaxTotal               decimal.Decimal
	Total                  decimal.Decimal
	CouponCodes            []string
	ItemCount              int
	Items                  []Item
	ConvertedOrderID       string
	ExpiresAt              time.Time
	CreatedAt              time.Time
	UpdatedAt              time.Time
}

// Access names a cart and the caller's credentials: its session token (guests) and/or
// the authenticated principal (the owning customer; staff and API keys holding
// carts:read may read any cart).
type Access struct {
	CartID       string
	SessionToken string
	Principal    *auth.Principal
}

// CouponLine is a cart line in the shape coupon evaluation needs.
type CouponLine struct {
	ID            string
	ProductID     string
	VariantID     string
	CollectionIDs []string
	Quantity      int
	UnitPrice     decimal.Decimal
}

// CouponContext is what coupon validation needs from a cart.
type CouponContext struct {
	CartID     string
	Currency   string
	CustomerID string
	Email      string
	Lines      []CouponLine
	Subtotal   decimal.Decimal
	// ShippingTotal is the shipping before coupon discounts.
	ShippingTotal         decimal.Decimal
	TaxTotal              decimal.Decimal
	CouponCodes           []string
	HasAutomaticDiscounts bool
}

// Carts is what the carts module offers other modules. Every method joins the
// transaction carried by ctx, if any.
type Carts interface {
	// GetCart returns a cart with its items and totals whatever its status (checkout
	// decides what it accepts), or ErrCartNotFound.
	GetCart(ctx context.Context, cartID string) (Cart, error)
	// ReadCart returns a cart whatever its status when the caller may read it
	// (ErrCartNotFound otherwise, never "forbidden"): checkout answers a repeated
	// complete of a converted cart with its order.
	ReadCart(ctx context.Context, a Access) (Cart, error)
	// MarkConverted turns an active cart into converted for the order and publishes
	// cart.converted. Repeating it for the same order is a no-op; another order is
	// ErrCartConverted; an expired cart is ErrCartExpired.
	MarkConverted(ctx context.Context, cartID, orderID string) error
	// ChooseShipping sets an active cart's shipping method to a rate checkout priced
	// (price before shipping discounts) when the caller may write the cart, re-prices
	// its coupons (a free_shipping coupon then discounts it) and publishes
	// cart.updated. ErrCartNotFound, ErrCartExpired, ErrCartConverted as for any change.
	ChooseShipping(ctx context.Context, a Access, method string, price decimal.Decimal) (Cart, error)
	// CouponContext returns the cart for coupon validation when the caller may read
	// it (ErrCartNotFound otherwise, never "forbidden"); an expired cart is
	// ErrCartExpired, a converted one ErrCartConverted.
	CouponContext(ctx context.Context, a Access) (CouponContext, error)
}

// ExportedCart is a cart in a customer's data export: the cart as the HTTP API shows
// it, with its items, plus its status and the order it became (converted carts).
type ExportedCart struct {
	CartResource
	Status  string  `json:"status"`
	OrderID *string `json:"order_id"`
}

// Queries is the read side of carts for other modules. It depends on no other module
// (the command side, Carts, depends on catalog, coupons and customers), so the
// customers module's data export can read it without a wiring cycle
// (docs/decisions/0108). Every method joins the transaction carried by ctx, if any.
type Queries interface {
	// ExportCarts returns every cart of the customer, whatever its status, newest
	// first, with its items (data export). Other customers' and guests' carts never
	// appear.
	ExportCarts(ctx context.Context, customerID string) ([]ExportedCart, error)
	// IdleCustomerCarts returns up to limit (at most 500) active, unexpired customer
	// carts with items whose last change is before before, oldest change first, after
	// the cursor after (the last cart of the previous page; the zero value for the
	// first): the abandoned-cart sweep's candidates (decision 0233).
	IdleCustomerCarts(ctx context.Context, before time.Time, after IdleCart, limit int) ([]IdleCart, error)
}

// IdleCart is an active customer cart with items, as of its last change.
type IdleCart struct {
	ID         string
	CustomerID string
	Currency   string
	Total      string // as the cart resource shows it ("25.00")
	ItemCount  int
	UpdatedAt  time.Time
}

// Errors other modules may test for with errors.Is (they match on the code).
var (
	ErrCartNotFound  = apperr.New(apperr.NotFound, "CART_NOT_FOUND", "Cart not found")
	ErrCartExpired   = apperr.New(apperr.Gone, "CART_EXPIRED", "Cart has expired")
	ErrCartConverted = apperr.New(apperr.Conflict, "CART_CONVERTED", "Cart has already been converted to an order")
)
