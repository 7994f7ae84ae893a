package domain_test

import (
	"errors"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/coupons/domain"
)

var now = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

const (
	pA   = "00000000-0000-0000-0000-00000000000a"
	pB   = "00000000-0000-0000-0000-00000000000b"
	pC   = "00000000-0000-0000-0000-00000000000c"
	col1 = "00000000-0000-0000-0000-0000000000c1"
	cus1 = "00000000-0000-0000-0000-0000000000f1"
	seg1 = "00000000-0000-0000-0000-0000000000e1"
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func ptr[T any](v T) *T { return &v }

func line(id, product, price string, qty int, cols ...string) domain.Line {
	return domain.Line{ID: id, ProductID: product, VariantID: product, Quantity: qty, UnitPrice: dec(price), CollectionIDs: cols}
}

// cart builds a USD cart whose subtotal is the sum of its lines.
func cart(shipping string, lines ...domain.Line) domain.Cart {
	c := domain.Cart{Currency: "USD", Lines: lines, Subtotal: decimal.Zero, ShippingTotal: dec(shipping)}
	for _, l := range lines {
		c.Subtotal = c.Subtotal.Add(l.Subtotal())
	}
	return c
}

func coupon(t domain.Type, value string) *domain.Coupon {
	return &domain.Coupon{ID: "c", Code: "SAVE", Type: t, Value: dec(value), IsActive: true, StartsAt: now.Add(-time.Hour), MinimumOrderAmount: decimal.Zero}
}

// wantLines compares line discounts as "id=amount" pairs (missing ids are zero).
func checkDiscount(t *testing.T, d domain.Discount, amount, shipping string, lines map[string]string) {
	t.Helper()
	if !d.Amount.Equal(dec(amount)) {
		t.Errorf("amount %s, want %s", d.Amount, amount)
	}
	if !d.Shipping.Equal(dec(shipping)) {
		t.Errorf("shipping %s, want %s", d.Shipping, shipping)
	}
	sum := d.Shipping
	for id, v := range d.Lines {
		sum = sum.Add(v)
		want, ok := lines[id]
		if !ok {
			want = "0"
		}
		if !v.Equal(dec(want)) {
			t.Errorf("line %s: %s, want %s", id, v, want)
		}
	}
	for id, want := range lines {
		if _, ok := d.Lines[id]; !ok && !dec(want).IsZero() {
			t.Errorf("line %s missing, want %s", id, want)
		}
	}
	if !sum.Equal(d.Amount) {
		t.Errorf("lines + shipping = %s, amount %s: they must add up", sum, d.Amount)
	}
}

func TestPercentage(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		value  string
		cap    *string
		cart   domain.Cart
		amount string
		lines  map[string]string
	}{
		// discount = subtotal x value/100
		{"10% of 100.00", "10", nil, cart("0", line("1", pA, "25.00", 4)), "10.00", map[string]string{"1": "10.00"}},
		{"15% over two lines, proportional", "15", nil, cart("0", line("1", pA, "10.00", 1), line("2", pB, "30.00", 1)), "6.00", map[string]string{"1": "1.50", "2": "4.50"}},
		// 0.99 x 10% = 0.099 -> 0.10 (half-up on the order level), allocated 0.03 x 3 = 0.09, remainder on the last largest
		{"rounding remainder on the largest (last on ties)", "10", nil, cart("0", line("1", pA, "0.33", 1), line("2", pB, "0.33", 1), line("3", pC, "0.33", 1)), "0.10", map[string]string{"1": "0.03", "2": "0.03", "3": "0.04"}},
		{"half-up at .5", "50", nil, cart("0", line("1", pA, "0.01", 1)), "0.01", map[string]string{"1": "0.01"}},
		{"100% is the whole subtotal", "100", nil, cart("0", line("1", pA, "19.99", 3)), "59.97", map[string]string{"1": "59.97"}},
		// capped at maximum_discount_amount
		{"capped", "50", ptr("20.00"), cart("0", line("1", pA, "30.00", 1), line("2", pB, "70.00", 1)), "20.00", map[string]string{"1": "6.00", "2": "14.00"}},
		{"cap above the discount changes nothing", "10", ptr("50.00"), cart("0", line("1", pA, "30.00", 1)), "3.00", map[string]string{"1": "3.00"}},
		{"cap allocation with remainder", "50", ptr("10.00"), cart("0", line("1", pA, "10.00", 1), line("2", pB, "10.00", 1), line("3", pC, "10.00", 1)), "10.00", map[string]string{"1": "3.33", "2": "3.33", "3": "3.34"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := coupon(domain.Percentage, tc.value)
			if tc.cap != nil {
				c.MaximumDiscountAmount = ptr(dec(*tc.cap))
			}
			d, err := c.Evaluate(now, tc.cart, domain.Customer{}, domain.Rules{})
			if err != nil {
				t.Fatal(err)
			}
			checkDiscount(t, d, tc.amount, "0", tc.lines)
		})
	}
}

