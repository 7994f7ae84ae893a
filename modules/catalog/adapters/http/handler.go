// Package http is the catalog's HTTP face: products, variants, images (multipart
// upload), collections, and the public file route of the local image storage.
package http

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/modules/catalog/app"
	"github.com/gocommerce/commerce/modules/catalog/domain"
	"github.com/gocommerce/commerce/platform/httpx"
)

// multipartOverhead is room for the multipart envelope and the small form fields
// around an image of the maximum size.
const multipartOverhead = 64 << 10

// Settings configures the handler.
type Settings struct {
	// MaxImageBytes is uploads.max_size_bytes.
	MaxImageBytes int64
	// UploadsPath is the URL path the local image storage is served under (e.g.
	// "/uploads"); empty when files are served elsewhere (S3, a CDN).
	UploadsPath string
	// UploadsDir is the local storage directory served under UploadsPath.
	UploadsDir string
}

// Handler serves the catalog endpoints.
type Handler struct {
	svc      *app.Service
	settings Settings
}

// NewHandler builds the handler.
func NewHandler(svc *app.Service, settings Settings) *Handler {
	return &Handler{svc: svc, settings: settings}
}

// RegisterRoutes mounts the catalog routes. Product routes need products:read (GET) or
// products:write; collection routes collections:read or collections:write. Every
// product route uses the parameter name :id so that the inventory module's
// /products/:id/inventory/* routes fit the same tree.
func (h *Handler) RegisterRoutes(r *httpx.Routes) {
	read, write := httpx.Require("products:read"), httpx.Require("products:write")
	ok, created := http.StatusOK, http.StatusCreated
	p := r.API.Group("/products")
	p.GET("", read, h.listProducts)
	p.POST("", write, writeBody(created, productInput, h.createProduct))
	p.GET("/:id", read, h.getProduct)
	p.PUT("/:id", write, writeBody(ok, productInput, h.replaceProduct))
	p.PATCH("/:id", write, writeBody(ok, productInput, h.updateProduct))
	p.DELETE("/:id", write, httpx.HandleNoContent(h.deleteProduct))

	p.GET("/:id/variants", read, httpx.HandleList(h.listVariants))
	p.POST("/:id/variants", write, writeBody(created, variantInput, h.createVariant))
	p.GET("/:id/variants/:variant_id", read, httpx.Handle(ok, h.getVariant))
	p.Match(httpx.Update, "/:id/variants/:variant_id", write, writeBody(ok, variantInput, h.updateVariant))
	p.DELETE("/:id/variants/:variant_id", write, httpx.HandleNoContent(h.deleteVariant))

	p.GET("/:id/images", read, httpx.HandleList(h.listImages))
	p.POST("/:id/images", write, h.uploadImage)
	r.AllowBody("POST", "/api/v1/products/:id/images", "multipart/form-data",
		httpx.BodyRule{Limit: h.settings.MaxImageBytes + multipartOverhead, TooLarge: domain.ErrImageTooLarge})
	p.PUT("/:id/images/:image_id", write, writeBody(ok, imageInput, h.updateImage))
	p.DELETE("/:id/images/:image_id", write, httpx.HandleNoContent(h.deleteImage))

	cread, cwrite := httpx.Require("collections:read"), httpx.Require("collections:write")
	c := r.API.Group("/collections")
	c.GET("", cread, httpx.HandleList(h.listCollections))
	c.POST("", cwrite, writeBody(created, collectionInput, h.createCollection))
	c.GET("/:id", cread, httpx.Handle(ok, h.getCollection))
	c.PATCH("/:id", cwrite, writeBody(ok, collectionInput, h.updateCollection))
	c.DELETE("/:id", cwrite, httpx.HandleNoContent(h.deleteCollection))
	c.POST("/:id/products", cwrite, writeBody(created, memberInput, h.addCollectionProduct))
	c.DELETE("/:id/products/:product_id", cwrite, httpx.HandleNoContent(h.removeCollectionProduct))

	if h.settings.UploadsPath != "" && h.settings.UploadsDir != "" {
		r.Root.GET(h.settings.UploadsPath+"/*filepath", h.serveUpload)
	}
}

// productsActiveOnly: readers without products:write see active products only.
func productsActiveOnly(c *gin.Context) bool { return !httpx.Principal(c).Can("products:write") }

// collectionsActiveOnly: readers without collections:write see active collections only.
func collectionsActiveOnly(c *gin.Context) bool { return !httpx.Principal(c).Can("collections:write") }
