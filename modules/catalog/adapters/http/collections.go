package http

import (
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/modules/catalog/api"
	"github.com/gocommerce/commerce/modules/catalog/app"
	"github.com/gocommerce/commerce/modules/catalog/domain"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/patch"
)

// listCollections answers GET /api/v1/collections (filters is_active, collection_type;
// sort title|created_at|updated_at, order asc|desc, default created_at desc).
func (h *Handler) listCollections(c *gin.Context, page httpx.Page) ([]api.CollectionResource, int64, error) {
	q := app.ListCollectionsQuery{ActiveOnly: collectionsActiveOnly(c)}
	q.Offset, q.Limit, q.Desc = page.Offset(), page.Limit(), true
	bad := map[string]string{}
	if v := c.Query("is_active"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			bad["is_active"] = "must be true or false"
		}
		q.IsActive = &b
	}
	switch v := c.Query("collection_type"); v {
	case "", domain.CollectionManual, domain.CollectionSmart:
		q.CollectionType = v
	default:
		bad["collection_type"] = "must be one of: manual, smart"
	}
	switch v := c.Query("sort"); v {
	case "", "title", "created_at", "updated_at":
		q.Sort = v
	default:
		bad["sort"] = "must be one of: title, created_at, updated_at"
	}
	switch c.Query("order") {
	case "", "desc":
	case "asc":
		q.Desc = false
	default:
		bad["order"] = "must be one of: asc, desc"
	}
	if len(bad) > 0 {
		return nil, 0, apperr.Validation(bad)
	}
	return h.svc.ListCollections(c.Request.Context(), q)
}

// getCollection answers GET /api/v1/collections/{id_or_slug}.
func (h *Handler) getCollection(c *gin.Context) (api.CollectionResource, error) {
	return h.svc.GetCollection(c.Request.Context(), c.Param("id"), collectionsActiveOnly(c))
}

// createCollection answers POST /api/v1/collections: 201 {data: collection}.
func (h *Handler) createCollection(c *gin.Context, in domain.CollectionInput) (api.CollectionResource, error) {
	return h.svc.CreateCollection(c.Request.Context(), in)
}

// updateCollection answers PATCH /api/v1/collections/{id}.
func (h *Handler) updateCollection(c *gin.Context, in domain.CollectionInput) (api.CollectionResource, error) {
	return h.svc.UpdateCollection(c.Request.Context(), c.Param("id"), in)
}

// deleteCollection answers DELETE /api/v1/collections/{id}: 204.
func (h *Handler) deleteCollection(c *gin.Context) error {
	return h.svc.DeleteCollection(c.Request.Context(), c.Param("id"))
}

// member is the body of POST /api/v1/collections/{id}/products.
type member struct {
	productID patch.Field[string]
	position  patch.Field[int]
}

func memberInput(b *patch.Body) member {
	m := member{productID: b.String("product_id"), position: b.Int("position")}
	if !m.productID.HasValue() {
		b.Fail("product_id", "is required")
	}
	if m.position.Set && (m.position.Null || m.position.Value < 1) {
		b.Fail("position", "must be an integer of at least 1")
	}
	return m
}

// addCollectionProduct answers POST /api/v1/collections/{id}/products {product_id,
// position}: 201 {data: {collection_id, product_id, position, created_at}}.
func (h *Handler) addCollectionProduct(c *gin.Context, in member) (api.CollectionProduct, error) {
	return h.svc.AddProductToCollection(c.Request.Context(), c.Param("id"), in.productID.Value, in.position.Value)
}

// removeCollectionProduct answers DELETE /api/v1/collections/{id}/products/{product_id}: 204.
func (h *Handler) removeCollectionProduct(c *gin.Context) error {
	return h.svc.RemoveProductFromCollection(c.Request.Context(), c.Param("id"), c.Param("product_id"))
}
