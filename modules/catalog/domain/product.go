// Package domain holds the catalog's entities and rules: products, variants, images and
// collections, money and slug rules, the ISO 4217 list. Plain Go.
package domain

import (
	"maps"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/catalog/api"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/limits"
	"github.com/gocommerce/commerce/platform/patch"
	"github.com/gocommerce/commerce/platform/tags"
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
	MaxTagLength         = tags.MaxLength
	MaxTags              = tags.MaxCount
	MaxMetaFields        = 100
	MaxMetaKeyLength     = 255
	MaxInventoryQuantity = limits.MaxStock // shared with inventory (docs/decisions/0094)
)

// Stock statuses (catalog/api's).
const (
	StockInStock    = api.StockInStock
	StockLowStock   = api.StockLowStock
	StockOutOfStock = api.StockOutOfStock
)

// StockStatus derives the stock status: out_of_stock when quantity <= 0, low_stock when
// quantity <= threshold, else in_stock (api.StockStatus).
func StockStatus(quantity, threshold int) string { return api.StockStatus(quantity, threshold) }

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
	Shared              // price, stock, weight, requires_shipping
	Currency            string
	Taxable             bool
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
	c.Shared = p.clone()
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
	Title            patch.Field[string]
	Slug             patch.Field[string]
	Description      patch.Field[string]
	ShortDescription patch.Field[string]
	ProductType      patch.Field[string]
	Vendor           patch.Field[string]
	Tags             patch.Field[[]string]
	Status           patch.Field[string]
	IsFeatured       patch.Field[bool]
	SharedInput
	Currency            patch.Field[string]
	Taxable             patch.Field[bool]
	InventoryManagement patch.Field[string]
	LowStockThreshold   patch.Field[int]
	SEOTitle            patch.Field[string]
	SEODescription      patch.Field[string]
	MetaFields          patch.Field[map[string]any]
	SKU                 patch.Field[string]
	Barcode             patch.Field[string]
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
	missing := patch.Problems{}
	for _, f := range ReplaceFields {
		if !have[f] {
			missing.Add(f, "is required (PUT replaces the whole product; use PATCH for a partial update)")
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
	missing := patch.Problems{}
	for name, f := range map[string]patch.Field[string]{"title": in.Title, "price": in.Price, "currency": in.Currency} {
		if !f.Set {
			missing.Add(name, "is required")
		}
	}
	if len(missing) > 0 {
		return nil, apperr.Validation(missing)
	}
	p := &Product{
		ID: id, ProductType: TypePhysical, Tags: []string{}, Status: StatusDraft, Taxable: true,
		Shared: Shared{WeightUnit: DefaultWeightUnit, InventoryPolicy: PolicyDeny}, InventoryManagement: InventoryManagementCommerce,
		LowStockThreshold: DefaultLowStockThreshold, MetaFields: map[string]any{}, CreatedAt: now, UpdatedAt: now,
	}
	if !in.Status.Set {
		in.Status = patch.Val(StatusActive)
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
// CheckReplace first). Nothing changes when an error is returned. The coded errors of
// Part 2's table (product_type, currency, amounts) come before the other fields'
// problems. status and published_at move together: active sets published_at (now when
// it was null), draft and archived clear it.
func (p *Product) Apply(in ProductInput, now time.Time) (ProductChange, error) {
	next := p.Clone()
	bad := patch.Problems{}
	next.applyText(in, bad)
	next.applyMerchandising(in, bad)
	next.applyShipping(in, bad)
	next.applyInventory(in, bad)
	checkVariantCodes(in, bad)
	if err := next.applyCoded(in, p.Currency); err != nil {
		return ProductChange{}, err
	}
	if err := bad.Err(); err != nil {
		return ProductChange{}, err
	}
	ch := next.publish(p, now)
	next.UpdatedAt = now
	*p = *next
	return ch, nil
}

// applyText applies the product's texts: title, slug, descriptions, vendor, SEO.
func (p *Product) applyText(in ProductInput, bad patch.Problems) {
	patch.Text{Max: MaxTitleLength, Required: true}.Apply(bad, "title", in.Title, &p.Title)
	patch.Apply(bad, "slug", in.Slug, &p.Slug, checkSlug("blue-shirt"))
	patch.Text{}.Apply(bad, "description", in.Description, &p.Description)
	patch.Text{Max: MaxShortDescLength}.Apply(bad, "short_description", in.ShortDescription, &p.ShortDescription)
	patch.Text{Max: MaxTitleLength, Trim: true}.Apply(bad, "vendor", in.Vendor, &p.Vendor)
	patch.Text{Max: MaxSEOTitleLength}.Apply(bad, "seo_title", in.SEOTitle, &p.SEOTitle)
	patch.Text{Max: MaxSEODescLength}.Apply(bad, "seo_description", in.SEODescription, &p.SEODescription)
}

// applyMerchandising applies tags, status, is_featured and meta_fields.
func (p *Product) applyMerchandising(in ProductInput, bad patch.Problems) {
	patch.Apply(bad, "tags", in.Tags, &p.Tags, NormalizeTags)
	patch.OneOf(bad, "status", in.Status, &p.Status, StatusActive, StatusDraft, StatusArchived)
	patch.Copy(bad, "is_featured", in.IsFeatured, &p.IsFeatured)
	patch.Apply(bad, "meta_fields", in.MetaFields, &p.MetaFields, func(m map[string]any) (map[string]any, string) {
		if msg := checkMetaFields(m); msg != "" {
			return nil, msg
		}
		if m == nil {
			return map[string]any{}, ""
		}
		return maps.Clone(m), ""
	})
}

// applyShipping applies taxable, requires_shipping, weight and weight_unit.
func (p *Product) applyShipping(in ProductInput, bad patch.Problems) {
	patch.Copy(bad, "taxable", in.Taxable, &p.Taxable)
	patch.Copy(bad, "requires_shipping", in.RequiresShipping, &p.RequiresShipping)
	applyWeight(bad, in.Weight, in.WeightUnit, &p.Weight, &p.WeightUnit)
}

// applyInventory applies inventory_quantity, inventory_policy, inventory_management
// (null or "" stops tracking) and low_stock_threshold.
func (p *Product) applyInventory(in ProductInput, bad patch.Problems) {
	applyStock(bad, in.InventoryQuantity, in.InventoryPolicy, &p.InventoryQuantity, &p.InventoryPolicy)
	if m := in.InventoryManagement; m.Set {
		switch {
		case m.Null || m.Value == "":
			p.InventoryManagement = ""
		case m.Value == InventoryManagementCommerce:
			p.InventoryManagement = InventoryManagementCommerce
		default:
			bad.Add("inventory_management", "must be \"commerce\" (stock tracked by this service) or null")
		}
	}
	patch.Apply(bad, "low_stock_threshold", in.LowStockThreshold, &p.LowStockThreshold, checkCount)
}

// checkVariantCodes checks sku and barcode, which are written to the default variant.
func checkVariantCodes(in ProductInput, bad patch.Problems) {
	for name, f := range map[string]patch.Field[string]{"sku": in.SKU, "barcode": in.Barcode} {
		if f.Set && (f.Null || utf8.RuneCountInString(f.Value) > MaxTitleLength) {
			bad.Add(name, "must be a string of at most 255 characters")
		}
	}
}

// applyCoded applies the fields with their own error codes: product_type, currency and
// the amounts, which must fit the (new) currency.
func (p *Product) applyCoded(in ProductInput, oldCurrency string) error {
	if t := in.ProductType; t.Set {
		if t.Null || !ValidProductType(t.Value) {
			return ErrInvalidProductType.WithField("product_type", "must be one of: physical, digital, service")
		}
		p.ProductType = t.Value
	}
	if c := in.Currency; c.Set {
		if c.Null {
			return ErrInvalidCurrency.WithField("currency", patch.MsgNotNull)
		}
		code, err := NormalizeCurrency(c.Value)
		if err != nil {
			return err
		}
		p.Currency = code
	}
	amounts := priceFields{price: in.Price, compareAt: in.CompareAtPrice, cost: in.CostPrice}
	if err := amounts.apply(p.Currency, prices{price: &p.Price, compareAt: &p.CompareAtPrice, cost: &p.CostPrice}); err != nil {
		return err
	}
	if in.Currency.Set && p.Currency != oldCurrency {
		return p.checkAmountsFit()
	}
	return nil
}

// checkAmountsFit checks that a currency change keeps the amounts representable.
func (p *Product) checkAmountsFit() error {
	for _, a := range []struct {
		name string
		d    *decimal.Decimal
	}{{"price", &p.Price}, {"compare_at_price", p.CompareAtPrice}, {"cost_price", p.CostPrice}} {
		if a.d != nil && !FitsCurrency(*a.d, p.Currency) {
			return ErrInvalidPrice.WithMessage("%s has more decimals than %s allows", a.name, p.Currency).
				WithField(a.name, "has more decimals than "+p.Currency+" allows")
		}
	}
	return nil
}

// publish moves published_at with the status (from the product as it was) and tells
// what moved.
func (p *Product) publish(was *Product, now time.Time) ProductChange {
	var ch ProductChange
	wasActive := was.Status == StatusActive && was.PublishedAt != nil
	if p.Status == StatusActive {
		if p.PublishedAt == nil {
			t := now
			p.PublishedAt = &t
		}
		ch.Published = !wasActive
	} else {
		p.PublishedAt = nil
		ch.Unpublished = wasActive
	}
	return ch
}

// NormalizeTags trims tags, drops empty ones and case-insensitive duplicates (the first
// spelling wins). A tag may not contain a comma (the list filter is a comma list).
func NormalizeTags(in []string) ([]string, string) {
	out, p := tags.Normalize(in, tags.Comma|tags.TooLong)
	switch {
	case p&tags.Comma != 0:
		return nil, "a tag must not contain a comma"
	case p&tags.TooLong != 0:
		return nil, "a tag must be at most 255 characters"
	case p == tags.TooMany:
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
