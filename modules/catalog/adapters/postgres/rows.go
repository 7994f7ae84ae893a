package postgres

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/catalog/domain"
	"github.com/gocommerce/commerce/platform/db"
)

type productRow struct {
	ID               string `gorm:"primaryKey"`
	Title            string
	Slug             string
	Description      string
	ShortDescription string
	ProductType      string
	Vendor           string
	Tags             string // JSON array, as written
	TagsText         string // tags joined by spaces (search)
	Status           string
	IsFeatured       bool
	SharedColumns
	Currency            string
	Taxable             bool
	InventoryManagement *string
	LowStockThreshold   int
	HasVariants         bool
	SEOTitle            string
	SEODescription      string
	MetaFields          string    // JSON object
	CreatedAt           time.Time `gorm:"autoCreateTime:false"`
	UpdatedAt           time.Time `gorm:"autoUpdateTime:false"`
	PublishedAt         *time.Time
}

func (productRow) TableName() string { return "products" }

// productColumns are the stored columns (not the derived stock_status / search ones).
const productColumns = "products.id, products.title, products.slug, products.description, products.short_description, " +
	"products.product_type, products.vendor, products.tags, products.tags_text, products.status, products.is_featured, " +
	"products.price, products.compare_at_price, products.cost_price, products.currency, products.taxable, " +
	"products.requires_shipping, products.weight, products.weight_unit, products.inventory_quantity, " +
	"products.inventory_policy, products.inventory_management, products.low_stock_threshold, products.has_variants, " +
	"products.seo_title, products.seo_description, products.meta_fields, products.created_at, products.updated_at, " +
	"products.published_at"

func nullDec(d *decimal.Decimal) decimal.NullDecimal {
	if d == nil {
		return decimal.NullDecimal{}
	}
	return decimal.NullDecimal{Decimal: *d, Valid: true}
}

func decPtr(n decimal.NullDecimal) *decimal.Decimal {
	if !n.Valid {
		return nil
	}
	d := n.Decimal
	return &d
}

// SharedColumns is domain.Shared as stored: the columns of a product and its variants
// that a default variant mirrors (exported, so gorm embeds its fields in the rows).
type SharedColumns struct {
	Price             decimal.Decimal
	CompareAtPrice    decimal.NullDecimal
	CostPrice         decimal.NullDecimal
	InventoryQuantity int
	InventoryPolicy   string
	Weight            decimal.Decimal
	WeightUnit        string
	RequiresShipping  bool
}

func fromShared(s *domain.Shared) SharedColumns {
	return SharedColumns{
		Price: s.Price, CompareAtPrice: nullDec(s.CompareAtPrice), CostPrice: nullDec(s.CostPrice),
		InventoryQuantity: s.InventoryQuantity, InventoryPolicy: s.InventoryPolicy, Weight: s.Weight, WeightUnit: s.WeightUnit,
		RequiresShipping: s.RequiresShipping,
	}
}

func (r SharedColumns) toDomain() domain.Shared {
	return domain.Shared{
		Price: r.Price, CompareAtPrice: decPtr(r.CompareAtPrice), CostPrice: decPtr(r.CostPrice),
		InventoryQuantity: r.InventoryQuantity, InventoryPolicy: r.InventoryPolicy, Weight: r.Weight, WeightUnit: r.WeightUnit,
		RequiresShipping: r.RequiresShipping,
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "null"
	}
	return string(b)
}

func fromProduct(p *domain.Product) productRow {
	var mgmt *string
	if p.InventoryManagement != "" {
		m := p.InventoryManagement
		mgmt = &m
	}
	tags := p.Tags
	if tags == nil {
		tags = []string{}
	}
	meta := p.MetaFields
	if meta == nil {
		meta = map[string]any{}
	}
	return productRow{
		ID: p.ID, Title: p.Title, Slug: p.Slug, Description: p.Description, ShortDescription: p.ShortDescription,
		ProductType: p.ProductType, Vendor: p.Vendor, Tags: mustJSON(tags), TagsText: strings.Join(tags, " "),
		Status: p.Status, IsFeatured: p.IsFeatured, SharedColumns: fromShared(&p.Shared), Currency: p.Currency, Taxable: p.Taxable,
		InventoryManagement: mgmt, LowStockThreshold: p.LowStockThreshold, HasVariants: p.HasVariants,
		SEOTitle: p.SEOTitle, SEODescription: p.SEODescription, MetaFields: mustJSON(meta),
		CreatedAt: p.CreatedAt.UTC(), UpdatedAt: p.UpdatedAt.UTC(), PublishedAt: db.UTCPtr(p.PublishedAt),
	}
}

func (r productRow) toDomain() *domain.Product {
	p := &domain.Product{
		ID: r.ID, Title: r.Title, Slug: r.Slug, Description: r.Description, ShortDescription: r.ShortDescription,
		ProductType: r.ProductType, Vendor: r.Vendor, Status: r.Status, IsFeatured: r.IsFeatured, Currency: r.Currency,
		Shared: r.SharedColumns.toDomain(), Taxable: r.Taxable, LowStockThreshold: r.LowStockThreshold,
		HasVariants: r.HasVariants, SEOTitle: r.SEOTitle, SEODescription: r.SEODescription,
		CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(), PublishedAt: db.UTCPtr(r.PublishedAt),
	}
	if r.InventoryManagement != nil {
		p.InventoryManagement = *r.InventoryManagement
	}
	if err := json.Unmarshal([]byte(r.Tags), &p.Tags); err != nil || p.Tags == nil {
		p.Tags = []string{}
	}
	p.MetaFields = map[string]any{}
	if r.MetaFields != "{}" { // most products have none: skip the decoder
		dec := json.NewDecoder(strings.NewReader(r.MetaFields))
		dec.UseNumber() // keep numbers exactly as written
		if err := dec.Decode(&p.MetaFields); err != nil || p.MetaFields == nil {
			p.MetaFields = map[string]any{}
		}
	}
	return p
}

