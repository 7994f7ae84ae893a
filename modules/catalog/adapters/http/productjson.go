package http

import (
	"net/http"
	"sync"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/modules/catalog/api"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/jsonw"
)

// bodies recycles the buffers of product bodies.
var bodies = sync.Pool{New: func() any { b := make([]byte, 0, 2048); return &b }}

// writeProductData answers status with {"data": p}, encoded without reflection: the
// same bytes encoding/json writes for httpx.Data(p) (TestProductJSONMatchesEncodingJSON),
// in a fraction of its time. GET by id is the catalog's hottest read (docs/performance.md,
// finding 11).
func writeProductData(c *gin.Context, status int, p *api.ProductResource) {
	writeJSON(c, status, func(b []byte) []byte {
		b = append(b, `{"data":`...)
		b = appendProduct(b, p)
		return append(b, '}')
	})
}

// writeJSON answers status with the JSON body that appendBody appends to a recycled
// buffer.
func writeJSON(c *gin.Context, status int, appendBody func(b []byte) []byte) {
	bp := bodies.Get().(*[]byte)
	b := appendBody((*bp)[:0])
	c.Data(status, "application/json; charset=utf-8", b)
	*bp = b
	bodies.Put(bp)
}

// appendProduct appends p as encoding/json encodes api.ProductResource: its fields in
// declaration order, the included lists only when present (omitempty pointers).
func appendProduct(b []byte, p *api.ProductResource) []byte {
	b = append(b, '{')
	b = jsonw.String(jsonw.Key(b, "id"), p.ID)
	b = jsonw.String(jsonw.Key(b, "title"), p.Title)
	b = jsonw.String(jsonw.Key(b, "slug"), p.Slug)
	b = jsonw.String(jsonw.Key(b, "description"), p.Description)
	b = jsonw.String(jsonw.Key(b, "short_description"), p.ShortDescription)
	b = jsonw.String(jsonw.Key(b, "product_type"), p.ProductType)
	b = jsonw.String(jsonw.Key(b, "vendor"), p.Vendor)
	b = jsonw.Strings(jsonw.Key(b, "tags"), p.Tags)
	b = jsonw.String(jsonw.Key(b, "status"), p.Status)
	b = jsonw.Bool(jsonw.Key(b, "is_featured"), p.IsFeatured)
	b = jsonw.String(jsonw.Key(b, "price"), p.Price)
	b = jsonw.StringPtr(jsonw.Key(b, "compare_at_price"), p.CompareAtPrice)
	b = jsonw.StringPtr(jsonw.Key(b, "cost_price"), p.CostPrice)
	b = jsonw.String(jsonw.Key(b, "currency"), p.Currency)
	b = jsonw.Bool(jsonw.Key(b, "taxable"), p.Taxable)
	b = jsonw.Bool(jsonw.Key(b, "requires_shipping"), p.RequiresShipping)
	b = jsonw.String(jsonw.Key(b, "weight"), p.Weight)
	b = jsonw.String(jsonw.Key(b, "weight_unit"), p.WeightUnit)
	b = jsonw.Int(jsonw.Key(b, "inventory_quantity"), p.InventoryQuantity)
	b = jsonw.String(jsonw.Key(b, "inventory_policy"), p.InventoryPolicy)
	b = jsonw.StringPtr(jsonw.Key(b, "inventory_management"), p.InventoryManagement)
	b = jsonw.Int(jsonw.Key(b, "low_stock_threshold"), p.LowStockThreshold)
	b = jsonw.Bool(jsonw.Key(b, "has_variants"), p.HasVariants)
	b = jsonw.String(jsonw.Key(b, "seo_title"), p.SEOTitle)
	b = jsonw.String(jsonw.Key(b, "seo_description"), p.SEODescription)
	b = jsonw.Key(b, "meta_fields")
	if len(p.MetaFields) == 0 && p.MetaFields != nil {
		b = append(b, "{}"...)
	} else {
		b = jsonw.Value(b, p.MetaFields)
	}
	b = jsonw.Time(jsonw.Key(b, "created_at"), p.CreatedAt)
	b = jsonw.Time(jsonw.Key(b, "updated_at"), p.UpdatedAt)
	b = jsonw.TimePtr(jsonw.Key(b, "published_at"), p.PublishedAt)
	if p.Variants != nil {
		b = jsonw.Value(jsonw.Key(b, "variants"), *p.Variants)
	}
	if p.Images != nil {
		b = jsonw.Value(jsonw.Key(b, "images"), *p.Images)
	}
	if p.Collections != nil {
		b = jsonw.Value(jsonw.Key(b, "collections"), *p.Collections)
	}
	return append(b, '}')
}

// writeProductList answers 200 with the list shape of httpx.NewList(items, page,
// total), encoded without reflection like writeProductData (the list page is the
// catalog's second hottest read; TestProductListJSONMatchesEncodingJSON).
func writeProductList(c *gin.Context, items []api.ProductSummary, page httpx.Page, total int64) {
	writeJSON(c, http.StatusOK, func(b []byte) []byte {
		b = append(b, `{"data":[`...)
		for i := range items {
			b = appendProductSummary(jsonw.Elem(b), &items[i])
		}
		b = append(b, `],"meta":`...)
		b = httpx.NewListMeta(page, total).AppendJSON(b)
		return append(b, '}')
	})
}

// appendProductSummary appends p as encoding/json encodes api.ProductSummary.
func appendProductSummary(b []byte, p *api.ProductSummary) []byte {
	b = append(b, '{')
	b = jsonw.String(jsonw.Key(b, "id"), p.ID)
	b = jsonw.String(jsonw.Key(b, "title"), p.Title)
	b = jsonw.String(jsonw.Key(b, "slug"), p.Slug)
	b = jsonw.String(jsonw.Key(b, "short_description"), p.ShortDescription)
	b = jsonw.String(jsonw.Key(b, "product_type"), p.ProductType)
	b = jsonw.String(jsonw.Key(b, "vendor"), p.Vendor)
	b = jsonw.Strings(jsonw.Key(b, "tags"), p.Tags)
	b = jsonw.String(jsonw.Key(b, "status"), p.Status)
	b = jsonw.Bool(jsonw.Key(b, "is_featured"), p.IsFeatured)
	b = jsonw.String(jsonw.Key(b, "price"), p.Price)
	b = jsonw.StringPtr(jsonw.Key(b, "compare_at_price"), p.CompareAtPrice)
	b = jsonw.String(jsonw.Key(b, "currency"), p.Currency)
	b = jsonw.Int(jsonw.Key(b, "inventory_quantity"), p.InventoryQuantity)
	b = jsonw.String(jsonw.Key(b, "inventory_policy"), p.InventoryPolicy)
	b = jsonw.Int(jsonw.Key(b, "low_stock_threshold"), p.LowStockThreshold)
	b = jsonw.Bool(jsonw.Key(b, "has_variants"), p.HasVariants)
	b = jsonw.StringPtr(jsonw.Key(b, "image_url"), p.ImageURL)
	b = jsonw.Time(jsonw.Key(b, "created_at"), p.CreatedAt)
	b = jsonw.Time(jsonw.Key(b, "updated_at"), p.UpdatedAt)
	b = jsonw.TimePtr(jsonw.Key(b, "published_at"), p.PublishedAt)
	return append(b, '}')
}
