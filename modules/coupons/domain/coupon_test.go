package domain_test

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/coupons/domain"
	"github.com/gocommerce/commerce/platform/patch"
)

func set[T any](v T) patch.Field[T] { return patch.Val(v) }

func null[T any]() patch.Field[T] { return patch.Null[T]() }

func TestNewCoupon(t *testing.T) {
	t.Parallel()
	base := func() domain.Patch {
		return domain.Patch{Code: set("SAVE10"), Type: set("percentage"), Value: set(dec("10"))}
	}
	rule := domain.BuyXGetYRule{BuyQuantity: 2, GetQuantity: 1, GetDiscountValue: dec("100")}
	cases := []struct {
		name   string
		change func(p *domain.Patch)
		field  string // "" when valid
	}{
		{"valid", func(*domain.Patch) {}, ""},
		{"code required", func(p *domain.Patch) { p.Code = patch.Field[string]{} }, "code"},
		{"code characters", func(p *domain.Patch) { p.Code = set("10% OFF") }, "code"},
		{"type required", func(p *domain.Patch) { p.Type = patch.Field[string]{} }, "type"},
		{"type known", func(p *domain.Patch) { p.Type = set("bogo") }, "type"},
		{"percentage above 100", func(p *domain.Patch) { p.Value = set(dec("100.0001")) }, "value"},
		{"percentage 100", func(p *domain.Patch) { p.Value = set(dec("100")) }, ""},
		{"fixed amount positive", func(p *domain.Patch) { p.Type, p.Value = set("fixed_amount"), set(dec("0")) }, "value"},
		{"fixed amount needs a value", func(p *domain.Patch) { p.Type, p.Value = set("fixed_amount"), patch.Field[decimal.Decimal]{} }, "value"},
		{"free shipping without value", func(p *domain.Patch) { p.Type, p.Value = set("free_shipping"), patch.Field[decimal.Decimal]{} }, ""},
		{"five decimals", func(p *domain.Patch) { p.Value = set(dec("1.00001")) }, "value"},
		{"negative minimum", func(p *domain.Patch) { p.MinimumOrderAmount = set(dec("-1")) }, "minimum_order_amount"},
		{"zero cap", func(p *domain.Patch) { p.MaximumDiscountAmount = set(dec("0")) }, "maximum_discount_amount"},
		{"null cap", func(p *domain.Patch) { p.MaximumDiscountAmount = null[decimal.Decimal]() }, ""},
		{"expires before start", func(p *domain.Patch) { p.ExpiresAt = set(now.Add(-time.Hour)) }, "expires_at"},
		{"usage limit 0", func(p *domain.Patch) { p.UsageLimit = set(0) }, "usage_limit"},
		{"per-customer limit 0", func(p *domain.Patch) { p.UsageLimitPerCustomer = set(0) }, "usage_limit_per_customer"},
		{"product ids are UUIDs", func(p *domain.Patch) { p.AppliesTo = set(domain.AppliesTo{ProductIDs: []string{"x"}}) }, "applies_to.product_ids"},
		{"segment ids are UUIDs", func(p *domain.Patch) {
			p.CustomerEligibility = set(domain.Eligibility{CustomerSegments: []string{"gold"}})
		}, "customer_eligibility.customer_segments"},
		{"computed segments by name", func(p *domain.Patch) {
			p.CustomerEligibility = set(domain.Eligibility{CustomerSegments: []string{"vip", "loyal", "new", "at_risk", "dormant"}})
		}, ""},
		{"rule only for buy_x_get_y", func(p *domain.Patch) { p.BuyXGetY = set(rule) }, "buy_x_get_y"},
		{"buy_x_get_y needs its rule", func(p *domain.Patch) { p.Type = set("buy_x_get_y") }, "buy_x_get_y"},
		{"buy_x_get_y", func(p *domain.Patch) { p.Type, p.BuyXGetY = set("buy_x_get_y"), set(rule) }, ""},
		{"buy quantity", func(p *domain.Patch) {
			r := rule
			r.BuyQuantity = 0
			p.Type, p.BuyXGetY = set("buy_x_get_y"), set(r)
		}, "buy_x_get_y.buy_quantity"},
		{"get discount type", func(p *domain.Patch) {
			r := rule
			r.GetDiscountType = "fixed"
			p.Type, p.BuyXGetY = set("buy_x_get_y"), set(r)
		}, "buy_x_get_y.get_discount_type"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := base()
			tc.change(&p)
			c, bad := domain.New("id", p, now)
			if tc.field == "" {
				if bad != nil {
					t.Fatalf("refused: %v", bad)
				}
				if !c.IsActive || !c.StartsAt.Equal(now) || c.UsageCount != 0 || !c.MinimumOrderAmount.IsZero() {
					t.Errorf("defaults %+v", c)
				}
				return
			}
			if _, ok := bad[tc.field]; !ok {
				t.Errorf("errors %v lack %s", bad, tc.field)
			}
		})
	}
}

func TestUpdateCoupon(t *testing.T) {
	t.Parallel()
	c, bad := domain.New("id", domain.Patch{
		Code: set("B2G1"), Type: set("buy_x_get_y"),
		BuyXGetY: set(domain.BuyXGetYRule{BuyQuantity: 2, GetQuantity: 1, GetDiscountValue: dec("100")}),
	}, now)
	if bad != nil {
		t.Fatal(bad)
	}
	later := now.Add(time.Hour)
	n, bad := c.Update(domain.Patch{Type: set("fixed_amount"), Value: set(dec("5"))}, later)
	if bad != nil || n.BuyXGetY != nil || n.Code != "B2G1" || !n.UpdatedAt.Equal(later) || c.Type != domain.BuyXGetY {
		t.Fatalf("update %+v %v (the original must not change)", n, bad)
	}
	if _, bad := n.Update(domain.Patch{Type: set("percentage")}, later); bad != nil {
		t.Errorf("percentage keeping value 5: %v", bad)
	}
	if _, bad := n.Update(domain.Patch{Type: set("percentage"), Value: set(dec("150"))}, later); bad["value"] == "" {
		t.Errorf("150 percent accepted: %v", bad)
	}
	if _, bad := n.Update(domain.Patch{Code: null[string]()}, later); bad["code"] == "" {
		t.Error("null code accepted")
	}
	if domain.CodeKey(" save10 ") != "SAVE10" {
		t.Error("code key")
	}
}
