package domain

import (
	"maps"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/patch"
)

// MaxOptions bounds a variant's options object.
const MaxOptions = 10

// Variant is one purchasable version of a product (size, color ...). A product with no
// explicit variants has exactly one default variant (IsDefault) that mirrors the
// product's price, weight, policy and stock.
type Variant struct {
	ID        string
	ProductID string
	Title     string
	SKU       string
	Barcode   string
	Shared    // mirrors the product's while IsDefault
	IsDefault bool
	Options   map[string]string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Shared are the fields a product's default variant mirrors: price, compare/cost price,
// inventory quantity and policy, weight and unit, requires_shipping.
type Shared struct {
	Price             decimal.Decimal
	CompareAtPrice    *decimal.Decimal
	CostPrice         *decimal.Decimal
	InventoryQuantity int
	InventoryPolicy   string
	Weight            decimal.Decimal
	WeightUnit        string
	RequiresShipping  bool
}

// clone returns a deep copy.
func (s Shared) clone() Shared {
	s.CompareAtPrice = cloneDec(s.CompareAtPrice)
	s.CostPrice = cloneDec(s.CostPrice)
	return s
}

// equal reports whether s and o hold the same values (amounts compared as numbers).
func (s Shared) equal(o Shared) bool {
	return s.Price.Equal(o.Price) && decEq(s.CompareAtPrice, o.CompareAtPrice) && decEq(s.CostPrice, o.CostPrice) &&
		s.InventoryPolicy == o.InventoryPolicy && s.InventoryQuantity == o.InventoryQuantity && s.Weight.Equal(o.Weight) &&
		s.WeightUnit == o.WeightUnit && s.RequiresShipping == o.RequiresShipping
}

// Clone returns a deep copy.
func (v *Variant) Clone() *Variant {
	c := *v
	c.Shared = v.clone()
	c.Options = maps.Clone(v.Options)
	return &c
}

// VariantInput is a variant write request.
type VariantInput struct {
	Title   patch.Field[string]
	SKU     patch.Field[string]
	Barcode patch.Field[string]
	SharedInput
	Options patch.Field[map[string]string]
}

// SharedInput is the write request of the Shared fields, which products and variants
// both take.
type SharedInput struct {
	Price             patch.Field[string]
	CompareAtPrice    patch.Field[string]
	CostPrice         patch.Field[string]
	InventoryQuantity patch.Field[int]
	InventoryPolicy   patch.Field[string]
	Weight            patch.Field[string]
	WeightUnit        patch.Field[string]
	RequiresShipping  patch.Field[bool]
}

// NewDefaultVariant builds the default variant of p, mirroring the product.
func NewDefaultVariant(id string, p *Product, sku, barcode string, now time.Time) *Variant {
	v := &Variant{
		ID: id, ProductID: p.ID, Title: DefaultVariantTitle, SKU: strings.TrimSpace(sku), Barcode: strings.TrimSpace(barcode),
		IsDefault: true, Options: map[string]string{}, CreatedAt: now, UpdatedAt: now,
	}
	MirrorProductToVariant(p, v)
	return v
}

// NewVariant validates a create request for an explicit variant of p. Absent fields take
// the product's values (price, compare/cost price, policy, weight, requires_shipping);
// the title defaults to the option values joined by " / " and is required when there
// are no options.
func NewVariant(id string, p *Product, in VariantInput, now time.Time) (*Variant, error) {
	v := &Variant{ID: id, ProductID: p.ID, Options: map[string]string{}, CreatedAt: now, UpdatedAt: now}
	MirrorProductToVariant(p, v)
	v.InventoryQuantity = 0
	if !in.Title.Set && (!in.Options.HasValue() || len(in.Options.Value) == 0) {
		return nil, apperr.Validation(map[string]string{"title": "is required (or give options to derive it)"})
	}
	if err := v.Apply(in, p.Currency, now); err != nil {
		return nil, err
	}
	if !in.Title.Set {
		v.Title = OptionsTitle(v.Options)
	}
	return v, nil
}

// OptionsTitle joins option values in key order: {"color":"Red","size":"M"} → "Red / M".
func OptionsTitle(opts map[string]string) string {
	keys := slices.Sorted(maps.Keys(opts))
	vals := make([]string, 0, len(keys))
	for _, k := range keys {
		vals = append(vals, opts[k])
	}
	return strings.Join(vals, " / ")
}

// Apply validates the present fields of in and applies them; nothing changes on error.
// Amounts are in the product's currency; their INVALID_PRICE comes before the other
// fields' problems.
func (v *Variant) Apply(in VariantInput, currency string, now time.Time) error {
	next := v.Clone()
	bad := patch.Problems{}
	code := patch.Text{Max: MaxTitleLength, Trim: true}
	patch.Text{Max: MaxTitleLength, Required: true}.Apply(bad, "title", in.Title, &next.Title)
	code.Apply(bad, "sku", in.SKU, &next.SKU)
	code.Apply(bad, "barcode", in.Barcode, &next.Barcode)
	applyStock(bad, in.InventoryQuantity, in.InventoryPolicy, &next.InventoryQuantity, &next.InventoryPolicy)
	applyWeight(bad, in.Weight, in.WeightUnit, &next.Weight, &next.WeightUnit)
	patch.Copy(bad, "requires_shipping", in.RequiresShipping, &next.RequiresShipping)
	patch.Apply(bad, "options", in.Options, &next.Options, normalizeOptions)
	amounts := priceFields{price: in.Price, compareAt: in.CompareAtPrice, cost: in.CostPrice}
	if err := amounts.apply(currency, prices{price: &next.Price, compareAt: &next.CompareAtPrice, cost: &next.CostPrice}); err != nil {
		return err
	}
	if err := bad.Err(); err != nil {
		return err
	}
	next.UpdatedAt = now
	*v = *next
	return nil
}

func normalizeOptions(in map[string]string) (map[string]string, string) {
	if len(in) > MaxOptions {
		return nil, "at most 10 options"
	}
	out := make(map[string]string, len(in))
	for k, val := range in {
		k, val = strings.TrimSpace(k), strings.TrimSpace(val)
		if k == "" || val == "" {
			return nil, "option names and values must be non-empty strings"
		}
		if utf8.RuneCountInString(k) > MaxTitleLength || utf8.RuneCountInString(val) > MaxTitleLength {
			return nil, "option names and values must be at most 255 characters"
		}
		out[k] = val
	}
	return out, ""
}

// MirrorProductToVariant copies the fields the default variant carries for its product:
// price, compare/cost price, inventory policy and quantity, weight and unit,
// requires_shipping. It reports whether anything changed.
func MirrorProductToVariant(p *Product, v *Variant) bool {
	changed := !v.equal(p.Shared)
	v.Shared = p.clone()
	return changed
}

// MirrorVariantToProduct copies a default variant's shared fields back to its product
// (an update through the variant endpoint). It reports whether anything changed.
func MirrorVariantToProduct(v *Variant, p *Product) bool {
	if p.equal(v.Shared) {
		return false
	}
	p.Shared = v.clone()
	return true
}

func decEq(a, b *decimal.Decimal) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Equal(*b)
}
