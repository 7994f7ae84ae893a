package postgres

import (
	"context"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/gocommerce/commerce/modules/coupons/domain"
	"github.com/gocommerce/commerce/modules/coupons/ports"
	"github.com/gocommerce/commerce/platform/db"
)

// Create inserts a coupon; a live coupon with the same code is domain.ErrCodeExists.
func (r *CouponRepository) Create(ctx context.Context, c *domain.Coupon) error {
	row, err := fromDomain(c)
	if err != nil {
		return err
	}
	return db.Insert(r.db.Conn(ctx), &row, domain.ErrCodeExists, "coupons: insert")
}

func (r *CouponRepository) first(q *gorm.DB) (*domain.Coupon, error) {
	row, err := db.First[couponRow](q, domain.ErrCouponNotFound, "coupons: select")
	if err != nil {
		return nil, err
	}
	return row.toDomain()
}

// Get returns a live coupon by id.
func (r *CouponRepository) Get(ctx context.Context, id domain.CouponID) (*domain.Coupon, error) {
	return r.first(r.db.Conn(ctx).Where("id = ? AND deleted_at IS NULL", string(id)))
}

// GetAny returns a coupon by id, deleted or not.
func (r *CouponRepository) GetAny(ctx context.Context, id domain.CouponID) (*domain.Coupon, error) {
	return r.first(r.db.Conn(ctx).Where("id = ?", string(id)))
}

// GetByCode returns a live coupon by code (case-insensitive).
func (r *CouponRepository) GetByCode(ctx context.Context, code string) (*domain.Coupon, error) {
	key := domain.CodeKey(code)
	if key == "" {
		return nil, domain.ErrCouponNotFound
	}
	return r.first(r.db.Conn(ctx).Where("code_key = ? AND deleted_at IS NULL", key))
}

// GetByCodes returns the live coupons among the codes.
func (r *CouponRepository) GetByCodes(ctx context.Context, codes []string) ([]*domain.Coupon, error) {
	keys := make([]string, 0, len(codes))
	for _, c := range codes {
		if k := domain.CodeKey(c); k != "" {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil, nil
	}
	rows, err := db.Find[couponRow](r.db.Conn(ctx).Where("code_key IN ? AND deleted_at IS NULL", keys), "coupons: select")
	if err != nil {
		return nil, err
	}
	return db.MapErr(rows, couponRow.toDomain)
}

// FindForUsage returns the coupon by id (deleted or not), else by code: the live one,
// or the most recently deleted.
func (r *CouponRepository) FindForUsage(ctx context.Context, id domain.CouponID, code string) (*domain.Coupon, error) {
	if id != "" {
		return r.GetAny(ctx, id)
	}
	key := domain.CodeKey(code)
	if key == "" {
		return nil, domain.ErrCouponNotFound
	}
	return r.first(r.db.Conn(ctx).Where("code_key = ?", key).
		Order(clause.OrderBy{Expression: clause.Expr{SQL: "CASE WHEN deleted_at IS NULL THEN 0 ELSE 1 END, deleted_at DESC"}}))
}

// Update loads the coupon row-locked, lets change produce the new version and saves it
// (usage_count is kept by the usage repository only).
func (r *CouponRepository) Update(ctx context.Context, id domain.CouponID, change func(*domain.Coupon) (*domain.Coupon, error)) (*domain.Coupon, error) {
	conn := r.db.Conn(ctx)
	c, err := r.first(conn.Clauses(clause.Locking{Strength: "UPDATE"}).Where("id = ? AND deleted_at IS NULL", string(id)))
	if err != nil {
		return nil, err
	}
	n, err := change(c)
	if err != nil {
		return nil, err
	}
	row, err := fromDomain(n)
	if err != nil {
		return nil, err
	}
	err = conn.Model(&couponRow{}).Where("id = ?", string(id)).Select("*").Omit("id", "created_at", "usage_count", "deleted_at").Updates(&row).Error
	if err != nil {
		if db.IsDuplicate(err) {
			return nil, domain.ErrCodeExists
		}
		return nil, fmt.Errorf("coupons: update: %w", err)
	}
	return n, nil
}

// Delete marks a live coupon deleted.
func (r *CouponRepository) Delete(ctx context.Context, id domain.CouponID, at time.Time) (*domain.Coupon, error) {
	res := r.db.Conn(ctx).Model(&couponRow{}).Where("id = ? AND deleted_at IS NULL", string(id)).
		Updates(map[string]any{"deleted_at": at.UTC(), "updated_at": at.UTC()})
	if err := db.One(res, domain.ErrCouponNotFound, "coupons: delete"); err != nil {
		return nil, err
	}
	return r.GetAny(ctx, id)
}

// List returns a page of live coupons, newest first, and the total matching.
func (r *CouponRepository) List(ctx context.Context, q ports.ListQuery) ([]*domain.Coupon, int64, error) {
	where := []string{"deleted_at IS NULL"}
	var args []any
	if q.Active != nil {
		where = append(where, "is_active = ?")
		args = append(args, *q.Active)
	}
	if q.Public {
		now := q.Now.UTC()
		where = append(where, "is_active = ?", "starts_at <= ?", "(expires_at IS NULL OR expires_at > ?)", "customer_restricted = ?")
		args = append(args, true, now, now, false)
	}
	page := r.db.Conn(ctx).Model(&couponRow{}).Where(strings.Join(where, " AND "), args...).Session(&gorm.Session{})
	rows, total, err := db.Page[couponRow](page, "created_at DESC, id DESC", q.Offset, q.Limit, "coupons: count", "coupons: list")
	if err != nil {
		return nil, 0, err
	}
	out, err := db.MapErr(rows, couponRow.toDomain)
	return out, total, err
}
