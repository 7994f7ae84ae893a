package postgres

import (
	"context"
	"fmt"

	"gorm.io/gorm"

	"github.com/gocommerce/commerce/modules/coupons/domain"
	"github.com/gocommerce/commerce/modules/coupons/ports"
	"github.com/gocommerce/commerce/platform/db"
)

// Exists reports whether the order's use of the coupon is stored.
func (r *UsageRepository) Exists(ctx context.Context, coupon domain.CouponID, orderID string) (bool, error) {
	var n int64
	err := r.db.Conn(ctx).Model(&usageRow{}).Where("coupon_id = ? AND order_id = ?", string(coupon), orderID).Count(&n).Error
	if err != nil {
		return false, fmt.Errorf("coupons: usage: %w", err)
	}
	return n > 0, nil
}

// Increment adds one use to the coupon; with enforce only while usage_count is below
// usage_limit. On PostgreSQL concurrent increments of one coupon wait for each other's
// row lock and re-check the condition, so the limit holds under concurrency.
func (r *UsageRepository) Increment(ctx context.Context, coupon domain.CouponID, enforce bool) (bool, error) {
	q := r.db.Conn(ctx).Model(&couponRow{}).Where("id = ?", string(coupon))
	if enforce {
		q = q.Where("usage_limit IS NULL OR usage_count < usage_limit")
	}
	n, err := db.Affected(q.UpdateColumn("usage_count", gorm.Expr("usage_count + 1")), "coupons: usage count")
	return n == 1, err
}

// Decrement takes one use from the coupon.
func (r *UsageRepository) Decrement(ctx context.Context, coupon domain.CouponID) error {
	return db.Done(r.db.Conn(ctx).Model(&couponRow{}).Where("id = ? AND usage_count > 0", string(coupon)).
		UpdateColumn("usage_count", gorm.Expr("usage_count - 1")), "coupons: usage count")
}

// Insert stores a use unless the (coupon, order) pair is stored (ON CONFLICT DO
// NOTHING, so a duplicate never aborts the caller's transaction).
func (r *UsageRepository) Insert(ctx context.Context, u ports.Use) (bool, error) {
	row := fromUse(u)
	return db.InsertNew(r.db.Conn(ctx), &row, "coupons: usage insert")
}

// CountForCustomer counts the customer's uses of the coupon.
func (r *UsageRepository) CountForCustomer(ctx context.Context, coupon domain.CouponID, customerID string) (int, error) {
	var n int64
	err := r.db.Conn(ctx).Model(&usageRow{}).Where("coupon_id = ? AND customer_id = ?", string(coupon), customerID).Count(&n).Error
	if err != nil {
		return 0, fmt.Errorf("coupons: usage: %w", err)
	}
	return int(n), nil
}

// ForCoupon returns the coupon's uses, oldest first.
func (r *UsageRepository) ForCoupon(ctx context.Context, coupon domain.CouponID) ([]ports.Use, error) {
	return db.FindAs(r.db.Conn(ctx).Where("coupon_id = ?", string(coupon)).Order("used_at, id"), usageRow.toUse, "coupons: usage")
}
