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
	ID                string
	ProductID         string
	Title             string
	SKU               string
	Barcode           string
	Price             decimal.Decimal
	CompareAtPrice    *decimal.Decimal
	CostPrice         *decimal.Decimal
	InventoryQuantity int
	InventoryPolicy   string
	Weight            decimal.Decimal
	WeightUnit        string
	RequiresShipping  bool
	IsDefault         bool
	Options           map[string]string
	CreatedAt         time.Time
	UpdatedAt         time.Time
}

// Clone returns a deep copy.
func (v *Variant) Clone() *Variant {
	c := *v
	c.CompareAtPrice = cloneDec(v.CompareAtPrice)
	c.CostPrice = cloneDec(v.CostPrice)
	c.Options = maps.Clone(v.Options)
	return &c
}

// VariantInput is a variant write request.
type VariantInput struct {
	Title             patch.Field[string]
	SKU               patch.Field[string]
	Barcode           patch.Field[string]
	Price             patch.Field[string]
	CompareAtPrice    patch.Field[string]
	CostPrice         patch.Field[string]
	InventoryQuantity patch.Field[int]
	InventoryPolicy   patch.Field[string]
	Weight            patch.Field[string]
	WeightUnit        patch.Field[string]
	RequiresShipping  patch.Field[bool]
	Options           patch.Field[map[string]string]
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
	before := v.Clone()
	v.Price = p.Price
	v.CompareAtPrice = cloneDec(p.CompareAtPrice)
	v.CostPrice = cloneDec(p.CostPrice)
	v.InventoryPolicy = p.InventoryPolicy
	v.InventoryQuantity = p.InventoryQuantity
	v.Weight = p.Weight
	v.WeightUnit = p.WeightUnit
	v.RequiresShipping = p.RequiresShipping
	return !sameShared(before, v)
}

// MirrorVariantToProduct copies a default variant's shared fields back to its product
// (an update through the variant endpoint). It reports whether anything changed.
func MirrorVariantToProduct(v *Variant, p *Product) bool {
	tmp := &Variant{}
	MirrorProductToVariant(p, tmp)
	if sameShared(tmp, v) {
		return false
	}
	p.Price = v.Price
	p.CompareAtPrice = cloneDec(v.CompareAtPrice)
	p.CostPrice = cloneDec(v.CostPrice)
	p.InventoryPolicy = v.InventoryPolicy
	p.InventoryQuantity = v.InventoryQuantity
	p.Weight = v.Weight
	p.WeightUnit = v.WeightUnit
	p.RequiresShipping = v.RequiresShipping
	return true
}

func sameShared(a, b *Variant) bool {
	return a.Price.Equal(b.Price) && decEq(a.CompareAtPrice, b.CompareAtPrice) && decEq(a.CostPrice, b.CostPrice) &&
		a.InventoryPolicy == b.InventoryPolicy && a.InventoryQuantity == b.InventoryQuantity && a.Weight.Equal(b.Weight) &&
		a.WeightUnit == b.WeightUnit && a.RequiresShipping == b.RequiresShipping
}

func decEq(a, b *decimal.Decimal) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Equal(*b)
}
