// Package domain holds the coupons module's rules: the coupon, its validation, the
// application restrictions and the discount calculation. Plain Go: no framework.
package domain

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/limits"
)

// CouponID identifies a coupon.
type CouponID string

// Type is a coupon type.
type Type string

// Coupon types (Part 1 "Coupon").
const (
	Percentage   Type = "percentage"
	FixedAmount  Type = "fixed_amount"
	FreeShipping Type = "free_shipping"
	BuyXGetY     Type = "buy_x_get_y"
)

// Valid reports a known type.
func (t Type) Valid() bool {
	switch t {
	case Percentage, FixedAmount, FreeShipping, BuyXGetY:
		return true
	}
	return false
}

// GetDiscountPercentage is the only get_discount_type of buy_x_get_y coupons.
const GetDiscountPercentage = "percentage"

// AppliesTo restricts the products a coupon discounts (empty lists: every product).
type AppliesTo struct {
	ProductIDs        []string
	CollectionIDs     []string
	ExcludeProductIDs []string
}

// Restricted reports whether the coupon names products or collections.
func (a AppliesTo) Restricted() bool { return len(a.ProductIDs) > 0 || len(a.CollectionIDs) > 0 }

// Eligibility restricts who may use a coupon.
type Eligibility struct {
	NewCustomersOnly bool
	CustomerIDs      []string
	CustomerSegments []string
}

// Restricted reports whether the coupon names customers or segments.
func (e Eligibility) Restricted() bool { return len(e.CustomerIDs) > 0 || len(e.CustomerSegments) > 0 }

// BuyXGetYRule is the rule of a buy_x_get_y coupon.
type BuyXGetYRule struct {
	BuyQuantity      int
	GetQuantity      int
	BuyProductIDs    []string
	GetProductIDs    []string
	GetDiscountType  string
	GetDiscountValue decimal.Decimal
}

// Coupon is a discount code.
type Coupon struct {
	ID                    CouponID
	Code                  string
	Type                  Type
	Value                 decimal.Decimal
	Description           string
	MinimumOrderAmount    decimal.Decimal
	MaximumDiscountAmount *decimal.Decimal
	StartsAt              time.Time
	ExpiresAt             *time.Time
	UsageLimit            *int
	UsageLimitPerCustomer *int
	UsageCount            int
	IsActive              bool
	AppliesTo             AppliesTo
	CustomerEligibility   Eligibility
	BuyXGetY              *BuyXGetYRule
	CreatedAt             time.Time
	UpdatedAt             time.Time
	DeletedAt             *time.Time
}

// CodeKey is the case-insensitive form of a code used for uniqueness and lookups.
func CodeKey(code string) string { return strings.ToUpper(strings.TrimSpace(code)) }

// Field is one member of a patch: Set when the request named it, Null when it was null.
type Field[T any] struct {
	Set   bool
	Null  bool
	Value T
}

// Patch is a create or update request in domain terms (PUT takes any subset).
type Patch struct {
	Code                  Field[string]
	Type                  Field[string]
	Value                 Field[decimal.Decimal]
	Description           Field[string]
	MinimumOrderAmount    Field[decimal.Decimal]
	MaximumDiscountAmount Field[decimal.Decimal]
	StartsAt              Field[time.Time]
	ExpiresAt             Field[time.Time]
	UsageLimit            Field[int]
	UsageLimitPerCustomer Field[int]
	IsActive              Field[bool]
	AppliesTo             Field[AppliesTo]
	CustomerEligibility   Field[Eligibility]
	BuyXGetY              Field[BuyXGetYRule]
}

// FieldErrors names each bad field of a request.
type FieldErrors map[string]string

func (f FieldErrors) add(field, msg string) {
	if _, dup := f[field]; !dup {
		f[field] = msg
	}
}

// Limits of coupon fields.
const (
	MaxCodeLength        = 50
	MaxDescriptionLength = 1000
	MaxIDs               = 1000
	MaxQuantity          = 9999
	// MaxUsageLimit bounds usage_limit and usage_limit_per_customer (docs/decisions/0094).
	MaxUsageLimit    = limits.MaxCount
	maxIntegerDigits = 15
	maxDecimals      = 4
)

var codePattern = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

var hundred = decimal.NewFromInt(100)

var msgUsageLimit = fmt.Sprintf("must be from 1 to %d", MaxUsageLimit)