func TestPercentageMinorUnits(t *testing.T) {
	t.Parallel()
	cases := []struct{ currency, price, value, amount string }{
		{"JPY", "1999", "15", "300"},       // 299.85 -> 300
		{"KWD", "1.999", "15", "0.300"},    // 0.29985 -> 0.300
		{"USD", "19.99", "15", "3.00"},     // 2.9985 -> 3.00
		{"EUR", "10.05", "10", "1.01"},     // 1.005 -> 1.01 (half-up, not banker's)
		{"BHD", "10.005", "10", "1.001"},   // 1.0005 -> 1.001
		{"KRW", "15", "10", "2"},           // 1.5 -> 2
		{"USD", "0.05", "10", "0.01"},      // 0.005 -> 0.01
		{"USD", "0.04", "10", "0.00"},      // 0.004 -> 0.00
		{"JPY", "100", "33.3333", "33"},    // 33.3333 -> 33
		{"USD", "100.00", "12.5", "12.50"}, // exact
	}
	for _, tc := range cases {
		t.Run(tc.currency+" "+tc.price, func(t *testing.T) {
			t.Parallel()
			c := coupon(domain.Percentage, tc.value)
			ct := cart("0", line("1", pA, tc.price, 1))
			ct.Currency = tc.currency
			d, err := c.Evaluate(now, ct, domain.Customer{}, domain.Rules{})
			if err != nil {
				t.Fatal(err)
			}
			if domain.Format(d.Amount, tc.currency) != tc.amount {
				t.Errorf("amount %s, want %s", domain.Format(d.Amount, tc.currency), tc.amount)
			}
		})
	}
}

func TestFixedAmount(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		value  string
		cart   domain.Cart
		amount string
		lines  map[string]string
	}{
		// discount = value, not more than subtotal
		{"value below subtotal", "10.00", cart("0", line("1", pA, "50.00", 1)), "10.00", map[string]string{"1": "10.00"}},
		{"value above subtotal is the subtotal", "80.00", cart("0", line("1", pA, "50.00", 1)), "50.00", map[string]string{"1": "50.00"}},
		{"allocated in proportion", "10.00", cart("0", line("1", pA, "20.00", 1), line("2", pB, "60.00", 1)), "10.00", map[string]string{"1": "2.50", "2": "7.50"}},
		{"remainder on the largest line", "10.00", cart("0", line("1", pA, "10.00", 2), line("2", pB, "10.00", 1)), "10.00", map[string]string{"1": "6.67", "2": "3.33"}},
		{"remainder on the largest even when it is first", "1.00", cart("0", line("1", pA, "50.00", 1), line("2", pB, "25.00", 1), line("3", pC, "25.00", 1)), "1.00", map[string]string{"1": "0.50", "2": "0.25", "3": "0.25"}},
		{"three equal thirds", "1.00", cart("0", line("1", pA, "5.00", 1), line("2", pB, "5.00", 1), line("3", pC, "5.00", 1)), "1.00", map[string]string{"1": "0.33", "2": "0.33", "3": "0.34"}},
		{"value with more decimals than the currency is rounded", "9.999", cart("0", line("1", pA, "50.00", 1)), "10.00", map[string]string{"1": "10.00"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d, err := coupon(domain.FixedAmount, tc.value).Evaluate(now, tc.cart, domain.Customer{}, domain.Rules{})
			if err != nil {
				t.Fatal(err)
			}
			checkDiscount(t, d, tc.amount, "0", tc.lines)
		})
	}
}

