package http

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/catalog/api"
	"github.com/gocommerce/commerce/modules/catalog/app"
	"github.com/gocommerce/commerce/modules/catalog/domain"
	"github.com/gocommerce/commerce/modules/catalog/ports"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/ids"
)

// maxQueryLength bounds the q parameter.
const maxQueryLength = 200

// listProducts answers GET /api/v1/products with product summaries in Part 2's list
// shape.
func (h *Handler) listProducts(c *gin.Context) {
	page, err := httpx.ParsePage(c)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	q, err := parseProductQuery(c)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	q.Offset, q.Limit = page.Offset(), page.Limit()
	q.ActiveOnly = productsActiveOnly(c)
	items, total, err := h.svc.ListProducts(c.Request.Context(), q)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	writeProductList(c, items, page, total)
}

func parseProductQuery(c *gin.Context) (app.ListProductsQuery, error) {
	var q app.ListProductsQuery
	bad := map[string]string{}
	if v := c.Query("status"); v != "" {
		if !domain.ValidStatus(v) {
			bad["status"] = "must be one of: active, draft, archived"
		}
		q.Status = v
	}
	if v := c.Query("product_type"); v != "" {
		if !domain.ValidProductType(v) {
			bad["product_type"] = "must be one of: physical, digital, service"
		}
		q.ProductType = v
	}
	q.Vendor = strings.TrimSpace(c.Query("vendor"))
	for name, dst := range map[string]**decimal.Decimal{"min_price": &q.MinPrice, "max_price": &q.MaxPrice} {
		if v := c.Query(name); v != "" {
			d, ok := domain.ParseWeight(v) // a non-negative decimal
			if !ok {
				bad[name] = "must be a non-negative decimal such as \"19.99\""
				continue
			}
			*dst = &d
		}
	}
	if v := c.Query("tags"); v != "" {
		q.Tags = trimLower(v)
	}
	if v := c.Query("ids"); v != "" {
		for _, id := range strings.Split(v, ",") {
			id = strings.ToLower(strings.TrimSpace(id))
			if id == "" {
				continue
			}
			if !ids.Valid(id) {
				bad["ids"] = "must be a comma list of UUIDs"
				break
			}
			q.IDs = append(q.IDs, id)
		}
	}
	q.CollectionID = strings.TrimSpace(c.Query("collection_id"))
	if v := strings.TrimSpace(c.Query("q")); v != "" {
		if len([]rune(v)) > maxQueryLength {
			bad["q"] = "must be at most 200 characters"
		}
		q.Query = v
	}
	switch v := c.Query("sort"); v {
	case "", ports.SortTitle, ports.SortPrice, ports.SortCreatedAt, ports.SortUpdatedAt:
		q.Sort = v
	default:
		bad["sort"] = "must be one of: title, price, created_at, updated_at"
	}
	switch v := c.Query("order"); v {
	case "", "asc", "desc":
		q.Order = v
	default:
		bad["order"] = "must be one of: asc, desc"
	}
	for name, dst := range map[string]**time.Time{"created_after": &q.CreatedAfter, "created_before": &q.CreatedBefore} {
		if v := c.Query(name); v != "" {
			t, ok := parseTime(v)
			if !ok {
				bad[name] = "must be an RFC 3339 timestamp or a date (YYYY-MM-DD)"
				continue
			}
			*dst = &t
		}
	}
	switch v := c.Query("inventory_status"); v {
	case "", domain.StockInStock, domain.StockLowStock, domain.StockOutOfStock:
		q.InventoryStatus = v
	default:
		bad["inventory_status"] = "must be one of: in_stock, low_stock, out_of_stock"
	}
	if v := c.Query("is_featured"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			bad["is_featured"] = "must be true or false"
		} else {
			q.IsFeatured = &b
		}
	}
	if len(bad) > 0 {
		return q, apperr.Validation(bad)
	}
	return q, nil
}

// parseTime reads an RFC 3339 timestamp or a plain date (midnight UTC).
func parseTime(v string) (time.Time, bool) {
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t.UTC(), true
	}
	if t, err := time.Parse(time.DateOnly, v); err == nil {
		return t.UTC(), true
	}
	return time.Time{}, false
}

// getProduct answers GET /api/v1/products/{id_or_slug}?include=variants,images,collections.
func (h *Handler) getProduct(c *gin.Context) {
	var inc app.Include
	if v := c.Query("include"); v != "" {
		for _, name := range trimLower(v) {
			switch name {
			case "variants":
				inc.Variants = true
			case "images":
				inc.Images = true
			case "collections":
				inc.Collections = true
			default:
				httpx.Error(c, apperr.Validation(map[string]string{"include": "must be a comma list of: variants, images, collections"}))
				return
			}
		}
	}
	p, err := h.svc.GetProductResource(c.Request.Context(), app.GetProductQuery{
		IDOrSlug: c.Param("id"), Include: inc, ActiveOnly: productsActiveOnly(c),
	})
	if err != nil {
		httpx.Error(c, err)
		return
	}
	writeProductData(c, http.StatusOK, &p)
}

// createProduct answers POST /api/v1/products: 201 {data: product} with its variants.
func (h *Handler) createProduct(c *gin.Context, in domain.ProductInput) (api.ProductResource, error) {
	return h.svc.CreateProduct(c.Request.Context(), in)
}

// replaceProduct answers PUT /api/v1/products/{id} (every writable field required).
func (h *Handler) replaceProduct(c *gin.Context, in domain.ProductInput) (api.ProductResource, error) {
	return h.svc.ReplaceProduct(c.Request.Context(), c.Param("id"), in)
}

// updateProduct answers PATCH /api/v1/products/{id} (any subset of fields).
func (h *Handler) updateProduct(c *gin.Context, in domain.ProductInput) (api.ProductResource, error) {
	return h.svc.UpdateProduct(c.Request.Context(), c.Param("id"), in)
}

// deleteProduct answers DELETE /api/v1/products/{id}?force=: 204 when deleted; a
// product with orders is 409 PRODUCT_HAS_ORDERS unless force=true, which deletes it.
func (h *Handler) deleteProduct(c *gin.Context) error {
	force := false
	if v := c.Query("force"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return apperr.Validation(map[string]string{"force": "must be true or false"})
		}
		force = b
	}
	return h.svc.DeleteProduct(c.Request.Context(), c.Param("id"), force)
}
