// Package couponsapi implements the carts module's ports.Coupons on top of the coupons
// module's api.
package couponsapi

import (
	"context"

	"github.com/shopspring/decimal"

	coupons "github.com/gocommerce/commerce/modules/coupons/api"

	"github.com/gocommerce/commerce/modules/carts/domain"
	"github.com/gocommerce/commerce/modules/carts/ports"
)

// Adapter evaluates and announces coupons for carts.
type Adapter struct {
	coupons coupons.Coupons
}

var _ ports.Coupons = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(c coupons.Coupons) *Adapter { return &Adapter{coupons: c} }

// Evaluate asks the coupons module what the code does to the cart.
func (a *Adapter) Evaluate(ctx context.Context, q ports.CouponQuery) (ports.CouponResult, error) {
	lines := make([]coupons.Line, len(q.Lines))
	for i, l := range q.Lines {
		lines[i] = coupons.Line{ID: string(l.ItemID), ProductID: l.ProductID, VariantID: l.VariantID, CollectionIDs: l.CollectionIDs, Quantity: l.Quantity, UnitPrice: l.UnitPrice}
	}
	ev, err := a.coupons.Evaluate(ctx, coupons.EvaluateCommand{
		Code: q.Code, Lines: lines, Subtotal: q.Subtotal, ShippingTotal: q.ShippingTotal, CustomerID: q.CustomerID,
		Email: q.Email, Currency: q.Currency, AppliedCodes: q.Applied, HasAutomaticDiscounts: q.HasAutomaticDiscounts,
		Collections: q.Collections,
	})
	if err != nil {
		return ports.CouponResult{}, err
	}
	out := ports.CouponResult{
		Valid: ev.Valid, ErrorCode: ev.ErrorCode, ErrorMessage: ev.ErrorMessage, CouponID: ev.Coupon.ID, Code: ev.Coupon.Code,
		Type: ev.Coupon.Type, Items: make(map[domain.ItemID]decimal.Decimal, len(ev.LineDiscounts)),
		Shipping: ev.ShippingDiscount, Amount: ev.DiscountAmount,
	}
	for id, v := range ev.LineDiscounts {
		out.Items[domain.ItemID(id)] = v
	}
	return out, nil
}

// Applied publishes coupon.applied through the coupons module.
func (a *Adapter) Applied(ctx context.Context, n ports.CouponNotice) error {
	return a.coupons.NotifyApplied(ctx, cartCoupon(n))
}

// Removed publishes coupon.removed through the coupons module.
func (a *Adapter) Removed(ctx context.Context, n ports.CouponNotice) error {
	return a.coupons.NotifyRemoved(ctx, cartCoupon(n))
}

func cartCoupon(n ports.CouponNotice) coupons.CartCoupon {
	return coupons.CartCoupon{
		Code: n.Code, CouponID: n.CouponID, Type: n.Type, CartID: string(n.CartID), CustomerID: n.CustomerID,
		DiscountAmount: n.Amount, Currency: n.Currency,
	}
}
