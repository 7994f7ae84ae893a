package postgres

import (
	"context"
	"fmt"

	"github.com/gocommerce/commerce/modules/coupons/domain"
)

// Remove deletes the order's use of the coupon, reporting whether there was one.
func (r *UsageRepository) Remove(ctx context.Context, coupon domain.CouponID, orderID string) (bool, error) {
	res := r.db.Conn(ctx).Where("coupon_id = ? AND order_id = ?", string(coupon), orderID).Delete(&usageRow{})
	if res.Error != nil {
		return false, fmt.Errorf("coupons: usage release: %w", res.Error)
	}
	return res.RowsAffected > 0, nil
}