func TestFreeShipping(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		cap      *string
		shipping string
		amount   string
	}{
		// discount = shipping_total
		{"whole shipping", nil, "9.95", "9.95"},
		{"no shipping yet", nil, "0", "0"},
		{"capped", ptr("5.00"), "9.95", "5.00"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := coupon(domain.FreeShipping, "0")
			if tc.cap != nil {
				c.MaximumDiscountAmount = ptr(dec(*tc.cap))
			}
			d, err := c.Evaluate(now, cart(tc.shipping, line("1", pA, "10.00", 1)), domain.Customer{}, domain.Rules{})
			if err != nil {
				t.Fatal(err)
			}
			checkDiscount(t, d, tc.amount, tc.amount, nil)
		})
	}
}

func TestBuyXGetY(t *testing.T) {
	t.Parallel()
	rule := func(buy, get int, pct string, buyIDs, getIDs []string) *domain.BuyXGetYRule {
		return &domain.BuyXGetYRule{BuyQuantity: buy, GetQuantity: get, BuyProductIDs: buyIDs, GetProductIDs: getIDs, GetDiscountType: "percentage", GetDiscountValue: dec(pct)}
	}
	cases := []struct {
		name   string
		rule   *domain.BuyXGetYRule
		cap    *string
		cart   domain.Cart
		amount string
		lines  map[string]string
		err    error
	}{
		// eligible_sets = floor(qualifying / buy_quantity); discounted = sets x get_quantity;
		// discount = sum of those items' prices x percentage
		{"buy 2 get 1 free, 3 in cart", rule(2, 1, "100", []string{pA}, []string{pA}), nil, cart("0", line("1", pA, "10.00", 3)), "10.00", map[string]string{"1": "10.00"}, nil},
		{"literal formula: 2 in cart already make a set", rule(2, 1, "100", []string{pA}, []string{pA}), nil, cart("0", line("1", pA, "10.00", 2)), "10.00", map[string]string{"1": "10.00"}, nil},
		{"floor: 5 qualifying / 2 = 2 sets", rule(2, 1, "50", []string{pA}, []string{pB}), nil, cart("0", line("1", pA, "10.00", 5), line("2", pB, "8.00", 3)), "8.00", map[string]string{"2": "8.00"}, nil},
		{"discounted units bounded by get items in cart", rule(1, 2, "100", []string{pA}, []string{pB}), nil, cart("0", line("1", pA, "10.00", 3), line("2", pB, "4.00", 1)), "4.00", map[string]string{"2": "4.00"}, nil},
		{"cheapest get units first", rule(1, 1, "100", []string{pA}, nil), nil, cart("0", line("1", pA, "10.00", 1), line("2", pB, "3.00", 1), line("3", pC, "5.00", 1)), "3.00", map[string]string{"2": "3.00"}, nil},
		{"cheapest units spill to the next line", rule(1, 3, "50", []string{pA}, []string{pB, pC}), nil, cart("0", line("1", pA, "10.00", 1), line("2", pB, "3.00", 2), line("3", pC, "5.00", 2)), "5.50", map[string]string{"2": "3.00", "3": "2.50"}, nil},
		{"percentage rounding half-up", rule(1, 1, "33.3333", []string{pA}, []string{pB}), nil, cart("0", line("1", pA, "1.00", 1), line("2", pB, "1.00", 1)), "0.33", map[string]string{"2": "0.33"}, nil},
		{"capped", rule(1, 1, "100", []string{pA}, []string{pB}), ptr("2.00"), cart("0", line("1", pA, "10.00", 1), line("2", pB, "9.00", 1)), "2.00", map[string]string{"2": "2.00"}, nil},
		{"empty buy list: every eligible product qualifies", rule(3, 1, "100", nil, nil), nil, cart("0", line("1", pA, "2.00", 2), line("2", pB, "1.00", 1)), "1.00", map[string]string{"2": "1.00"}, nil},
		{"not enough qualifying items", rule(3, 1, "100", []string{pA}, []string{pB}), nil, cart("0", line("1", pA, "10.00", 2), line("2", pB, "1.00", 1)), "", nil, domain.ErrProductNotEligible},
		{"no get items", rule(1, 1, "100", []string{pA}, []string{pB}), nil, cart("0", line("1", pA, "10.00", 2)), "", nil, domain.ErrProductNotEligible},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := coupon(domain.BuyXGetY, "0")
			c.BuyXGetY = tc.rule
			if tc.cap != nil {
				c.MaximumDiscountAmount = ptr(dec(*tc.cap))
			}
			d, err := c.Evaluate(now, tc.cart, domain.Customer{}, domain.Rules{})
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("err %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			checkDiscount(t, d, tc.amount, "0", tc.lines)
		})
	}
}

