package http

import (
	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/coupons/domain"
	"github.com/gocommerce/commerce/platform/money"
	"github.com/gocommerce/commerce/platform/patch"
)

// parsePatch reads a coupon create or update request (any subset of the fields, null
// where a field is nullable); b.Err() then names every bad member.
func parsePatch(b *patch.Body) domain.Patch {
	out := domain.Patch{
		Code: b.String("code"), Type: b.String("type"), Value: amount(b, "value"), Description: b.String("description"),
		MinimumOrderAmount: amount(b, "minimum_order_amount"), MaximumDiscountAmount: amount(b, "maximum_discount_amount"),
		StartsAt: b.Time("starts_at"), ExpiresAt: b.Time("expires_at"),
		UsageLimit: b.Int("usage_limit"), UsageLimitPerCustomer: b.Int("usage_limit_per_customer"),
		IsActive: b.Bool("is_active"), AppliesTo: appliesTo(b), CustomerEligibility: eligibility(b), BuyXGetY: buyXGetY(b),
	}
	if out.Description.Null {
		out.Description = patch.Val("")
	}
	return out
}

// amount reads an amount without a currency: a decimal string with at most 4 decimals
// (money.ParseDecimal); JSON numbers are refused (docs/decisions/0022).
func amount(b *patch.Body, name string) patch.Field[decimal.Decimal] {
	f := b.Amount(name)
	if !f.HasValue() {
		return patch.Field[decimal.Decimal]{Set: f.Set, Null: f.Null}
	}
	d, err := money.ParseDecimal(f.Value, money.StoredDecimals)
	if err != nil {
		b.Fail(name, err.Error())
		return patch.Field[decimal.Decimal]{}
	}
	return patch.Val(d)
}

// object reads a nested object with read; null stays null.
func object[T any](b *patch.Body, name string, read func(*patch.Body) T) patch.Field[T] {
	sub, f := b.Sub(name)
	out := patch.Field[T]{Set: f.Set, Null: f.Null}
	if sub != nil {
		out.Value = read(sub)
	}
	return out
}

func appliesTo(b *patch.Body) patch.Field[domain.AppliesTo] {
	return object(b, "applies_to", func(sub *patch.Body) domain.AppliesTo {
		return domain.AppliesTo{
			ProductIDs: sub.Strings("product_ids").Value, CollectionIDs: sub.Strings("collection_ids").Value,
			ExcludeProductIDs: sub.Strings("exclude_product_ids").Value,
		}
	})
}

func eligibility(b *patch.Body) patch.Field[domain.Eligibility] {
	return object(b, "customer_eligibility", func(sub *patch.Body) domain.Eligibility {
		return domain.Eligibility{
			NewCustomersOnly: sub.Bool("new_customers_only").Value, CustomerIDs: sub.Strings("customer_ids").Value,
			CustomerSegments: sub.Strings("customer_segments").Value,
		}
	})
}

func buyXGetY(b *patch.Body) patch.Field[domain.BuyXGetYRule] {
	return object(b, "buy_x_get_y", func(sub *patch.Body) domain.BuyXGetYRule {
		dv := amount(sub, "get_discount_value")
		rule := domain.BuyXGetYRule{
			BuyQuantity: sub.Int("buy_quantity").Value, GetQuantity: sub.Int("get_quantity").Value,
			BuyProductIDs: sub.Strings("buy_product_ids").Value, GetProductIDs: sub.Strings("get_product_ids").Value,
			GetDiscountType: sub.String("get_discount_type").Value, GetDiscountValue: dv.Value,
		}
		if !dv.HasValue() {
			rule.GetDiscountValue = decimal.NewFromInt(100) // the "get" items are free by default
		}
		return rule
	})
}