// New builds a coupon from a create request: code and type are required; value is
// required for percentage and fixed_amount coupons, buy_x_get_y for buy_x_get_y.
// Defaults: is_active true, starts_at now, minimum_order_amount 0.
func New(id CouponID, p Patch, now time.Time) (*Coupon, FieldErrors) {
	c := &Coupon{ID: id, IsActive: true, StartsAt: now, CreatedAt: now, UpdatedAt: now}
	bad := FieldErrors{}
	if !p.Code.Set || p.Code.Null {
		bad.add("code", "is required")
	}
	if !p.Type.Set || p.Type.Null {
		bad.add("type", "is required")
	}
	if p.Type.Set && (Type(p.Type.Value) == Percentage || Type(p.Type.Value) == FixedAmount) && (!p.Value.Set || p.Value.Null) {
		bad.add("value", "is required")
	}
	if p.Type.Set && Type(p.Type.Value) == BuyXGetY && (!p.BuyXGetY.Set || p.BuyXGetY.Null) {
		bad.add("buy_x_get_y", "is required for buy_x_get_y coupons")
	}
	c.apply(p, bad)
	if len(bad) > 0 {
		return nil, bad
	}
	return c, nil
}

// Update applies a patch to a copy of the coupon and validates the result.
func (c *Coupon) Update(p Patch, now time.Time) (*Coupon, FieldErrors) {
	n := *c
	bad := FieldErrors{}
	n.apply(p, bad)
	if len(bad) > 0 {
		return nil, bad
	}
	n.UpdatedAt = now
	return &n, nil
}

func (c *Coupon) apply(p Patch, bad FieldErrors) {
	if p.Code.Set {
		code := strings.TrimSpace(p.Code.Value)
		switch {
		case p.Code.Null || code == "":
			bad.add("code", "is required")
		case len(code) > MaxCodeLength:
			bad.add("code", "must be at most 50 characters")
		case !codePattern.MatchString(code):
			bad.add("code", "may contain only letters, digits, '-' and '_'")
		}
		c.Code = code
	}
	if p.Type.Set {
		t := Type(p.Type.Value)
		if p.Type.Null || !t.Valid() {
			bad.add("type", "must be one of: percentage, fixed_amount, free_shipping, buy_x_get_y")
		}
		c.Type = t
	}
	if p.Value.Set {
		if p.Value.Null {
			bad.add("value", "must be a decimal string")
		}
		c.Value = p.Value.Value
	}
	if p.Description.Set {
		if len(p.Description.Value) > MaxDescriptionLength {
			bad.add("description", "must be at most 1000 characters")
		}
		c.Description = p.Description.Value
	}
	if p.MinimumOrderAmount.Set {
		c.MinimumOrderAmount = decimal.Zero
		if !p.MinimumOrderAmount.Null {
			c.MinimumOrderAmount = p.MinimumOrderAmount.Value
		}
	}
	if p.MaximumDiscountAmount.Set {
		c.MaximumDiscountAmount = nil
		if !p.MaximumDiscountAmount.Null {
			v := p.MaximumDiscountAmount.Value
			c.MaximumDiscountAmount = &v
		}
	}
	if p.StartsAt.Set {
		if p.StartsAt.Null {
			bad.add("starts_at", "must be a timestamp")
		} else {
			c.StartsAt = p.StartsAt.Value.UTC()
		}
	}
	if p.ExpiresAt.Set {
		c.ExpiresAt = nil
		if !p.ExpiresAt.Null {
			t := p.ExpiresAt.Value.UTC()
			c.ExpiresAt = &t
		}
	}
	if p.UsageLimit.Set {
		c.UsageLimit = nullableInt(p.UsageLimit)
	}
	if p.UsageLimitPerCustomer.Set {
		c.UsageLimitPerCustomer = nullableInt(p.UsageLimitPerCustomer)
	}
	if p.IsActive.Set {
		if p.IsActive.Null {
			bad.add("is_active", "must be a boolean")
		}
		c.IsActive = p.IsActive.Value
	}
	if p.AppliesTo.Set {
		c.AppliesTo = AppliesTo{}
		if !p.AppliesTo.Null {
			c.AppliesTo = normalizeAppliesTo(p.AppliesTo.Value)
		}
	}
	if p.CustomerEligibility.Set {
		c.CustomerEligibility = Eligibility{}
		if !p.CustomerEligibility.Null {
			e := p.CustomerEligibility.Value
			c.CustomerEligibility = Eligibility{NewCustomersOnly: e.NewCustomersOnly, CustomerIDs: dedupe(e.CustomerIDs), CustomerSegments: dedupe(e.CustomerSegments)}
		}
	}
	if p.BuyXGetY.Set {
		c.BuyXGetY = nil
		if !p.BuyXGetY.Null {
			r := p.BuyXGetY.Value
			if r.GetDiscountType == "" {
				r.GetDiscountType = GetDiscountPercentage
			}
			r.BuyProductIDs, r.GetProductIDs = dedupe(r.BuyProductIDs), dedupe(r.GetProductIDs)
			c.BuyXGetY = &r
			if c.Type != BuyXGetY {
				bad.add("buy_x_get_y", "is allowed only for buy_x_get_y coupons")
			}
		}
	} else if c.Type != BuyXGetY {
		c.BuyXGetY = nil // the type changed away from buy_x_get_y
	}
	c.validate(bad)
}

