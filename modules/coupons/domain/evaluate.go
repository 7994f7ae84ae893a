package domain

import (
	"sort"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// Line is one cart line as a coupon sees it.
type Line struct {
	ID            string
	ProductID     string
	VariantID     string
	CollectionIDs []string
	Quantity      int
	UnitPrice     decimal.Decimal
}

// Subtotal is quantity x unit price.
func (l Line) Subtotal() decimal.Decimal {
	return l.UnitPrice.Mul(decimal.NewFromInt(int64(l.Quantity)))
}

// AppliedCoupon is another coupon already on the cart (Type is "" when it no longer
// exists).
type AppliedCoupon struct {
	Code string
	Type Type
}

// Cart is what a coupon is evaluated against.
type Cart struct {
	Currency      string
	Lines         []Line
	Subtotal      decimal.Decimal
	ShippingTotal decimal.Decimal
	// Applied are the coupons already on the cart (for a re-evaluation: the others).
	Applied []AppliedCoupon
	// HasAutomaticDiscounts reports automatic discounts on the cart (coupons do not
	// combine with them).
	HasAutomaticDiscounts bool
}

// Customer holds the facts the eligibility rules need; the use case fills only what
// the coupon asks for (see Coupon.Needs).
type Customer struct {
	ID string // "" for a guest
	// IsNew reports a customer (or guest) without previous orders.
	IsNew bool
	// Segments reports membership of the coupon's segments.
	Segments map[string]bool
	// Uses is how many times this customer used the coupon.
	Uses int
}

// Needs lists which facts a coupon's rules read beyond the cart's amounts: customer
// facts, and the collections of the lines' products.
type Needs struct{ NewCustomer, Segments, Uses, Collections bool }

// Needs reports which facts the coupon's checks read.
func (c *Coupon) Needs() Needs {
	return Needs{
		NewCustomer: c.CustomerEligibility.NewCustomersOnly,
		Segments:    len(c.CustomerEligibility.CustomerSegments) > 0,
		Uses:        c.UsageLimitPerCustomer != nil,
		Collections: len(c.AppliesTo.CollectionIDs) > 0,
	}
}

// Rules are the configurable stacking rules.
type Rules struct {
	// AllowFreeShippingStacking lets a free_shipping coupon stack with one percentage
	// or fixed_amount coupon (coupons.allow_free_shipping_stacking).
	AllowFreeShippingStacking bool
}

// Discount is the result of applying a coupon to a cart.
type Discount struct {
	// Lines maps line ids to their discount (only discounted lines).
	Lines map[string]decimal.Decimal
	// Shipping is the shipping discount (free_shipping coupons).
	Shipping decimal.Decimal
	// Amount is the sum of the line discounts and the shipping discount.
	Amount decimal.Decimal
}

// Evaluate checks every restriction in order (docs/decisions/0063) and computes the
// discount.
func (c *Coupon) Evaluate(now time.Time, cart Cart, cust Customer, rules Rules) (Discount, error) {
	if err := c.Check(now, cart, cust, rules); err != nil {
		return Discount{}, err
	}
	return c.Calculate(cart)
}

// Check applies the restrictions other than product eligibility, in this order:
// already applied, active, time window, total usage limit, combination, customer
// eligibility (ids and segments, then new customers), per-customer limit, minimum
// order amount.
func (c *Coupon) Check(now time.Time, cart Cart, cust Customer, rules Rules) error {
	key := CodeKey(c.Code)
	for _, a := range cart.Applied {
		if CodeKey(a.Code) == key {
			return ErrAlreadyApplied
		}
	}
	switch {
	case c.DeletedAt != nil:
		return ErrCouponNotFound
	case !c.IsActive:
		return ErrInactive
	case now.Before(c.StartsAt):
		return ErrNotStarted
	case c.ExpiresAt != nil && !now.Before(*c.ExpiresAt):
		return ErrExpired
	case c.UsageLimit != nil && c.UsageCount >= *c.UsageLimit:
		return ErrUsageLimit
	}
	if err := c.checkCombination(cart, rules); err != nil {
		return err
	}
	if e := c.CustomerEligibility; e.Restricted() {
		ok := cust.ID != "" && containsID(e.CustomerIDs, cust.ID)
		for _, s := range e.CustomerSegments {
			ok = ok || (cust.ID != "" && cust.Segments[strings.ToLower(s)])
		}
		if !ok {
			return ErrCustomerNotEligible
		}
	}
	if c.CustomerEligibility.NewCustomersOnly && !cust.IsNew {
		return ErrNewCustomersOnly
	}
	if l := c.UsageLimitPerCustomer; l != nil && cust.ID != "" && cust.Uses >= *l {
		return ErrCustomerLimit
	}
	if cart.Subtotal.LessThan(c.MinimumOrderAmount) {
		return ErrMinimumNotMet.WithMessage("Cart subtotal %s is below the coupon's minimum order amount %s",
			Format(cart.Subtotal, cart.Currency), Format(c.MinimumOrderAmount, cart.Currency))
	}
	return nil
}

// checkCombination: one coupon per cart, never with automatic discounts; a
// free_shipping coupon may join one percentage or fixed_amount coupon (and the other
// way round) when the rules allow it.
func (c *Coupon) checkCombination(cart Cart, rules Rules) error {
	if cart.HasAutomaticDiscounts {
		return ErrCannotCombine.WithMessage("Coupon cannot be combined with the cart's automatic discounts")
	}
	switch len(cart.Applied) {
	case 0:
		return nil
	case 1:
		if rules.AllowFreeShippingStacking && Stackable(c.Type, cart.Applied[0].Type) {
			return nil
		}
	}
	return ErrCannotCombine
}

// Stackable reports whether two coupon types may share a cart when free shipping
// stacking is allowed.
func Stackable(a, b Type) bool {
	other := func(t Type) bool { return t == Percentage || t == FixedAmount }
	return (a == FreeShipping && other(b)) || (b == FreeShipping && other(a))
}

// Eligible reports whether a line qualifies: never when its product is excluded;
// otherwise when the coupon names no products or collections, or names the line's
// product or one of its collections.
func (c *Coupon) Eligible(l Line) bool {
	if containsID(c.AppliesTo.ExcludeProductIDs, l.ProductID) {
		return false
	}
	if !c.AppliesTo.Restricted() {
		return true
	}
	if containsID(c.AppliesTo.ProductIDs, l.ProductID) {
		return true
	}
	for _, col := range l.CollectionIDs {
		if containsID(c.AppliesTo.CollectionIDs, col) {
			return true
		}
	}
	return false
}

// Calculate computes the discount of a coupon that passed Check (Part 1 "Discount
// calculation"; rounding and allocation: docs/decisions/0062). A coupon with nothing
// to discount is ErrProductNotEligible.
func (c *Coupon) Calculate(cart Cart) (Discount, error) {
	var eligible []Line
	for _, l := range cart.Lines {
		if l.Quantity > 0 && c.Eligible(l) {
			eligible = append(eligible, l)
		}
	}
	switch c.Type {
	case FreeShipping:
		if c.AppliesTo.Restricted() && len(eligible) == 0 {
			return Discount{}, ErrProductNotEligible
		}
		d := c.capped(cart.ShippingTotal, cart.Currency)
		return Discount{Lines: map[string]decimal.Decimal{}, Shipping: d, Amount: d}, nil
	case Percentage:
		if len(eligible) == 0 {
			return Discount{}, ErrProductNotEligible
		}
		base := sumSubtotals(eligible)
		return c.spread(Round(base.Mul(c.Value).Div(hundred), cart.Currency), eligible, subtotals(eligible), cart.Currency), nil
	case FixedAmount:
		if len(eligible) == 0 {
			return Discount{}, ErrProductNotEligible
		}
		base := sumSubtotals(eligible)
		return c.spread(decimal.Min(Round(c.Value, cart.Currency), base), eligible, subtotals(eligible), cart.Currency), nil
	case BuyXGetY:
		return c.buyXGetY(eligible, cart.Currency)
	}
	return Discount{}, ErrProductNotEligible
}

// buyXGetY: eligible_sets = floor(qualifying quantity / buy_quantity); the
// eligible_sets x get_quantity cheapest units of the "get" lines are discounted by
// get_discount_value percent (CONTRACT.md §7: the formula taken literally).
func (c *Coupon) buyXGetY(eligible []Line, currency string) (Discount, error) {
	r := c.BuyXGetY
	if r == nil || r.BuyQuantity < 1 {
		return Discount{}, ErrProductNotEligible
	}
	qualifying := 0
	var gets []Line
	for _, l := range eligible {
		if len(r.BuyProductIDs) == 0 || containsID(r.BuyProductIDs, l.ProductID) {
			qualifying += l.Quantity
		}
		if len(r.GetProductIDs) == 0 || containsID(r.GetProductIDs, l.ProductID) {
			gets = append(gets, l)
		}
	}
	sets := qualifying / r.BuyQuantity
	if sets == 0 {
		return Discount{}, ErrProductNotEligible.WithMessage("Add %d more qualifying item(s) to use this coupon", r.BuyQuantity-qualifying)
	}
	if len(gets) == 0 {
		return Discount{}, ErrProductNotEligible
	}
	units := sets * r.GetQuantity
	sort.SliceStable(gets, func(i, j int) bool { return gets[i].UnitPrice.LessThan(gets[j].UnitPrice) })
	var lines []Line
	var weights []decimal.Decimal
	for _, l := range gets {
		if units == 0 {
			break
		}
		n := min(units, l.Quantity)
		units -= n
		lines = append(lines, l)
		weights = append(weights, l.UnitPrice.Mul(decimal.NewFromInt(int64(n))))
	}
	base := decimal.Sum(decimal.Zero, weights...)
	return c.spread(Round(base.Mul(r.GetDiscountValue).Div(hundred), currency), lines, weights, currency), nil
}

// spread caps an order-level amount and allocates it across lines by weight.
func (c *Coupon) spread(amount decimal.Decimal, lines []Line, weights []decimal.Decimal, currency string) Discount {
	amount = c.capped(amount, currency)
	shares := Allocate(amount, weights, currency)
	d := Discount{Lines: make(map[string]decimal.Decimal, len(lines)), Shipping: decimal.Zero, Amount: decimal.Zero}
	for i, l := range lines {
		if shares[i].IsPositive() {
			d.Lines[l.ID] = d.Lines[l.ID].Add(shares[i])
			d.Amount = d.Amount.Add(shares[i])
		}
	}
	return d
}

// capped applies maximum_discount_amount (rounded to the currency) when set.
func (c *Coupon) capped(amount decimal.Decimal, currency string) decimal.Decimal {
	if c.MaximumDiscountAmount != nil {
		return decimal.Min(amount, Round(*c.MaximumDiscountAmount, currency))
	}
	return amount
}

func subtotals(lines []Line) []decimal.Decimal {
	out := make([]decimal.Decimal, len(lines))
	for i, l := range lines {
		out[i] = l.Subtotal()
	}
	return out
}

func sumSubtotals(lines []Line) decimal.Decimal {
	return decimal.Sum(decimal.Zero, subtotals(lines)...)
}

func containsID(list []string, id string) bool {
	for _, x := range list {
		if strings.EqualFold(x, id) {
			return true
		}
	}
	return false
}
