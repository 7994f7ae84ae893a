// Package domain holds the catalog's entities and rules: products, variants, images and
// collections, money and slug rules, the ISO 4217 list. Plain Go.
package domain

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/limits"
)

// Product types.
const (
	TypePhysical = "physical"
	TypeDigital  = "digital"
	TypeService  = "service"
)

// Product statuses.
const (
	StatusActive   = "active"
	StatusDraft    = "draft"
	StatusArchived = "archived"
)

// Inventory policies.
const (
	PolicyDeny     = "deny"
	PolicyContinue = "continue"
)

// InventoryManagementCommerce names this service's own stock tracking.
const InventoryManagementCommerce = "commerce"

// Defaults of a new product.
const (
	DefaultLowStockThreshold = 10
	DefaultWeightUnit        = "kg"
	DefaultVariantTitle      = "Default Title"
)

// Limits of product fields.
const (
	MaxTitleLength       = 255
	MaxShortDescLength   = 1000
	MaxSEOTitleLength    = 255
	MaxSEODescLength     = 1000
	MaxTagLength         = 255
	MaxTags              = 250
	MaxMetaFields        = 100
	MaxMetaKeyLength     = 255
	MaxInventoryQuantity = limits.MaxStock // shared with inventory (docs/decisions/0094)
)

// Stock statuses.
const (
	StockInStock    = "in_stock"
	StockLowStock   = "low_stock"
	StockOutOfStock = "out_of_stock"
)

// StockStatus derives the stock status: out_of_stock when quantity <= 0, low_stock when
// quantity <= threshold, else in_stock.
func StockStatus(quantity, threshold int) string {
	switch {
	case quantity <= 0:
		return StockOutOfStock
	case quantity <= threshold:
		return StockLowStock
	default:
		return StockInStock
	}
}

// ValidProductType reports physical, digital or service.
func ValidProductType(s string) bool {
	return s == TypePhysical || s == TypeDigital || s == TypeService
}

// ValidStatus reports active, draft or archived.
func ValidStatus(s string) bool { return s == StatusActive || s == StatusDraft || s == StatusArchived }

// ValidWeightUnit reports kg, g, lb or oz.
func ValidWeightUnit(s string) bool { return s == "kg" || s == "g" || s == "lb" || s == "oz" }

// ValidPolicy reports deny or continue.
func ValidPolicy(s string) bool { return s == PolicyDeny || s == PolicyContinue }

// Product is a sellable item. Price is the product's own price; the default variant
// mirrors it while the product has no explicit variants.
type Product struct {
	ID                  string
	Title               string
	Slug                string
	Description         string
	ShortDescription    string
	ProductType         string
	Vendor              string
	Tags                []string
	Status              string
	IsFeatured          bool
	Price               decimal.Decimal
	CompareAtPrice      *decimal.Decimal
	CostPrice           *decimal.Decimal
	Currency            string
	Taxable             bool
	RequiresShipping    bool
	Weight              decimal.Decimal
	WeightUnit          string
	InventoryQuantity   int
	InventoryPolicy     string
	InventoryManagement string // "" when not tracked
	LowStockThreshold   int
	HasVariants         bool
	SEOTitle            string
	SEODescription      string
	MetaFields          map[string]any
	CreatedAt           time.Time
	UpdatedAt           time.Time
	PublishedAt         *time.Time
}

// StockStatus is the product's stock status.
func (p *Product) StockStatus() string { return StockStatus(p.InventoryQuantity, p.LowStockThreshold) }

// Clone returns a deep copy.
func (p *Product) Clone() *Product {
	c := *p
	c.Tags = slices.Clone(p.Tags)
	c.MetaFields = maps.Clone(p.MetaFields)
	c.CompareAtPrice = cloneDec(p.CompareAtPrice)
	c.CostPrice = cloneDec(p.CostPrice)
	if p.PublishedAt != nil {
		t := *p.PublishedAt
		c.PublishedAt = &t
	}
	return &c
}

func cloneDec(d *decimal.Decimal) *decimal.Decimal {
	if d == nil {
		return nil
	}
	c := *d
	return &c
}

