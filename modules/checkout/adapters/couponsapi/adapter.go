// Package couponsapi implements checkout's ports.CouponUsage on the coupons module's
// api.
package couponsapi

import (
	"context"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/checkout/domain"
	"github.com/gocommerce/commerce/modules/checkout/ports"
	coupons "github.com/gocommerce/commerce/modules/coupons/api"
	"github.com/gocommerce/commerce/platform/apperr"
)

// Adapter is ports.CouponUsage over coupons.Coupons.
type Adapter struct{ coupons coupons.Coupons }

var _ ports.CouponUsage = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(c coupons.Coupons) *Adapter { return &Adapter{coupons: c} }

// Discounts evaluates each coupon of the cart (the others as already applied).
func (a *Adapter) Discounts(ctx context.Context, c ports.CouponCart, shipping decimal.Decimal) (ports.Discounts, error) {
	out := ports.Discounts{Lines: map[string]decimal.Decimal{}, Shipping: decimal.Zero}
	lines := make([]coupons.Line, len(c.Lines))
	for i, l := range c.Lines {
		lines[i] = coupons.Line{ID: l.ID, ProductID: l.ProductID, VariantID: l.VariantID, CollectionIDs: l.CollectionIDs, Quantity: l.Quantity, UnitPrice: l.UnitPrice}
	}
	for _, code := range c.CouponCodes {
		var others []string
		for _, o := range c.CouponCodes {
			if !strings.EqualFold(o, code) {
				others = append(others, o)
			}
		}
		ev, err := a.coupons.Evaluate(ctx, coupons.EvaluateCommand{
			Code: code, Lines: lines, Subtotal: c.Subtotal, ShippingTotal: shipping, CustomerID: c.CustomerID, Email: c.Email,
			Currency: c.Currency, AppliedCodes: others, HasAutomaticDiscounts: c.HasAutomaticDiscounts,
		})
		if err != nil {
			return ports.Discounts{}, err
		}
		if !ev.Valid {
			kind := apperr.Invalid
			if strings.HasSuffix(ev.ErrorCode, "_NOT_FOUND") {
				kind = apperr.NotFound
			}
			return ports.Discounts{}, apperr.New(kind, ev.ErrorCode, ev.ErrorMessage)
		}
		for id, d := range ev.LineDiscounts {
			out.Lines[id] = out.Lines[id].Add(d)
		}
		out.Shipping = out.Shipping.Add(ev.ShippingDiscount)
		out.Coupons = append(out.Coupons, domain.CouponUse{Code: ev.Coupon.Code, CouponID: ev.Coupon.ID, Amount: ev.DiscountAmount})
	}
	return out, nil
}

// Record records the order's use of the coupon with the limits enforced.
func (a *Adapter) Record(ctx context.Context, u domain.CouponUse, orderID, customerID, currency string, total decimal.Decimal) error {
	_, err := a.coupons.RecordUsage(ctx, coupons.RecordUsageCommand{CouponID: u.CouponID, CouponCode: u.Code, OrderID: orderID,
		CustomerID: customerID, DiscountAmount: u.Amount, OrderTotal: total, Currency: currency})
	return err
}

// Release takes the order's use back.
func (a *Adapter) Release(ctx context.Context, u domain.CouponUse, orderID string) error {
	return a.coupons.ReleaseUsage(ctx, coupons.ReleaseUsageCommand{CouponID: u.CouponID, CouponCode: u.Code, OrderID: orderID})
}
