package app

import (
	"context"

	"github.com/gocommerce/commerce/modules/orders/api"
	"github.com/gocommerce/commerce/modules/orders/domain"
	"github.com/gocommerce/commerce/modules/orders/ports"
)

// recordCoupons records the coupon use of each discount code of a new order in its
// transaction, with the coupons' limits enforced (a limit reached fails the create, so
// the admin create obeys the same rules as checkout), unless the caller recorded them.
func (s *Service) recordCoupons(ctx context.Context, cmd api.CreateOrderCommand, o *domain.Order) error {
	if s.coupons == nil || cmd.CouponUsesRecorded {
		return nil
	}
	for _, d := range o.DiscountCodes {
		err := s.coupons.Record(ctx, ports.CouponUse{Code: d.Code, OrderID: o.ID, CustomerID: o.CustomerID, Currency: o.Currency,
			Discount: d.Amount, OrderTotal: o.TotalPrice})
		if err != nil {
			return err
		}
	}
	return nil
}
