// Package domain holds the coupons module's rules: the coupon, its validation, the
// application restrictions and the discount calculation. Plain Go: no framework.
package domain

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/limits"
	"github.com/gocommerce/commerce/platform/patch"
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
	return slices.Contains([]Type{Percentage, FixedAmount, FreeShipping, BuyXGetY}, t)
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

// Patch is a create or update request in domain terms (PUT takes any subset).
type Patch struct {
	Code                  patch.Field[string]
	Type                  patch.Field[string]
	Value                 patch.Field[decimal.Decimal]
	Description           patch.Field[string]
	MinimumOrderAmount    patch.Field[decimal.Decimal]
	MaximumDiscountAmount patch.Field[decimal.Decimal]
	StartsAt              patch.Field[time.Time]
	ExpiresAt             patch.Field[time.Time]
	UsageLimit            patch.Field[int]
	UsageLimitPerCustomer patch.Field[int]
	IsActive              patch.Field[bool]
	AppliesTo             patch.Field[AppliesTo]
	CustomerEligibility   patch.Field[Eligibility]
	BuyXGetY              patch.Field[BuyXGetYRule]
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
func New(id CouponID, p Patch, now time.Time) (*Coupon, patch.Problems) {
	c := &Coupon{ID: id, IsActive: true, StartsAt: now, CreatedAt: now, UpdatedAt: now}
	bad := patch.Problems{}
	if !p.Code.Set || p.Code.Null {
		bad.Add("code", "is required")
	}
	if !p.Type.Set || p.Type.Null {
		bad.Add("type", "is required")
	}
	if p.Type.Set && (Type(p.Type.Value) == Percentage || Type(p.Type.Value) == FixedAmount) && (!p.Value.Set || p.Value.Null) {
		bad.Add("value", "is required")
	}
	if p.Type.Set && Type(p.Type.Value) == BuyXGetY && (!p.BuyXGetY.Set || p.BuyXGetY.Null) {
		bad.Add("buy_x_get_y", "is required for buy_x_get_y coupons")
	}
	c.apply(p, bad)
	if len(bad) > 0 {
		return nil, bad
	}
	return c, nil
}

// Update applies a patch to a copy of the coupon and validates the result.
func (c *Coupon) Update(p Patch, now time.Time) (*Coupon, patch.Problems) {
	n := *c
	bad := patch.Problems{}
	n.apply(p, bad)
	if len(bad) > 0 {
		return nil, bad
	}
	n.UpdatedAt = now
	return &n, nil
}

// apply applies the present fields of a patch, one group at a time, then validates the
// whole coupon; bad names every problem.
func (c *Coupon) apply(p Patch, bad patch.Problems) {
	c.applyTerms(p, bad)
	c.applyLimits(p, bad)
	c.applyRestrictions(p)
	c.applyBuyXGetY(p.BuyXGetY, bad)
	c.validate(bad)
}

// applyTerms applies code, type, value and description.
func (c *Coupon) applyTerms(p Patch, bad patch.Problems) {
	if p.Code.Set {
		code := strings.TrimSpace(p.Code.Value)
		switch {
		case p.Code.Null || code == "":
			bad.Add("code", "is required")
		case len(code) > MaxCodeLength:
			bad.Add("code", "must be at most 50 characters")
		case !codePattern.MatchString(code):
			bad.Add("code", "may contain only letters, digits, '-' and '_'")
		}
		c.Code = code
	}
	if p.Type.Set {
		c.Type = Type(p.Type.Value)
		if p.Type.Null || !c.Type.Valid() {
			bad.Add("type", "must be one of: percentage, fixed_amount, free_shipping, buy_x_get_y")
		}
	}
	if p.Value.Set {
		if p.Value.Null {
			bad.Add("value", "must be a decimal string")
		}
		c.Value = p.Value.Value
	}
	if p.Description.Set {
		if len(p.Description.Value) > MaxDescriptionLength {
			bad.Add("description", "must be at most 1000 characters")
		}
		c.Description = p.Description.Value
	}
}

// applyLimits applies the order amounts, the dates, the usage limits and is_active;
// null clears the optional ones.
func (c *Coupon) applyLimits(p Patch, bad patch.Problems) {
	if p.MinimumOrderAmount.Set {
		c.MinimumOrderAmount = decimal.Zero
		if !p.MinimumOrderAmount.Null {
			c.MinimumOrderAmount = p.MinimumOrderAmount.Value
		}
	}
	setNullable(p.MaximumDiscountAmount, &c.MaximumDiscountAmount)
	if p.StartsAt.Set {
		if p.StartsAt.Null {
			bad.Add("starts_at", "must be a timestamp")
		} else {
			c.StartsAt = p.StartsAt.Value.UTC()
		}
	}
	if p.ExpiresAt.HasValue() {
		p.ExpiresAt.Value = p.ExpiresAt.Value.UTC()
	}
	setNullable(p.ExpiresAt, &c.ExpiresAt)
	setNullable(p.UsageLimit, &c.UsageLimit)
	setNullable(p.UsageLimitPerCustomer, &c.UsageLimitPerCustomer)
	if p.IsActive.Set {
		if p.IsActive.Null {
			bad.Add("is_active", "must be a boolean")
		}
		c.IsActive = p.IsActive.Value
	}
}

// applyRestrictions applies applies_to and customer_eligibility (null: no restriction).
func (c *Coupon) applyRestrictions(p Patch) {
	if p.AppliesTo.Set {
		c.AppliesTo = AppliesTo{}
		if !p.AppliesTo.Null {
			c.AppliesTo = normalizeAppliesTo(p.AppliesTo.Value)
		}
	}
	if p.CustomerEligibility.Set {
		c.CustomerEligibility = Eligibility{}
		if e := p.CustomerEligibility; !e.Null {
			c.CustomerEligibility = Eligibility{NewCustomersOnly: e.Value.NewCustomersOnly, CustomerIDs: dedupe(e.Value.CustomerIDs), CustomerSegments: dedupe(e.Value.CustomerSegments)}
		}
	}
}

// applyBuyXGetY applies the buy_x_get_y rule, which only buy_x_get_y coupons have: a
// type change away from buy_x_get_y drops it.
func (c *Coupon) applyBuyXGetY(f patch.Field[BuyXGetYRule], bad patch.Problems) {
	if !f.Set {
		if c.Type != BuyXGetY {
			c.BuyXGetY = nil
		}
		return
	}
	c.BuyXGetY = nil
	if f.Null {
		return
	}
	r := f.Value
	if r.GetDiscountType == "" {
		r.GetDiscountType = GetDiscountPercentage
	}
	r.BuyProductIDs, r.GetProductIDs = dedupe(r.BuyProductIDs), dedupe(r.GetProductIDs)
	c.BuyXGetY = &r
	if c.Type != BuyXGetY {
		bad.Add("buy_x_get_y", "is allowed only for buy_x_get_y coupons")
	}
}

// setNullable stores a present field in an optional one: null clears it.
func setNullable[T any](f patch.Field[T], dst **T) {
	if !f.Set {
		return
	}
	*dst = nil
	if !f.Null {
		v := f.Value
		*dst = &v
	}
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
func (c *Coupon) validate(bad patch.Problems) {
	if c.Type.Valid() {
		switch c.Type {
		case Percentage:
			if !c.Value.IsPositive() || c.Value.GreaterThan(hundred) {
				bad.Add("value", "must be greater than 0 and at most 100 for percentage coupons")
			}
		case FixedAmount:
			if !c.Value.IsPositive() {
				bad.Add("value", "must be greater than 0 for fixed_amount coupons")
			}
		case FreeShipping, BuyXGetY:
			if c.Value.IsNegative() {
				bad.Add("value", "must not be negative")
			}
		}
		if c.Type == BuyXGetY && c.BuyXGetY == nil {
			bad.Add("buy_x_get_y", "is required for buy_x_get_y coupons")
		}
	}
	checkAmount(bad, "value", c.Value)
	checkAmount(bad, "minimum_order_amount", c.MinimumOrderAmount)
	if c.MinimumOrderAmount.IsNegative() {
		bad.Add("minimum_order_amount", "must not be negative")
	}
	if m := c.MaximumDiscountAmount; m != nil {
		checkAmount(bad, "maximum_discount_amount", *m)
		if !m.IsPositive() {
			bad.Add("maximum_discount_amount", "must be greater than 0")
		}
	}
	if c.ExpiresAt != nil && !c.ExpiresAt.After(c.StartsAt) {
		bad.Add("expires_at", "must be after starts_at")
	}
	if c.UsageLimit != nil && (*c.UsageLimit < 1 || *c.UsageLimit > MaxUsageLimit) {
		bad.Add("usage_limit", msgUsageLimit)
	}
	if c.UsageLimitPerCustomer != nil && (*c.UsageLimitPerCustomer < 1 || *c.UsageLimitPerCustomer > MaxUsageLimit) {
		bad.Add("usage_limit_per_customer", msgUsageLimit)
	}
	checkIDs(bad, "applies_to.product_ids", c.AppliesTo.ProductIDs)
	checkIDs(bad, "applies_to.collection_ids", c.AppliesTo.CollectionIDs)
	checkIDs(bad, "applies_to.exclude_product_ids", c.AppliesTo.ExcludeProductIDs)
	checkIDs(bad, "customer_eligibility.customer_ids", c.CustomerEligibility.CustomerIDs)
	checkSegments(bad, "customer_eligibility.customer_segments", c.CustomerEligibility.CustomerSegments)
	if r := c.BuyXGetY; r != nil {
		if r.BuyQuantity < 1 || r.BuyQuantity > MaxQuantity {
			bad.Add("buy_x_get_y.buy_quantity", "must be from 1 to 9999")
		}
		if r.GetQuantity < 1 || r.GetQuantity > MaxQuantity {
			bad.Add("buy_x_get_y.get_quantity", "must be from 1 to 9999")
		}
		if r.GetDiscountType != GetDiscountPercentage {
			bad.Add("buy_x_get_y.get_discount_type", "must be one of: percentage")
		}
		if !r.GetDiscountValue.IsPositive() || r.GetDiscountValue.GreaterThan(hundred) {
			bad.Add("buy_x_get_y.get_discount_value", "must be greater than 0 and at most 100")
		}
		checkAmount(bad, "buy_x_get_y.get_discount_value", r.GetDiscountValue)
		checkIDs(bad, "buy_x_get_y.buy_product_ids", r.BuyProductIDs)
		checkIDs(bad, "buy_x_get_y.get_product_ids", r.GetProductIDs)
	}
}

func checkAmount(bad patch.Problems, field string, d decimal.Decimal) {
	if d.Exponent() < -maxDecimals && !d.Equal(d.Truncate(maxDecimals)) {
		bad.Add(field, "must have at most 4 decimal places")
	}
	if len(d.Abs().Truncate(0).String()) > maxIntegerDigits {
		bad.Add(field, "is too large")
	}
}

// ComputedSegments are the segments the statistics module computes, which
// customer_segments may name besides the ids of segments made by hand.
var ComputedSegments = []string{"vip", "loyal", "new", "at_risk", "dormant"}

// checkSegments is checkIDs for segments: each entry a UUID or a computed segment.
func checkSegments(bad patch.Problems, field string, list []string) {
	var ids []string
	for _, s := range list {
		if !slices.Contains(ComputedSegments, s) {
			ids = append(ids, s)
		}
	}
	if len(list) > MaxIDs {
		ids = list
	}
	checkIDs(bad, field, ids)
}

func checkIDs(bad patch.Problems, field string, list []string) {
	if len(list) > MaxIDs {
		bad.Add(field, "must have at most 1000 entries")
		return
	}
	for _, id := range list {
		if _, err := uuid.Parse(id); err != nil || len(id) != 36 {
			bad.Add(field, "must contain only UUIDs")
			return
		}
	}
}