// TestRestrictions covers the seven application restrictions, each with its code.
func TestRestrictions(t *testing.T) {
	t.Parallel()
	base := cart("0", line("1", pA, "30.00", 1), line("2", pB, "20.00", 1, col1))
	cases := []struct {
		name   string
		change func(c *domain.Coupon)
		cart   domain.Cart
		cust   domain.Customer
		err    error
		amount string
	}{
		// 1. minimum order amount: subtotal must meet or exceed it
		{"minimum met exactly", func(c *domain.Coupon) { c.MinimumOrderAmount = dec("50.00") }, base, domain.Customer{}, nil, "5.00"},
		{"minimum not met", func(c *domain.Coupon) { c.MinimumOrderAmount = dec("50.01") }, base, domain.Customer{}, domain.ErrMinimumNotMet, ""},
		// 2. maximum discount cap
		{"maximum discount cap", func(c *domain.Coupon) { c.MaximumDiscountAmount = ptr(dec("2.50")) }, base, domain.Customer{}, nil, "2.50"},
		// 3. product and collection restrictions
		{"product restriction", func(c *domain.Coupon) { c.AppliesTo.ProductIDs = []string{pA} }, base, domain.Customer{}, nil, "3.00"},
		{"collection restriction", func(c *domain.Coupon) { c.AppliesTo.CollectionIDs = []string{col1} }, base, domain.Customer{}, nil, "2.00"},
		{"product or collection", func(c *domain.Coupon) {
			c.AppliesTo = domain.AppliesTo{ProductIDs: []string{pA}, CollectionIDs: []string{col1}}
		}, base, domain.Customer{}, nil, "5.00"},
		{"no eligible product", func(c *domain.Coupon) { c.AppliesTo.ProductIDs = []string{pC} }, base, domain.Customer{}, domain.ErrProductNotEligible, ""},
		// 4. excluded products never qualify
		{"excluded product", func(c *domain.Coupon) { c.AppliesTo.ExcludeProductIDs = []string{pA} }, base, domain.Customer{}, nil, "2.00"},
		{"excluded wins over included", func(c *domain.Coupon) {
			c.AppliesTo = domain.AppliesTo{ProductIDs: []string{pA}, ExcludeProductIDs: []string{pA}}
		}, base, domain.Customer{}, domain.ErrProductNotEligible, ""},
		{"excluded wins over collection", func(c *domain.Coupon) {
			c.AppliesTo = domain.AppliesTo{CollectionIDs: []string{col1}, ExcludeProductIDs: []string{pB}}
		}, base, domain.Customer{}, domain.ErrProductNotEligible, ""},
		// 5. customer eligibility
		{"new customers only: new", func(c *domain.Coupon) { c.CustomerEligibility.NewCustomersOnly = true }, base, domain.Customer{ID: cus1, IsNew: true}, nil, "5.00"},
		{"new customers only: returning", func(c *domain.Coupon) { c.CustomerEligibility.NewCustomersOnly = true }, base, domain.Customer{ID: cus1}, domain.ErrNewCustomersOnly, ""},
		{"customer ids: listed", func(c *domain.Coupon) { c.CustomerEligibility.CustomerIDs = []string{cus1} }, base, domain.Customer{ID: cus1}, nil, "5.00"},
		{"customer ids: other customer", func(c *domain.Coupon) { c.CustomerEligibility.CustomerIDs = []string{cus1} }, base, domain.Customer{ID: seg1}, domain.ErrCustomerNotEligible, ""},
		{"customer ids: guest", func(c *domain.Coupon) { c.CustomerEligibility.CustomerIDs = []string{cus1} }, base, domain.Customer{}, domain.ErrCustomerNotEligible, ""},
		{"segments: member", func(c *domain.Coupon) { c.CustomerEligibility.CustomerSegments = []string{seg1} }, base, domain.Customer{ID: cus1, Segments: map[string]bool{seg1: true}}, nil, "5.00"},
		{"segments: not a member", func(c *domain.Coupon) { c.CustomerEligibility.CustomerSegments = []string{seg1} }, base, domain.Customer{ID: cus1, Segments: map[string]bool{}}, domain.ErrCustomerNotEligible, ""},
		// 6. the time window (starts_at inclusive, expires_at exclusive)
		{"starts now", func(c *domain.Coupon) { c.StartsAt = now }, base, domain.Customer{}, nil, "5.00"},
		{"not started", func(c *domain.Coupon) { c.StartsAt = now.Add(time.Second) }, base, domain.Customer{}, domain.ErrNotStarted, ""},
		{"expires later", func(c *domain.Coupon) { c.ExpiresAt = ptr(now.Add(time.Second)) }, base, domain.Customer{}, nil, "5.00"},
		{"expired at expires_at", func(c *domain.Coupon) { c.ExpiresAt = ptr(now) }, base, domain.Customer{}, domain.ErrExpired, ""},
		// 7. total and per-customer usage limits
		{"usage below limit", func(c *domain.Coupon) { c.UsageLimit, c.UsageCount = ptr(5), 4 }, base, domain.Customer{}, nil, "5.00"},
		{"usage limit reached", func(c *domain.Coupon) { c.UsageLimit, c.UsageCount = ptr(5), 5 }, base, domain.Customer{}, domain.ErrUsageLimit, ""},
		{"per-customer below limit", func(c *domain.Coupon) { c.UsageLimitPerCustomer = ptr(2) }, base, domain.Customer{ID: cus1, Uses: 1}, nil, "5.00"},
		{"per-customer limit reached", func(c *domain.Coupon) { c.UsageLimitPerCustomer = ptr(2) }, base, domain.Customer{ID: cus1, Uses: 2}, domain.ErrCustomerLimit, ""},
		{"per-customer limit does not apply to guests", func(c *domain.Coupon) { c.UsageLimitPerCustomer = ptr(1) }, base, domain.Customer{}, nil, "5.00"},
		// state
		{"inactive", func(c *domain.Coupon) { c.IsActive = false }, base, domain.Customer{}, domain.ErrInactive, ""},
		{"deleted", func(c *domain.Coupon) { c.DeletedAt = ptr(now) }, base, domain.Customer{}, domain.ErrCouponNotFound, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := coupon(domain.Percentage, "10")
			tc.change(c)
			d, err := c.Evaluate(now, tc.cart, tc.cust, domain.Rules{})
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("err %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !d.Amount.Equal(dec(tc.amount)) {
				t.Errorf("amount %s, want %s", d.Amount, tc.amount)
			}
		})
	}
}

