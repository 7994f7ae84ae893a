package postgres

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/coupons/domain"
	"github.com/gocommerce/commerce/modules/coupons/ports"
	"github.com/gocommerce/commerce/platform/db"
)

type couponRow struct {
	ID                    string `gorm:"primaryKey"`
	Code                  string
	CodeKey               string
	Type                  string
	Value                 decimal.Decimal
	Description           string
	MinimumOrderAmount    decimal.Decimal
	MaximumDiscountAmount decimal.NullDecimal
	StartsAt              time.Time
	ExpiresAt             *time.Time
	UsageLimit            *int
	UsageLimitPerCustomer *int
	UsageCount            int
	IsActive              bool
	AppliesTo             string // JSON
	CustomerEligibility   string // JSON
	CustomerRestricted    bool
	BuyXGetY              *string   `gorm:"column:buy_x_get_y"` // JSON or NULL
	CreatedAt             time.Time `gorm:"autoCreateTime:false"`
	UpdatedAt             time.Time `gorm:"autoUpdateTime:false"`
	DeletedAt             *time.Time
}

func (couponRow) TableName() string { return "coupons" }

type appliesToJSON struct {
	ProductIDs        []string `json:"product_ids"`
	CollectionIDs     []string `json:"collection_ids"`
	ExcludeProductIDs []string `json:"exclude_product_ids"`
}

type eligibilityJSON struct {
	NewCustomersOnly bool     `json:"new_customers_only"`
	CustomerIDs      []string `json:"customer_ids"`
	CustomerSegments []string `json:"customer_segments"`
}

type buyXGetYJSON struct {
	BuyQuantity      int             `json:"buy_quantity"`
	GetQuantity      int             `json:"get_quantity"`
	BuyProductIDs    []string        `json:"buy_product_ids"`
	GetProductIDs    []string        `json:"get_product_ids"`
	GetDiscountType  string          `json:"get_discount_type"`
	GetDiscountValue decimal.Decimal `json:"get_discount_value"`
}

func fromDomain(c *domain.Coupon) (couponRow, error) {
	at, err := json.Marshal(appliesToJSON(c.AppliesTo))
	if err != nil {
		return couponRow{}, err
	}
	el, err := json.Marshal(eligibilityJSON(c.CustomerEligibility))
	if err != nil {
		return couponRow{}, err
	}
	r := couponRow{
		ID: string(c.ID), Code: c.Code, CodeKey: domain.CodeKey(c.Code), Type: string(c.Type), Value: c.Value,
		Description: c.Description, MinimumOrderAmount: c.MinimumOrderAmount, StartsAt: c.StartsAt.UTC(),
		ExpiresAt: db.UTCPtr(c.ExpiresAt), UsageLimit: c.UsageLimit, UsageLimitPerCustomer: c.UsageLimitPerCustomer,
		UsageCount: c.UsageCount, IsActive: c.IsActive, AppliesTo: string(at), CustomerEligibility: string(el),
		CustomerRestricted: c.CustomerEligibility.Restricted(), CreatedAt: c.CreatedAt.UTC(), UpdatedAt: c.UpdatedAt.UTC(),
		DeletedAt: db.UTCPtr(c.DeletedAt),
	}
	if c.MaximumDiscountAmount != nil {
		r.MaximumDiscountAmount = decimal.NullDecimal{Decimal: *c.MaximumDiscountAmount, Valid: true}
	}
	if b := c.BuyXGetY; b != nil {
		raw, err := json.Marshal(buyXGetYJSON(*b))
		if err != nil {
			return couponRow{}, err
		}
		s := string(raw)
		r.BuyXGetY = &s
	}
	return r, nil
}

func (r couponRow) toDomain() (*domain.Coupon, error) {
	c := &domain.Coupon{
		ID: domain.CouponID(r.ID), Code: r.Code, Type: domain.Type(r.Type), Value: r.Value, Description: r.Description,
		MinimumOrderAmount: r.MinimumOrderAmount, StartsAt: r.StartsAt.UTC(), ExpiresAt: db.UTCPtr(r.ExpiresAt),
		UsageLimit: r.UsageLimit, UsageLimitPerCustomer: r.UsageLimitPerCustomer, UsageCount: r.UsageCount,
		IsActive: r.IsActive, CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(), DeletedAt: db.UTCPtr(r.DeletedAt),
	}
	if r.MaximumDiscountAmount.Valid {
		v := r.MaximumDiscountAmount.Decimal
		c.MaximumDiscountAmount = &v
	}
	var at appliesToJSON
	if err := json.Unmarshal([]byte(r.AppliesTo), &at); err != nil {
		return nil, fmt.Errorf("coupons: applies_to of %s: %w", r.ID, err)
	}
	c.AppliesTo = domain.AppliesTo(at)
	var el eligibilityJSON
	if err := json.Unmarshal([]byte(r.CustomerEligibility), &el); err != nil {
		return nil, fmt.Errorf("coupons: customer_eligibility of %s: %w", r.ID, err)
	}
	c.CustomerEligibility = domain.Eligibility(el)
	if r.BuyXGetY != nil && *r.BuyXGetY != "" && *r.BuyXGetY != "null" {
		var b buyXGetYJSON
		if err := json.Unmarshal([]byte(*r.BuyXGetY), &b); err != nil {
			return nil, fmt.Errorf("coupons: buy_x_get_y of %s: %w", r.ID, err)
		}
		rule := domain.BuyXGetYRule(b)
		c.BuyXGetY = &rule
	}
	return c, nil
}

type usageRow struct {
	ID             string `gorm:"primaryKey"`
	CouponID       string
	OrderID        string
	CustomerID     *string
	DiscountAmount decimal.Decimal
	OrderTotal     decimal.Decimal
	Currency       string
	UsedAt         time.Time
}

func (usageRow) TableName() string { return "coupon_usages" }

func fromUse(u ports.Use) usageRow {
	r := usageRow{
		ID: u.ID, CouponID: string(u.CouponID), OrderID: u.OrderID, DiscountAmount: u.DiscountAmount,
		OrderTotal: u.OrderTotal, Currency: u.Currency, UsedAt: u.UsedAt.UTC(),
	}
	if u.CustomerID != "" {
		id := u.CustomerID
		r.CustomerID = &id
	}
	return r
}

func (r usageRow) toUse() ports.Use {
	u := ports.Use{
		ID: r.ID, CouponID: domain.CouponID(r.CouponID), OrderID: r.OrderID, DiscountAmount: r.DiscountAmount,
		OrderTotal: r.OrderTotal, Currency: r.Currency, UsedAt: r.UsedAt.UTC(),
	}
	if r.CustomerID != nil {
		u.CustomerID = *r.CustomerID
	}
	return u
}