// ProductInput is a product write request: each field absent, null or a value. Money
// fields carry the decimal string as sent. SKU and Barcode are not product fields: they
// are written to the default variant.
type ProductInput struct {
	Title               Field[string]
	Slug                Field[string]
	Description         Field[string]
	ShortDescription    Field[string]
	ProductType         Field[string]
	Vendor              Field[string]
	Tags                Field[[]string]
	Status              Field[string]
	IsFeatured          Field[bool]
	Price               Field[string]
	CompareAtPrice      Field[string]
	CostPrice           Field[string]
	Currency            Field[string]
	Taxable             Field[bool]
	RequiresShipping    Field[bool]
	Weight              Field[string]
	WeightUnit          Field[string]
	InventoryQuantity   Field[int]
	InventoryPolicy     Field[string]
	InventoryManagement Field[string]
	LowStockThreshold   Field[int]
	SEOTitle            Field[string]
	SEODescription      Field[string]
	MetaFields          Field[map[string]any]
	SKU                 Field[string]
	Barcode             Field[string]
}

// ReplaceFields are the members a full replacement (PUT) must carry: every writable
// product field. compare_at_price, cost_price and inventory_management may be null.
// inventory_quantity is optional (it is an explicit stock change), as are the default
// variant's sku and barcode.
var ReplaceFields = []string{
	"title", "slug", "description", "short_description", "product_type", "vendor", "tags",
	"status", "is_featured", "price", "compare_at_price", "cost_price", "currency", "taxable",
	"requires_shipping", "weight", "weight_unit", "inventory_policy", "inventory_management",
	"low_stock_threshold", "seo_title", "seo_description", "meta_fields",
}

func (in *ProductInput) present() map[string]bool {
	return map[string]bool{
		"title": in.Title.Set, "slug": in.Slug.Set, "description": in.Description.Set,
		"short_description": in.ShortDescription.Set, "product_type": in.ProductType.Set,
		"vendor": in.Vendor.Set, "tags": in.Tags.Set, "status": in.Status.Set,
		"is_featured": in.IsFeatured.Set, "price": in.Price.Set, "compare_at_price": in.CompareAtPrice.Set,
		"cost_price": in.CostPrice.Set, "currency": in.Currency.Set, "taxable": in.Taxable.Set,
		"requires_shipping": in.RequiresShipping.Set, "weight": in.Weight.Set, "weight_unit": in.WeightUnit.Set,
		"inventory_policy": in.InventoryPolicy.Set, "inventory_management": in.InventoryManagement.Set,
		"low_stock_threshold": in.LowStockThreshold.Set, "seo_title": in.SEOTitle.Set,
		"seo_description": in.SEODescription.Set, "meta_fields": in.MetaFields.Set,
	}
}

// CheckReplace names every field a full replacement lacks (400 validation).
func (in *ProductInput) CheckReplace() error {
	have := in.present()
	missing := problems{}
	for _, f := range ReplaceFields {
		if !have[f] {
			missing.add(f, "is required (PUT replaces the whole product; use PATCH for a partial update)")
		}
	}
	if len(missing) > 0 {
		return apperr.Validation(missing).WithMessage("Validation failed: a full replacement needs every product field")
	}
	return nil
}

// ProductChange tells what an update moved.
type ProductChange struct {
	Published   bool // status moved to active
	Unpublished bool // status moved from active to draft or archived
}

// NewProduct validates a create request and builds the product. title, price and
// currency are required; the rest takes its defaults (status active and published,
// physical, taxable, requiring shipping unless digital or service, weight 0 kg,
// inventory tracked with policy deny, low-stock threshold 10).
func NewProduct(id string, in ProductInput, now time.Time) (*Product, error) {
	missing := problems{}
	for name, f := range map[string]Field[string]{"title": in.Title, "price": in.Price, "currency": in.Currency} {
		if !f.Set {
			missing.add(name, "is required")
		}
	}
	if len(missing) > 0 {
		return nil, apperr.Validation(missing)
	}
	p := &Product{
		ID: id, ProductType: TypePhysical, Tags: []string{}, Status: StatusDraft, Taxable: true,
		WeightUnit: DefaultWeightUnit, InventoryPolicy: PolicyDeny, InventoryManagement: InventoryManagementCommerce,
		LowStockThreshold: DefaultLowStockThreshold, MetaFields: map[string]any{}, CreatedAt: now, UpdatedAt: now,
	}
	if !in.Status.Set {
		in.Status = Val(StatusActive)
	}
	if _, err := p.Apply(in, now); err != nil {
		return nil, err
	}
	if !in.RequiresShipping.Set {
		p.RequiresShipping = p.ProductType == TypePhysical
	}
	return p, nil
}