func TestCheckOrder(t *testing.T) {
	t.Parallel()
	// An inactive, expired coupon below the minimum reports inactive first; the same
	// code already on the cart reports that before anything else.
	c := coupon(domain.Percentage, "10")
	c.IsActive, c.ExpiresAt, c.MinimumOrderAmount = false, ptr(now.Add(-time.Minute)), dec("1000")
	ct := cart("0", line("1", pA, "1.00", 1))
	if _, err := c.Evaluate(now, ct, domain.Customer{}, domain.Rules{}); !errors.Is(err, domain.ErrInactive) {
		t.Errorf("err %v, want inactive", err)
	}
	ct.Applied = []domain.AppliedCoupon{{Code: "save", Type: domain.Percentage}}
	if _, err := c.Evaluate(now, ct, domain.Customer{}, domain.Rules{}); !errors.Is(err, domain.ErrAlreadyApplied) {
		t.Errorf("err %v, want already applied (codes are case-insensitive)", err)
	}
}

func TestStacking(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		typ     domain.Type
		applied []domain.AppliedCoupon
		auto    bool
		allow   bool
		err     error
	}{
		{"nothing applied", domain.Percentage, nil, false, false, nil},
		{"one coupon per cart", domain.Percentage, []domain.AppliedCoupon{{Code: "OTHER", Type: domain.FixedAmount}}, false, true, domain.ErrCannotCombine},
		{"never with automatic discounts", domain.Percentage, nil, true, true, domain.ErrCannotCombine},
		{"free shipping on percentage, allowed", domain.FreeShipping, []domain.AppliedCoupon{{Code: "OTHER", Type: domain.Percentage}}, false, true, nil},
		{"percentage on free shipping, allowed", domain.Percentage, []domain.AppliedCoupon{{Code: "OTHER", Type: domain.FreeShipping}}, false, true, nil},
		{"fixed on free shipping, allowed", domain.FixedAmount, []domain.AppliedCoupon{{Code: "OTHER", Type: domain.FreeShipping}}, false, true, nil},
		{"free shipping on percentage, not configured", domain.FreeShipping, []domain.AppliedCoupon{{Code: "OTHER", Type: domain.Percentage}}, false, false, domain.ErrCannotCombine},
		{"free shipping on buy_x_get_y", domain.FreeShipping, []domain.AppliedCoupon{{Code: "OTHER", Type: domain.BuyXGetY}}, false, true, domain.ErrCannotCombine},
		{"two free shipping", domain.FreeShipping, []domain.AppliedCoupon{{Code: "OTHER", Type: domain.FreeShipping}}, false, true, domain.ErrCannotCombine},
		{"third coupon", domain.FreeShipping, []domain.AppliedCoupon{{Code: "A", Type: domain.Percentage}, {Code: "B", Type: domain.FreeShipping}}, false, true, domain.ErrCannotCombine},
		{"free shipping with automatic discounts", domain.FreeShipping, nil, true, true, domain.ErrCannotCombine},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := coupon(tc.typ, "10")
			ct := cart("5.00", line("1", pA, "10.00", 1))
			ct.Applied, ct.HasAutomaticDiscounts = tc.applied, tc.auto
			_, err := c.Evaluate(now, ct, domain.Customer{}, domain.Rules{AllowFreeShippingStacking: tc.allow})
			if tc.err == nil && err != nil || tc.err != nil && !errors.Is(err, tc.err) {
				t.Errorf("err %v, want %v", err, tc.err)
			}
		})
	}
}