// tagRows are the lower-case tag rows of a product.
func tagRows(p *domain.Product) []productTagRow {
	seen := map[string]bool{}
	out := make([]productTagRow, 0, len(p.Tags))
	for _, t := range p.Tags {
		k := strings.ToLower(t)
		if !seen[k] {
			seen[k] = true
			out = append(out, productTagRow{ProductID: p.ID, Tag: k})
		}
	}
	return out
}

type productTagRow struct {
	ProductID string `gorm:"primaryKey"`
	Tag       string `gorm:"primaryKey"`
}

func (productTagRow) TableName() string { return "product_tags" }

type variantRow struct {
	ID        string `gorm:"primaryKey"`
	ProductID string
	Title     string
	SKU       string
	Barcode   string
	SharedColumns
	IsDefault bool
	Options   string    // JSON object
	CreatedAt time.Time `gorm:"autoCreateTime:false"`
	UpdatedAt time.Time `gorm:"autoUpdateTime:false"`
}

func (variantRow) TableName() string { return "product_variants" }

func fromVariant(v *domain.Variant) variantRow {
	opts := v.Options
	if opts == nil {
		opts = map[string]string{}
	}
	return variantRow{
		ID: v.ID, ProductID: v.ProductID, Title: v.Title, SKU: v.SKU, Barcode: v.Barcode, SharedColumns: fromShared(&v.Shared),
		IsDefault: v.IsDefault, Options: mustJSON(opts), CreatedAt: v.CreatedAt.UTC(), UpdatedAt: v.UpdatedAt.UTC(),
	}
}

func (r variantRow) toDomain() *domain.Variant {
	v := &domain.Variant{
		ID: r.ID, ProductID: r.ProductID, Title: r.Title, SKU: r.SKU, Barcode: r.Barcode, Shared: r.SharedColumns.toDomain(),
		IsDefault: r.IsDefault, CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(),
	}
	if err := json.Unmarshal([]byte(r.Options), &v.Options); err != nil || v.Options == nil {
		v.Options = map[string]string{}
	}
	return v
}

type imageRow struct {
	ID         string `gorm:"primaryKey"`
	ProductID  string
	URL        string
	StorageKey string
	AltText    string
	Position   int
	Width      int
	Height     int
	FileSize   int64
	FileType   string
	CreatedAt  time.Time `gorm:"autoCreateTime:false"`
}

func (imageRow) TableName() string { return "product_images" }

func fromImage(i *domain.Image) imageRow {
	return imageRow{
		ID: i.ID, ProductID: i.ProductID, URL: i.URL, StorageKey: i.StorageKey, AltText: i.AltText, Position: i.Position,
		Width: i.Width, Height: i.Height, FileSize: i.FileSize, FileType: i.FileType, CreatedAt: i.CreatedAt.UTC(),
	}
}

func (r imageRow) toDomain() *domain.Image {
	return &domain.Image{
		ID: r.ID, ProductID: r.ProductID, URL: r.URL, StorageKey: r.StorageKey, AltText: r.AltText, Position: r.Position,
		Width: r.Width, Height: r.Height, FileSize: r.FileSize, FileType: r.FileType, CreatedAt: r.CreatedAt.UTC(),
	}
}

type ruleJSON struct {
	Column    string `json:"column"`
	Relation  string `json:"relation"`
	Condition string `json:"condition"`
}

type collectionRow struct {
	ID             string `gorm:"primaryKey"`
	Title          string
	Slug           string
	Description    string
	CollectionType string
	Rules          string // JSON array of rules
	IsActive       bool
	SEOTitle       string
	SEODescription string
	CreatedAt      time.Time `gorm:"autoCreateTime:false"`
	UpdatedAt      time.Time `gorm:"autoUpdateTime:false"`
}

func (collectionRow) TableName() string { return "collections" }

func fromCollection(c *domain.Collection) collectionRow {
	rules := make([]ruleJSON, 0, len(c.Rules))
	for _, r := range c.Rules {
		rules = append(rules, ruleJSON(r))
	}
	return collectionRow{
		ID: c.ID, Title: c.Title, Slug: c.Slug, Description: c.Description, CollectionType: c.CollectionType,
		Rules: mustJSON(rules), IsActive: c.IsActive, SEOTitle: c.SEOTitle, SEODescription: c.SEODescription,
		CreatedAt: c.CreatedAt.UTC(), UpdatedAt: c.UpdatedAt.UTC(),
	}
}

func (r collectionRow) toDomain() *domain.Collection {
	c := &domain.Collection{
		ID: r.ID, Title: r.Title, Slug: r.Slug, Description: r.Description, CollectionType: r.CollectionType,
		IsActive: r.IsActive, SEOTitle: r.SEOTitle, SEODescription: r.SEODescription,
		CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(), Rules: []domain.Rule{},
	}
	var rules []ruleJSON
	if err := json.Unmarshal([]byte(r.Rules), &rules); err == nil {
		for _, x := range rules {
			c.Rules = append(c.Rules, domain.Rule(x))
		}
	}
	return c
}

type membershipRow struct {
	CollectionID string `gorm:"primaryKey"`
	ProductID    string `gorm:"primaryKey"`
	Position     int
	CreatedAt    time.Time `gorm:"autoCreateTime:false"`
}

func (membershipRow) TableName() string { return "collection_products" }

func (r membershipRow) toDomain() *domain.Membership {
	return &domain.Membership{CollectionID: r.CollectionID, ProductID: r.ProductID, Position: r.Position, CreatedAt: r.CreatedAt.UTC()}
}
