package domain

import (
	"maps"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/apperr"
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
	Title             Field[string]
	SKU               Field[string]
	Barcode           Field[string]
	Price             Field[string]
	CompareAtPrice    Field[string]
	CostPrice         Field[string]
	InventoryQuantity Field[int]
	InventoryPolicy   Field[string]
	Weight            Field[string]
	WeightUnit        Field[string]
	RequiresShipping  Field[bool]
	Options           Field[map[string]string]
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
func (v *Variant) Apply(in VariantInput, currency string, now time.Time) error {
	next := v.Clone()
	bad := problems{}
	text := func(name string, f Field[string], trim, required bool, dst *string) {
		if !f.Set {
			return
		}
		if f.Null {
			bad.add(name, msgNotNull)
			return
		}
		s := f.Value
		if trim {
			s = strings.TrimSpace(s)
		}
		if required && s == "" {
			bad.add(name, "must not be empty")
			return
		}
		if utf8.RuneCountInString(s) > MaxTitleLength {
			bad.add(name, "must be at most 255 characters")
			return
		}
		*dst = s
	}
	text("title", in.Title, true, true, &next.Title)
	text("sku", in.SKU, true, false, &next.SKU)
	text("barcode", in.Barcode, true, false, &next.Barcode)
	bad.inventoryQuantity(in.InventoryQuantity, &next.InventoryQuantity)
	bad.inventoryPolicy(in.InventoryPolicy, &next.InventoryPolicy)
	bad.weight(in.Weight, &next.Weight)
	bad.weightUnit(in.WeightUnit, &next.WeightUnit)
	if in.RequiresShipping.Set {
		if in.RequiresShipping.Null {
			bad.add("requires_shipping", msgNotNull)
		} else {
			next.RequiresShipping = in.RequiresShipping.Value
		}
	}
	if in.Options.Set {
		if in.Options.Null {
			bad.add("options", msgNotNull)
		} else if opts, msg := normalizeOptions(in.Options.Value); msg != "" {
			bad.add("options", msg)
		} else {
			next.Options = opts
		}
	}
	if in.Price.Set {
		if in.Price.Null {
			return ErrInvalidPrice.WithField("price", msgNotNull)
		}
		d, err := ParseAmount("price", in.Price.Value, currency)
		if err != nil {
			return err
		}
		next.Price = d
	}
	for _, m := range []struct {
		name string
		f    Field[string]
		dst  **decimal.Decimal
	}{{"compare_at_price", in.CompareAtPrice, &next.CompareAtPrice}, {"cost_price", in.CostPrice, &next.CostPrice}} {
		if !m.f.Set {
			continue
		}
		if m.f.Null {
			*m.dst = nil
			continue
		}
		d, err := ParseAmount(m.name, m.f.Value, currency)
		if err != nil {
			return err
		}
		*m.dst = &d
	}
	if len(bad) > 0 {
		return apperr.Validation(bad)
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