func TestAllocate(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		total    string
		weights  []string
		currency string
		want     []string
	}{
		{"exact", "6.00", []string{"10.00", "20.00", "30.00"}, "USD", []string{"1.00", "2.00", "3.00"}},
		{"remainder on the largest", "1.00", []string{"1.00", "2.00"}, "USD", []string{"0.33", "0.67"}},
		{"ties: the last takes the difference", "0.02", []string{"1.00", "1.00", "1.00"}, "USD", []string{"0.01", "0.01", "0.00"}},
		{"negative remainder taken from the largest", "0.10", []string{"0.33", "0.33", "0.33"}, "USD", []string{"0.03", "0.03", "0.04"}},
		{"over-rounding removed from the largest", "0.02", []string{"1.00", "1.00", "1.00", "1.00"}, "USD", []string{"0.01", "0.01", "0.00", "0.00"}},
		{"never above a weight", "3.00", []string{"1.00", "1.00", "1.00"}, "USD", []string{"1.00", "1.00", "1.00"}},
		{"total above the sum is the sum", "5.00", []string{"1.00", "1.00"}, "USD", []string{"1.00", "1.00"}},
		{"zero", "0", []string{"1.00"}, "USD", []string{"0"}},
		{"JPY", "100", []string{"333", "333", "334"}, "JPY", []string{"33", "33", "34"}},
		{"KWD", "1.000", []string{"1.000", "2.000"}, "KWD", []string{"0.333", "0.667"}},
		{"spill when the largest is full", "2.99", []string{"1.00", "1.00", "0.99"}, "USD", []string{"1.00", "1.00", "0.99"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ws := make([]decimal.Decimal, len(tc.weights))
			for i, w := range tc.weights {
				ws[i] = dec(w)
			}
			got := domain.Allocate(dec(tc.total), ws, tc.currency)
			sum := decimal.Zero
			for i := range got {
				sum = sum.Add(got[i])
				if !got[i].Equal(dec(tc.want[i])) {
					t.Errorf("share %d = %s, want %s", i, got[i], tc.want[i])
				}
				if got[i].GreaterThan(ws[i]) || got[i].IsNegative() {
					t.Errorf("share %d = %s outside [0, %s]", i, got[i], ws[i])
				}
			}
			if want := decimal.Min(dec(tc.total), decimal.Sum(decimal.Zero, ws...)); !sum.Equal(want) {
				t.Errorf("shares add to %s, want %s", sum, want)
			}
		})
	}
}
