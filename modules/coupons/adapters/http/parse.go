package http

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/coupons/domain"
)

// parser reads a JSON object member by member, naming each bad member, so a request
// can carry any subset of the coupon's fields and null where a field is nullable.
type parser struct {
	raw map[string]json.RawMessage
	bad map[string]string
}

func newParser(raw map[string]json.RawMessage) *parser {
	return &parser{raw: raw, bad: map[string]string{}}
}

func (p *parser) fail(field, msg string) {
	if _, dup := p.bad[field]; !dup {
		p.bad[field] = msg
	}
}

func isNull(b json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(b), []byte("null")) }

// member returns the raw member and whether it was sent.
func (p *parser) member(name string) (json.RawMessage, bool) {
	b, ok := p.raw[name]
	return b, ok
}

func (p *parser) str(name string) domain.Field[string] {
	b, ok := p.member(name)
	if !ok {
		return domain.Field[string]{}
	}
	if isNull(b) {
		return domain.Field[string]{Set: true, Null: true}
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		p.fail(name, "must be a string")
	}
	return domain.Field[string]{Set: true, Value: s}
}

func (p *parser) boolean(name string) domain.Field[bool] {
	b, ok := p.member(name)
	if !ok {
		return domain.Field[bool]{}
	}
	if isNull(b) {
		return domain.Field[bool]{Set: true, Null: true}
	}
	var v bool
	if err := json.Unmarshal(b, &v); err != nil {
		p.fail(name, "must be a boolean")
	}
	return domain.Field[bool]{Set: true, Value: v}
}

func (p *parser) integer(name string) domain.Field[int] {
	b, ok := p.member(name)
	if !ok {
		return domain.Field[int]{}
	}
	if isNull(b) {
		return domain.Field[int]{Set: true, Null: true}
	}
	var v int
	if err := json.Unmarshal(b, &v); err != nil {
		p.fail(name, "must be an integer")
	}
	return domain.Field[int]{Set: true, Value: v}
}

// amount reads a decimal string ("10.00"); JSON numbers are refused, as for product
// prices (docs/decisions/0022): they may have passed through floating point.
func (p *parser) amount(name string) domain.Field[decimal.Decimal] {
	b, ok := p.member(name)
	if !ok {
		return domain.Field[decimal.Decimal]{}
	}
	if isNull(b) {
		return domain.Field[decimal.Decimal]{Set: true, Null: true}
	}
	d, ok := parseDecimal(b)
	if !ok {
		p.fail(name, "must be a decimal string such as \"10.00\"")
	}
	return domain.Field[decimal.Decimal]{Set: true, Value: d}
}

func parseDecimal(b json.RawMessage) (decimal.Decimal, bool) {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return decimal.Zero, false
	}
	s = strings.TrimSpace(s)
	if s == "" || strings.ContainsAny(s, "eE") {
		return decimal.Zero, false
	}
	d, err := decimal.NewFromString(s)
	return d, err == nil
}

func (p *parser) timestamp(name string) domain.Field[time.Time] {
	b, ok := p.member(name)
	if !ok {
		return domain.Field[time.Time]{}
	}
	if isNull(b) {
		return domain.Field[time.Time]{Set: true, Null: true}
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		p.fail(name, "must be an ISO 8601 timestamp")
		return domain.Field[time.Time]{Set: true}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		p.fail(name, "must be an ISO 8601 timestamp")
	}
	return domain.Field[time.Time]{Set: true, Value: t.UTC()}
}

// object reads a nested object member (nil when absent or null).
func (p *parser) object(name string) (*parser, domain.Field[struct{}]) {
	b, ok := p.member(name)
	if !ok {
		return nil, domain.Field[struct{}]{}
	}
	if isNull(b) {
		return nil, domain.Field[struct{}]{Set: true, Null: true}
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil || raw == nil {
		p.fail(name, "must be an object")
		return nil, domain.Field[struct{}]{Set: true, Null: true}
	}
	return &parser{raw: raw, bad: map[string]string{}}, domain.Field[struct{}]{Set: true}
}

// merge copies a nested parser's errors under prefix.
func (p *parser) merge(prefix string, sub *parser) {
	for k, v := range sub.bad {
		p.fail(prefix+"."+k, v)
	}
}

func (p *parser) strings(name string) []string {
	b, ok := p.member(name)
	if !ok || isNull(b) {
		return nil
	}
	var out []string
	if err := json.Unmarshal(b, &out); err != nil {
		p.fail(name, "must be an array of strings")
	}
	return out
}

// patch reads a coupon create or update request.
func parsePatch(raw map[string]json.RawMessage) (domain.Patch, map[string]string) {
	p := newParser(raw)
	out := domain.Patch{
		Code: p.str("code"), Type: p.str("type"), Value: p.amount("value"), Description: p.str("description"),
		MinimumOrderAmount: p.amount("minimum_order_amount"), MaximumDiscountAmount: p.amount("maximum_discount_amount"),
		StartsAt: p.timestamp("starts_at"), ExpiresAt: p.timestamp("expires_at"),
		UsageLimit: p.integer("usage_limit"), UsageLimitPerCustomer: p.integer("usage_limit_per_customer"),
		IsActive: p.boolean("is_active"),
	}
	if out.Description.Null {
		out.Description = domain.Field[string]{Set: true}
	}
	if sub, f := p.object("applies_to"); f.Set {
		out.AppliesTo = domain.Field[domain.AppliesTo]{Set: true, Null: f.Null}
		if sub != nil {
			out.AppliesTo.Value = domain.AppliesTo{
				ProductIDs: sub.strings("product_ids"), CollectionIDs: sub.strings("collection_ids"),
				ExcludeProductIDs: sub.strings("exclude_product_ids"),
			}
			p.merge("applies_to", sub)
		}
	}
	if sub, f := p.object("customer_eligibility"); f.Set {
		out.CustomerEligibility = domain.Field[domain.Eligibility]{Set: true, Null: f.Null}
		if sub != nil {
			nc := sub.boolean("new_customers_only")
			out.CustomerEligibility.Value = domain.Eligibility{
				NewCustomersOnly: nc.Value, CustomerIDs: sub.strings("customer_ids"), CustomerSegments: sub.strings("customer_segments"),
			}
			p.merge("customer_eligibility", sub)
		}
	}
	if sub, f := p.object("buy_x_get_y"); f.Set {
		out.BuyXGetY = domain.Field[domain.BuyXGetYRule]{Set: true, Null: f.Null}
		if sub != nil {
			dt := sub.str("get_discount_type")
			dv := sub.amount("get_discount_value")
			rule := domain.BuyXGetYRule{
				BuyQuantity: sub.integer("buy_quantity").Value, GetQuantity: sub.integer("get_quantity").Value,
				BuyProductIDs: sub.strings("buy_product_ids"), GetProductIDs: sub.strings("get_product_ids"),
				GetDiscountType: dt.Value, GetDiscountValue: dv.Value,
			}
			if !dv.Set || dv.Null {
				rule.GetDiscountValue = decimal.NewFromInt(100) // the "get" items are free by default
			}
			out.BuyXGetY.Value = rule
			p.merge("buy_x_get_y", sub)
		}
	}
	return out, p.bad
}
