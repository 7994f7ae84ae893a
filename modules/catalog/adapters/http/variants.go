package http

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/platform/httpx"
)

// listVariants answers GET /api/v1/products/{id}/variants (default first).
func (h *Handler) listVariants(c *gin.Context) {
	page, err := httpx.ParsePage(c)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	items, total, err := h.svc.ListVariants(c.Request.Context(), c.Param("id"), productsActiveOnly(c), page.Offset(), page.Limit())
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.NewList(items, page, total))
}

// getVariant answers GET /api/v1/products/{id}/variants/{variant_id}.
func (h *Handler) getVariant(c *gin.Context) {
	v, err := h.svc.GetVariantResource(c.Request.Context(), c.Param("id"), c.Param("variant_id"), productsActiveOnly(c))
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.Data(v))
}

// createVariant answers POST /api/v1/products/{id}/variants: 201 {data: variant}.
func (h *Handler) createVariant(c *gin.Context) {
	in, ok := bind(c, variantInput)
	if !ok {
		return
	}
	v, err := h.svc.CreateVariant(c.Request.Context(), c.Param("id"), in)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusCreated, httpx.Data(v))
}

// updateVariant answers PUT (and PATCH) /api/v1/products/{id}/variants/{variant_id}:
// the fields present change.
func (h *Handler) updateVariant(c *gin.Context) {
	in, ok := bind(c, variantInput)
	if !ok {
		return
	}
	v, err := h.svc.UpdateVariant(c.Request.Context(), c.Param("id"), c.Param("variant_id"), in)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.Data(v))
}

// deleteVariant answers DELETE /api/v1/products/{id}/variants/{variant_id}: 204.
func (h *Handler) deleteVariant(c *gin.Context) {
	if err := h.svc.DeleteVariant(c.Request.Context(), c.Param("id"), c.Param("variant_id")); err != nil {
		httpx.Error(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}
