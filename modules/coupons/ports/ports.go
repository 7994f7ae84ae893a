// Package ports declares what the coupons module needs: its stores and the
// capabilities of other modules (customers for eligibility, carts for the validate
// endpoint), in the coupons module's words.
package ports

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/coupons/domain"
	"github.com/gocommerce/commerce/platform/auth"
)

// ListQuery is a filtered page of coupons, newest first.
type ListQuery struct {
	Active *bool // filter on is_active
	// Public keeps only coupons anyone may see at Now: active, started, not expired,
	// not restricted to customers or segments.
	Public bool
	Now    time.Time
	Offset int
	Limit  int
}

// CouponRepository stores coupons. Every method uses the transaction carried by ctx.
// Deleted coupons are invisible except to FindForUsage and GetAny.
type CouponRepository interface {
	// Create inserts a coupon; a code in use (case-insensitive) is domain.ErrCodeExists.
	Create(ctx context.Context, c *domain.Coupon) error
	// Get returns a coupon by id, or domain.ErrCouponNotFound.
	Get(ctx context.Context, id domain.CouponID) (*domain.Coupon, error)
	// GetAny returns a coupon by id even when deleted, or domain.ErrCouponNotFound.
	GetAny(ctx context.Context, id domain.CouponID) (*domain.Coupon, error)
	// GetByCode returns a coupon by code (case-insensitive), or domain.ErrCouponNotFound.
	GetByCode(ctx context.Context, code string) (*domain.Coupon, error)
	// GetByCodes returns the coupons found among the codes.
	GetByCodes(ctx context.Context, codes []string) ([]*domain.Coupon, error)
	// FindForUsage returns the coupon by id, else by code, preferring a live coupon
	// and falling back to the most recently deleted one with that code.
	FindForUsage(ctx context.Context, id domain.CouponID, code string) (*domain.Coupon, error)
	// Update loads the coupon (row-locked where the engine can), lets change return
	// the new version and saves it; a code in use is domain.ErrCodeExists.
	Update(ctx context.Context, id domain.CouponID, change func(*domain.Coupon) (*domain.Coupon, error)) (*domain.Coupon, error)
	// Delete marks the coupon deleted at the time, or answers domain.ErrCouponNotFound.
	Delete(ctx context.Context, id domain.CouponID, at time.Time) (*domain.Coupon, error)
	// List returns a page and the total matching.
	List(ctx context.Context, q ListQuery) ([]*domain.Coupon, int64, error)
}

// Use is one order's use of a coupon.
type Use struct {
	ID             string
	CouponID       domain.CouponID
	OrderID        string
	CustomerID     string
	DiscountAmount decimal.Decimal
	OrderTotal     decimal.Decimal
	Currency       string
	UsedAt         time.Time
}

// UsageRepository stores uses and keeps coupons.usage_count. Every method uses the
// transaction carried by ctx.
type UsageRepository interface {
	// Exists reports whether the order's use of the coupon is recorded.
	Exists(ctx context.Context, coupon domain.CouponID, orderID string) (bool, error)
	// Increment adds one to usage_count; with enforce only while usage_count is below
	// usage_limit (a conditional update), reporting whether it did.
	Increment(ctx context.Context, coupon domain.CouponID, enforce bool) (bool, error)
	// Decrement takes one from usage_count (undoing Increment in the same transaction).
	Decrement(ctx context.Context, coupon domain.CouponID) error
	// Insert stores a use unless the order's use is already stored (unique coupon and
	// order), reporting whether it did.
	Insert(ctx context.Context, u Use) (bool, error)
	// CountForCustomer counts the customer's uses of the coupon.
	CountForCustomer(ctx context.Context, coupon domain.CouponID, customerID string) (int, error)
	// Remove deletes the order's use of the coupon, reporting whether there was one.
	Remove(ctx context.Context, coupon domain.CouponID, orderID string) (bool, error)
	// ForCoupon returns every use of the coupon, oldest first.
	ForCoupon(ctx context.Context, coupon domain.CouponID) ([]Use, error)
}

// Customers is what coupons needs from the customers module.
type Customers interface {
	// IsNewCustomer reports a customer without previous orders: by id for a customer,
	// by email for a guest (an unknown email is new; "" and "" is new).
	IsNewCustomer(ctx context.Context, customerID, email string) (bool, error)
	// InSegment reports whether the customer matches the segment (false for an
	// unknown segment).
	InSegment(ctx context.Context, segmentID, customerID string) (bool, error)
}

// CartAccess names a cart and the caller's credentials for it.
type CartAccess struct {
	CartID       string
	SessionToken string
	Principal    *auth.Principal
}

// Cart is a cart as the validate endpoint needs it.
type Cart struct {
	ID            string
	Currency      string
	CustomerID    string
	Email         string
	Lines         []domain.Line
	Subtotal      decimal.Decimal
	ShippingTotal decimal.Decimal
	TaxTotal      decimal.Decimal
	// CouponCodes are the coupons on the cart.
	CouponCodes           []string
	HasAutomaticDiscounts bool
}

// Carts is what coupons needs from the carts module.
type Carts interface {
	// Cart returns the cart if the caller may read it (the carts module's access
	// rules and errors: CART_NOT_FOUND, CART_EXPIRED, CART_CONVERTED).
	Cart(ctx context.Context, a CartAccess) (Cart, error)
}