// Apply validates the present fields of in and applies them (PATCH semantics; PUT checks
// CheckReplace first). Nothing changes when an error is returned. status and
// published_at move together: active sets published_at (now when it was null), draft
// and archived clear it.
func (p *Product) Apply(in ProductInput, now time.Time) (ProductChange, error) {
	next := p.Clone()
	bad := problems{}

	str := func(name string, f Field[string], max int, required bool, dst *string) {
		if !f.Set {
			return
		}
		if f.Null {
			bad.add(name, msgNotNull)
			return
		}
		v := f.Value
		if required {
			v = strings.TrimSpace(v)
			if v == "" {
				bad.add(name, "must not be empty")
				return
			}
		}
		if max > 0 && utf8.RuneCountInString(v) > max {
			bad.add(name, "must be at most "+strconv.Itoa(max)+" characters")
			return
		}
		*dst = v
	}
	boolean := func(name string, f Field[bool], dst *bool) {
		if !f.Set {
			return
		}
		if f.Null {
			bad.add(name, msgNotNull)
			return
		}
		*dst = f.Value
	}

	str("title", in.Title, MaxTitleLength, true, &next.Title)
	if in.Slug.Set {
		switch {
		case in.Slug.Null:
			bad.add("slug", msgNotNull)
		case !ValidSlug(in.Slug.Value):
			bad.add("slug", "must be lower-case letters, digits and single hyphens (e.g. \"blue-shirt\"), at most 255 characters")
		default:
			next.Slug = in.Slug.Value
		}
	}
	str("description", in.Description, 0, false, &next.Description)
	str("short_description", in.ShortDescription, MaxShortDescLength, false, &next.ShortDescription)
	if in.Vendor.HasValue() {
		in.Vendor.Value = strings.TrimSpace(in.Vendor.Value)
	}
	str("vendor", in.Vendor, MaxTitleLength, false, &next.Vendor)
	if in.Tags.Set {
		if in.Tags.Null {
			bad.add("tags", msgNotNull)
		} else if tags, msg := NormalizeTags(in.Tags.Value); msg != "" {
			bad.add("tags", msg)
		} else {
			next.Tags = tags
		}
	}
	if in.Status.Set {
		if in.Status.Null || !ValidStatus(in.Status.Value) {
			bad.add("status", "must be one of: active, draft, archived")
		} else {
			next.Status = in.Status.Value
		}
	}
	boolean("is_featured", in.IsFeatured, &next.IsFeatured)
	boolean("taxable", in.Taxable, &next.Taxable)
	boolean("requires_shipping", in.RequiresShipping, &next.RequiresShipping)
	bad.weight(in.Weight, &next.Weight)
	bad.weightUnit(in.WeightUnit, &next.WeightUnit)
	bad.inventoryQuantity(in.InventoryQuantity, &next.InventoryQuantity)
	bad.inventoryPolicy(in.InventoryPolicy, &next.InventoryPolicy)
	if in.InventoryManagement.Set {
		switch {
		case in.InventoryManagement.Null || in.InventoryManagement.Value == "":
			next.InventoryManagement = ""
		case in.InventoryManagement.Value == InventoryManagementCommerce:
			next.InventoryManagement = InventoryManagementCommerce
		default:
			bad.add("inventory_management", "must be \"commerce\" (stock tracked by this service) or null")
		}
	}
	if in.LowStockThreshold.Set {
		if in.LowStockThreshold.Null {
			bad.add("low_stock_threshold", msgNotNull)
		} else if t := in.LowStockThreshold.Value; t < 0 || t > MaxInventoryQuantity {
			bad.add("low_stock_threshold", "must be from 0 to 1000000000")
		} else {
			next.LowStockThreshold = t
		}
	}
	str("seo_title", in.SEOTitle, MaxSEOTitleLength, false, &next.SEOTitle)
	str("seo_description", in.SEODescription, MaxSEODescLength, false, &next.SEODescription)
	if in.MetaFields.Set {
		if in.MetaFields.Null {
			bad.add("meta_fields", msgNotNull)
		} else if msg := checkMetaFields(in.MetaFields.Value); msg != "" {
			bad.add("meta_fields", msg)
		} else {
			next.MetaFields = maps.Clone(in.MetaFields.Value)
			if next.MetaFields == nil {
				next.MetaFields = map[string]any{}
			}
		}
	}
	if in.SKU.Set && (in.SKU.Null || utf8.RuneCountInString(in.SKU.Value) > MaxTitleLength) {
		bad.add("sku", "must be a string of at most 255 characters")
	}
	if in.Barcode.Set && (in.Barcode.Null || utf8.RuneCountInString(in.Barcode.Value) > MaxTitleLength) {
		bad.add("barcode", "must be a string of at most 255 characters")
	}

	// Coded errors (Part 2's table) come before the remaining field problems.
	if in.ProductType.Set {
		if in.ProductType.Null || !ValidProductType(in.ProductType.Value) {
			return ProductChange{}, ErrInvalidProductType.WithField("product_type", "must be one of: physical, digital, service")
		}
		next.ProductType = in.ProductType.Value
	}
	if in.Currency.Set {
		if in.Currency.Null {
			return ProductChange{}, ErrInvalidCurrency.WithField("currency", msgNotNull)
		}
		c, err := NormalizeCurrency(in.Currency.Value)
		if err != nil {
			return ProductChange{}, err
		}
		next.Currency = c
	}
	if in.Price.Set {
		if in.Price.Null {
			return ProductChange{}, ErrInvalidPrice.WithField("price", msgNotNull)
		}
		d, err := ParseAmount("price", in.Price.Value, next.Currency)
		if err != nil {
			return ProductChange{}, err
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
		d, err := ParseAmount(m.name, m.f.Value, next.Currency)
		if err != nil {
			return ProductChange{}, err
		}
		*m.dst = &d
	}
	// A currency change must keep the stored amounts representable.
	if in.Currency.Set && next.Currency != p.Currency {
		for name, d := range map[string]*decimal.Decimal{"price": &next.Price, "compare_at_price": next.CompareAtPrice, "cost_price": next.CostPrice} {
			if d != nil && !FitsCurrency(*d, next.Currency) {
				return ProductChange{}, ErrInvalidPrice.WithMessage("%s has more decimals than %s allows", name, next.Currency).
					WithField(name, "has more decimals than "+next.Currency+" allows")
			}
		}
	}
	if len(bad) > 0 {
		return ProductChange{}, apperr.Validation(bad)
	}

	var ch ProductChange
	wasActive := p.Status == StatusActive && p.PublishedAt != nil
	if next.Status == StatusActive {
		if next.PublishedAt == nil {
			t := now
			next.PublishedAt = &t
		}
		ch.Published = !wasActive
	} else {
		next.PublishedAt = nil
		ch.Unpublished = wasActive
	}
	next.UpdatedAt = now
	*p = *next
	return ch, nil
}

// NormalizeTags trims tags, drops empty ones and case-insensitive duplicates (the first
// spelling wins). A tag may not contain a comma (the list filter is a comma list).
func NormalizeTags(in []string) ([]string, string) {
	out := make([]string, 0, len(in))
	seen := map[string]bool{}
	for _, t := range in {
		t = strings.TrimSpace(t)
		if t == "" {
			continue
		}
		if strings.Contains(t, ",") {
			return nil, "a tag must not contain a comma"
		}
		if utf8.RuneCountInString(t) > MaxTagLength {
			return nil, "a tag must be at most 255 characters"
		}
		k := strings.ToLower(t)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, t)
	}
	if len(out) > MaxTags {
		return nil, "at most 250 tags"
	}
	return out, ""
}

func checkMetaFields(m map[string]any) string {
	if len(m) > MaxMetaFields {
		return "at most 100 keys"
	}
	for k := range m {
		if strings.TrimSpace(k) == "" || utf8.RuneCountInString(k) > MaxMetaKeyLength {
			return "keys must be non-empty strings of at most 255 characters"
		}
	}
	return ""
}
