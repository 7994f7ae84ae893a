package app

import (
	"context"
	"strings"

	"github.com/gocommerce/commerce/modules/coupons/api"
	"github.com/gocommerce/commerce/modules/coupons/domain"
	"github.com/gocommerce/commerce/platform/ids"
)

// ReleaseUsage takes back an order's use of a coupon (api.Coupons): the use row is
// deleted and usage_count decremented in one transaction (joining the caller's), so a
// use freed by a failed checkout is available again at once. No use: nothing changes.
func (s *Service) ReleaseUsage(ctx context.Context, cmd api.ReleaseUsageCommand) error {
	orderID := strings.TrimSpace(cmd.OrderID)
	if orderID == "" {
		return nil
	}
	return s.tx.InTx(ctx, func(ctx context.Context) error {
		id := domain.CouponID("")
		if ids.Valid(cmd.CouponID) {
			id = domain.CouponID(strings.ToLower(cmd.CouponID))
		}
		c, err := s.coupons.FindForUsage(ctx, id, cmd.CouponCode)
		if err != nil {
			if isNotFound(err) {
				return nil
			}
			return err
		}
		removed, err := s.usage.Remove(ctx, c.ID, orderID)
		if err != nil || !removed {
			return err
		}
		return s.usage.Decrement(ctx, c.ID)
	})
}
