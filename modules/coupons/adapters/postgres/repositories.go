package postgres

import (
	"github.com/gocommerce/commerce/modules/coupons/ports"
	"github.com/gocommerce/commerce/platform/db"
)

// The repositories, each holding the database handle it takes connections from
// (db.Conn); each one's methods are in its own file.
type (
	// CouponRepository implements ports.CouponRepository on the coupons table.
	CouponRepository struct{ db *db.DB }
	// UsageRepository implements ports.UsageRepository on coupon_usages and
	// coupons.usage_count.
	UsageRepository struct{ db *db.DB }
)

var (
	_ ports.CouponRepository = (*CouponRepository)(nil)
	_ ports.UsageRepository  = (*UsageRepository)(nil)
)

// NewCouponRepository builds the repository.
func NewCouponRepository(d *db.DB) *CouponRepository { return &CouponRepository{db: d} }

// NewUsageRepository builds the repository.
func NewUsageRepository(d *db.DB) *UsageRepository { return &UsageRepository{db: d} }
