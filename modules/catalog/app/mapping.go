package app

import (
	"maps"
	"slices"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/catalog/api"
	"github.com/gocommerce/commerce/modules/catalog/domain"
)

func amountPtr(d *decimal.Decimal, currency string) *string {
	if d == nil {
		return nil
	}
	s := domain.FormatAmount(*d, currency)
	return &s
}

func toProductResource(p *domain.Product) api.ProductResource {
	var mgmt *string
	if p.InventoryManagement != "" {
		m := p.InventoryManagement
		mgmt = &m
	}
	meta := maps.Clone(p.MetaFields)
	if meta == nil {
		meta = map[string]any{}
	}
	tags := slices.Clone(p.Tags)
	if tags == nil {
		tags = []string{}
	}
	r := api.ProductResource{
		ID: p.ID, Title: p.Title, Slug: p.Slug, Description: p.Description, ShortDescription: p.ShortDescription,
		ProductType: p.ProductType, Vendor: p.Vendor, Tags: tags, Status: p.Status, IsFeatured: p.IsFeatured,
		Price: domain.FormatAmount(p.Price, p.Currency), CompareAtPrice: amountPtr(p.CompareAtPrice, p.Currency),
		CostPrice: amountPtr(p.CostPrice, p.Currency), Currency: p.Currency, Taxable: p.Taxable,
		RequiresShipping: p.RequiresShipping, Weight: p.Weight.String(), WeightUnit: p.WeightUnit,
		InventoryQuantity: p.InventoryQuantity, InventoryPolicy: p.InventoryPolicy, InventoryManagement: mgmt,
		LowStockThreshold: p.LowStockThreshold, HasVariants: p.HasVariants, SEOTitle: p.SEOTitle,
		SEODescription: p.SEODescription, MetaFields: meta, CreatedAt: p.CreatedAt.UTC(), UpdatedAt: p.UpdatedAt.UTC(),
	}
	if p.PublishedAt != nil {
		t := p.PublishedAt.UTC()
		r.PublishedAt = &t
	}
	return r
}

// withVariants is a product resource carrying its variants (events, write responses).
func withVariants(p *domain.Product, vs []*domain.Variant) api.ProductResource {
	r := toProductResource(p)
	list := toVariantResources(vs, p.Currency)
	r.Variants = &list
	return r
}

// mapAll maps every element of xs with f, in order (never nil: an empty list encodes
// as []).
func mapAll[T, R any](xs []T, f func(T) R) []R {
	out := make([]R, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

func toVariantResources(vs []*domain.Variant, currency string) []api.VariantResource {
	return mapAll(vs, func(v *domain.Variant) api.VariantResource { return toVariantResource(v, currency) })
}

func toVariantResource(v *domain.Variant, currency string) api.VariantResource {
	opts := maps.Clone(v.Options)
	if opts == nil {
		opts = map[string]string{}
	}
	return api.VariantResource{
		ID: v.ID, ProductID: v.ProductID, Title: v.Title, SKU: v.SKU, Barcode: v.Barcode,
		Price: domain.FormatAmount(v.Price, currency), CompareAtPrice: amountPtr(v.CompareAtPrice, currency),
		CostPrice: amountPtr(v.CostPrice, currency), InventoryQuantity: v.InventoryQuantity,
		InventoryPolicy: v.InventoryPolicy, Weight: v.Weight.String(), WeightUnit: v.WeightUnit,
		RequiresShipping: v.RequiresShipping, IsDefault: v.IsDefault, Options: opts,
		CreatedAt: v.CreatedAt.UTC(), UpdatedAt: v.UpdatedAt.UTC(),
	}
}

func toImageResource(i *domain.Image) api.ImageResource {
	return api.ImageResource{
		ID: i.ID, ProductID: i.ProductID, URL: i.URL, AltText: i.AltText, Position: i.Position,
		Width: i.Width, Height: i.Height, FileSize: i.FileSize, FileType: i.FileType, CreatedAt: i.CreatedAt.UTC(),
	}
}

func toCollectionResource(c *domain.Collection) api.CollectionResource {
	rules := make([]api.CollectionRule, 0, len(c.Rules))
	for _, r := range c.Rules {
		rules = append(rules, api.CollectionRule{Column: r.Column, Relation: r.Relation, Condition: r.Condition})
	}
	return api.CollectionResource{
		ID: c.ID, Title: c.Title, Slug: c.Slug, Description: c.Description, CollectionType: c.CollectionType,
		Rules: rules, IsActive: c.IsActive, SEOTitle: c.SEOTitle, SEODescription: c.SEODescription,
		CreatedAt: c.CreatedAt.UTC(), UpdatedAt: c.UpdatedAt.UTC(),
	}
}

func toMembershipResource(m *domain.Membership) api.CollectionProduct {
	return api.CollectionProduct{CollectionID: m.CollectionID, ProductID: m.ProductID, Position: m.Position, CreatedAt: m.CreatedAt.UTC()}
}

func toSummary(p *domain.Product, imageURL string) api.ProductSummary {
	tags := slices.Clone(p.Tags)
	if tags == nil {
		tags = []string{}
	}
	s := api.ProductSummary{
		ID: p.ID, Title: p.Title, Slug: p.Slug, ShortDescription: p.ShortDescription, ProductType: p.ProductType,
		Vendor: p.Vendor, Tags: tags, Status: p.Status, IsFeatured: p.IsFeatured,
		Price: domain.FormatAmount(p.Price, p.Currency), CompareAtPrice: amountPtr(p.CompareAtPrice, p.Currency),
		Currency: p.Currency, InventoryQuantity: p.InventoryQuantity, InventoryPolicy: p.InventoryPolicy,
		LowStockThreshold: p.LowStockThreshold, HasVariants: p.HasVariants,
		CreatedAt: p.CreatedAt.UTC(), UpdatedAt: p.UpdatedAt.UTC(),
	}
	if imageURL != "" {
		u := imageURL
		s.ImageURL = &u
	}
	if p.PublishedAt != nil {
		t := p.PublishedAt.UTC()
		s.PublishedAt = &t
	}
	return s
}

// toAPIProduct is the contract DTO other modules use.
func toAPIProduct(p *domain.Product, vs []*domain.Variant, imageURL string) api.Product {
	out := api.Product{
		ID: p.ID, Title: p.Title, Slug: p.Slug, Status: p.Status, Currency: p.Currency, ProductType: p.ProductType,
		Price: p.Price, InventoryPolicy: p.InventoryPolicy, InventoryManagement: p.InventoryManagement,
		InventoryQuantity: p.InventoryQuantity, LowStockThreshold: p.LowStockThreshold, Taxable: p.Taxable,
		RequiresShipping: p.RequiresShipping, ImageURL: imageURL, Variants: make([]api.Variant, 0, len(vs)),
	}
	for _, v := range vs {
		out.Variants = append(out.Variants, toAPIVariant(v))
	}
	return out
}

func toAPIVariant(v *domain.Variant) api.Variant {
	return api.Variant{
		ID: v.ID, ProductID: v.ProductID, Title: v.Title, SKU: v.SKU, Price: v.Price, InventoryPolicy: v.InventoryPolicy,
		InventoryQuantity: v.InventoryQuantity, IsDefault: v.IsDefault, RequiresShipping: v.RequiresShipping,
		Weight: v.Weight, WeightUnit: v.WeightUnit, Options: maps.Clone(v.Options),
	}
}
