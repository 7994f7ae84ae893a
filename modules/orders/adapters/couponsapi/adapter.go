// Package couponsapi implements the orders module's ports.Coupons on the coupons
// module's api.
package couponsapi

import (
	"context"
	"errors"

	coupons "github.com/gocommerce/commerce/modules/coupons/api"
	"github.com/gocommerce/commerce/modules/orders/ports"
)

// Adapter is ports.Coupons over coupons.Coupons.
type Adapter struct{ coupons coupons.Coupons }

var _ ports.Coupons = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(c coupons.Coupons) *Adapter { return &Adapter{coupons: c} }

// Record records the use with the limits enforced; an unknown code is a manual discount.
func (a *Adapter) Record(ctx context.Context, u ports.CouponUse) error {
	_, err := a.coupons.RecordUsage(ctx, coupons.RecordUsageCommand{CouponCode: u.Code, OrderID: u.OrderID, CustomerID: u.CustomerID,
		DiscountAmount: u.Discount, OrderTotal: u.OrderTotal, Currency: u.Currency})
	if errors.Is(err, coupons.ErrCouponNotFound) {
		return nil
	}
	return err
}
