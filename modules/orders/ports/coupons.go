package ports

import (
	"context"

	"github.com/shopspring/decimal"
)

// CouponUse is an order's use of a discount code.
type CouponUse struct {
	Code, OrderID, CustomerID, Currency string
	Discount, OrderTotal                decimal.Decimal
}

// Coupons records coupon uses. Methods join ctx's transaction.
type Coupons interface {
	// Record records the order's use of the code with the coupon's usage_limit and
	// per-customer limit enforced exactly (COUPON_USAGE_LIMIT, COUPON_CUSTOMER_LIMIT);
	// a code that is no coupon is not an error (a manual discount).
	Record(ctx context.Context, u CouponUse) error
}