func nullableInt(f Field[int]) *int {
	if f.Null {
		return nil
	}
	v := f.Value
	return &v
}

func normalizeAppliesTo(a AppliesTo) AppliesTo {
	return AppliesTo{ProductIDs: dedupe(a.ProductIDs), CollectionIDs: dedupe(a.CollectionIDs), ExcludeProductIDs: dedupe(a.ExcludeProductIDs)}
}

// dedupe lower-cases ids and drops duplicates, keeping the first order.
func dedupe(in []string) []string {
	out := make([]string, 0, len(in))
	seen := map[string]bool{}
	for _, s := range in {
		s = strings.ToLower(strings.TrimSpace(s))
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// validate checks the whole coupon after a patch.
func (c *Coupon) validate(bad FieldErrors) {
	if c.Type.Valid() {
		switch c.Type {
		case Percentage:
			if !c.Value.IsPositive() || c.Value.GreaterThan(hundred) {
				bad.add("value", "must be greater than 0 and at most 100 for percentage coupons")
			}
		case FixedAmount:
			if !c.Value.IsPositive() {
				bad.add("value", "must be greater than 0 for fixed_amount coupons")
			}
		case FreeShipping, BuyXGetY:
			if c.Value.IsNegative() {
				bad.add("value", "must not be negative")
			}
		}
		if c.Type == BuyXGetY && c.BuyXGetY == nil {
			bad.add("buy_x_get_y", "is required for buy_x_get_y coupons")
		}
	}
	checkAmount(bad, "value", c.Value)
	checkAmount(bad, "minimum_order_amount", c.MinimumOrderAmount)
	if c.MinimumOrderAmount.IsNegative() {
		bad.add("minimum_order_amount", "must not be negative")
	}
	if m := c.MaximumDiscountAmount; m != nil {
		checkAmount(bad, "maximum_discount_amount", *m)
		if !m.IsPositive() {
			bad.add("maximum_discount_amount", "must be greater than 0")
		}
	}
	if c.ExpiresAt != nil && !c.ExpiresAt.After(c.StartsAt) {
		bad.add("expires_at", "must be after starts_at")
	}
	if c.UsageLimit != nil && (*c.UsageLimit < 1 || *c.UsageLimit > MaxUsageLimit) {
		bad.add("usage_limit", msgUsageLimit)
	}
	if c.UsageLimitPerCustomer != nil && (*c.UsageLimitPerCustomer < 1 || *c.UsageLimitPerCustomer > MaxUsageLimit) {
		bad.add("usage_limit_per_customer", msgUsageLimit)
	}
	checkIDs(bad, "applies_to.product_ids", c.AppliesTo.ProductIDs)
	checkIDs(bad, "applies_to.collection_ids", c.AppliesTo.CollectionIDs)
	checkIDs(bad, "applies_to.exclude_product_ids", c.AppliesTo.ExcludeProductIDs)
	checkIDs(bad, "customer_eligibility.customer_ids", c.CustomerEligibility.CustomerIDs)
	checkIDs(bad, "customer_eligibility.customer_segments", c.CustomerEligibility.CustomerSegments)
	if r := c.BuyXGetY; r != nil {
		if r.BuyQuantity < 1 || r.BuyQuantity > MaxQuantity {
			bad.add("buy_x_get_y.buy_quantity", "must be from 1 to 9999")
		}
		if r.GetQuantity < 1 || r.GetQuantity > MaxQuantity {
			bad.add("buy_x_get_y.get_quantity", "must be from 1 to 9999")
		}
		if r.GetDiscountType != GetDiscountPercentage {
			bad.add("buy_x_get_y.get_discount_type", "must be one of: percentage")
		}
		if !r.GetDiscountValue.IsPositive() || r.GetDiscountValue.GreaterThan(hundred) {
			bad.add("buy_x_get_y.get_discount_value", "must be greater than 0 and at most 100")
		}
		checkAmount(bad, "buy_x_get_y.get_discount_value", r.GetDiscountValue)
		checkIDs(bad, "buy_x_get_y.buy_product_ids", r.BuyProductIDs)
		checkIDs(bad, "buy_x_get_y.get_product_ids", r.GetProductIDs)
	}
}

func checkAmount(bad FieldErrors, field string, d decimal.Decimal) {
	if d.Exponent() < -maxDecimals && !d.Equal(d.Truncate(maxDecimals)) {
		bad.add(field, "must have at most 4 decimal places")
	}
	if len(d.Abs().Truncate(0).String()) > maxIntegerDigits {
		bad.add(field, "is too large")
	}
}

func checkIDs(bad FieldErrors, field string, list []string) {
	if len(list) > MaxIDs {
		bad.add(field, "must have at most 1000 entries")
		return
	}
	for _, id := range list {
		if _, err := uuid.Parse(id); err != nil || len(id) != 36 {
			bad.add(field, "must contain only UUIDs")
			return
		}
	}
}
