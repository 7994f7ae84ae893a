package http

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/modules/catalog/domain"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/patch"
)

// writeBody serves a write whose body platform/patch reads (each member absent, null or
// a value, every member of the wrong type named, unknown members ignored) into a
// domain input with read. A JSON number for an amount is INVALID_PRICE
// (docs/decisions/0022).
func writeBody[In, T any](status int, read func(*patch.Body) In, fn func(c *gin.Context, in In) (T, error)) gin.HandlerFunc {
	return httpx.HandlePatch(status, read, fn, patch.AmountCode(domain.ErrInvalidPrice))
}

// productInput reads every product member.
func productInput(b *patch.Body) domain.ProductInput {
	return domain.ProductInput{
		Title: b.String("title"), Slug: b.String("slug"), Description: b.String("description"),
		ShortDescription: b.String("short_description"), ProductType: b.String("product_type"), Vendor: b.String("vendor"),
		Tags: b.Strings("tags"), Status: b.String("status"), IsFeatured: b.Bool("is_featured"), SharedInput: sharedInput(b),
		Currency: b.String("currency"), Taxable: b.Bool("taxable"), InventoryManagement: b.String("inventory_management"),
		LowStockThreshold: b.Int("low_stock_threshold"), SEOTitle: b.String("seo_title"),
		SEODescription: b.String("seo_description"), MetaFields: b.Object("meta_fields"), SKU: b.String("sku"),
		Barcode: b.String("barcode"),
	}
}

// variantInput reads every variant member.
func variantInput(b *patch.Body) domain.VariantInput {
	return domain.VariantInput{
		Title: b.String("title"), SKU: b.String("sku"), Barcode: b.String("barcode"), SharedInput: sharedInput(b),
		Options: b.StringMap("options"),
	}
}

// sharedInput reads the members of the fields products and variants share.
func sharedInput(b *patch.Body) domain.SharedInput {
	return domain.SharedInput{
		Price: b.Amount("price"), CompareAtPrice: b.Amount("compare_at_price"), CostPrice: b.Amount("cost_price"),
		InventoryQuantity: b.Int("inventory_quantity"), InventoryPolicy: b.String("inventory_policy"),
		Weight: b.Decimal("weight"), WeightUnit: b.String("weight_unit"), RequiresShipping: b.Bool("requires_shipping"),
	}
}

// collectionInput reads every collection member.
func collectionInput(b *patch.Body) domain.CollectionInput {
	return domain.CollectionInput{
		Title: b.String("title"), Slug: b.String("slug"), Description: b.String("description"),
		CollectionType: b.String("collection_type"), Rules: rules(b, "rules"), IsActive: b.Bool("is_active"),
		SEOTitle: b.String("seo_title"), SEODescription: b.String("seo_description"),
	}
}

// rules reads smart-collection rules: [{column, relation, condition}], condition a
// string or a number.
func rules(b *patch.Body, name string) patch.Field[[]domain.Rule] {
	return patch.Get(b, name, "an array of {column, relation, condition} objects", func(raw json.RawMessage) ([]domain.Rule, bool) {
		var items []map[string]json.RawMessage
		if patch.Kind(raw) != patch.KindArray || json.Unmarshal(raw, &items) != nil {
			return nil, false
		}
		out := make([]domain.Rule, 0, len(items))
		for _, it := range items {
			var r domain.Rule
			for key, dst := range map[string]*string{"column": &r.Column, "relation": &r.Relation, "condition": &r.Condition} {
				if !ruleMember(it[key], dst) {
					return nil, false
				}
			}
			out = append(out, r)
		}
		return out, true
	})
}

// ruleMember reads one member of a rule: a string, or a number as written.
func ruleMember(raw json.RawMessage, dst *string) bool {
	switch patch.Kind(raw) {
	case patch.KindString:
		return json.Unmarshal(raw, dst) == nil
	case patch.KindNumber:
		*dst = string(bytes.TrimSpace(raw))
		return true
	}
	return false
}

// trimLower splits a comma list into trimmed, lower-cased, non-empty items.
func trimLower(list string) []string {
	var out []string
	for _, s := range strings.Split(list, ",") {
		if s = strings.ToLower(strings.TrimSpace(s)); s != "" {
			out = append(out, s)
		}
	}
	return out
}
