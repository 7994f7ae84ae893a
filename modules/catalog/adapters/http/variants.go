package http

import (
	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/modules/catalog/api"
	"github.com/gocommerce/commerce/modules/catalog/domain"
	"github.com/gocommerce/commerce/platform/httpx"
)

// listVariants answers GET /api/v1/products/{id}/variants (default first).
func (h *Handler) listVariants(c *gin.Context, page httpx.Page) ([]api.VariantResource, int64, error) {
	return h.svc.ListVariants(c.Request.Context(), c.Param("id"), productsActiveOnly(c), page.Offset(), page.Limit())
}

// getVariant answers GET /api/v1/products/{id}/variants/{variant_id}.
func (h *Handler) getVariant(c *gin.Context) (api.VariantResource, error) {
	return h.svc.GetVariantResource(c.Request.Context(), c.Param("id"), c.Param("variant_id"), productsActiveOnly(c))
}

// createVariant answers POST /api/v1/products/{id}/variants: 201 {data: variant}.
func (h *Handler) createVariant(c *gin.Context, in domain.VariantInput) (api.VariantResource, error) {
	return h.svc.CreateVariant(c.Request.Context(), c.Param("id"), in)
}

// updateVariant answers PUT (and PATCH) /api/v1/products/{id}/variants/{variant_id}:
// the fields present change.
func (h *Handler) updateVariant(c *gin.Context, in domain.VariantInput) (api.VariantResource, error) {
	return h.svc.UpdateVariant(c.Request.Context(), c.Param("id"), c.Param("variant_id"), in)
}

// deleteVariant answers DELETE /api/v1/products/{id}/variants/{variant_id}: 204.
func (h *Handler) deleteVariant(c *gin.Context) error {
	return h.svc.DeleteVariant(c.Request.Context(), c.Param("id"), c.Param("variant_id"))
}
