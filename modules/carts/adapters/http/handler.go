// Package http is the carts module's HTTP face (gin handlers, JSON DTOs, routes).
package http

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/modules/carts/api"
	"github.com/gocommerce/commerce/modules/carts/app"
	"github.com/gocommerce/commerce/modules/carts/domain"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/httpx"
)

// Handler serves the cart endpoints.
type Handler struct {
	app *app.Service
}

// NewHandler builds the handler.
func NewHandler(s *app.Service) *Handler { return &Handler{app: s} }

// HeaderSessionToken carries a guest cart's session token.
const HeaderSessionToken = "X-Session-Token"

// RegisterRoutes mounts the cart routes on /api/v1 ({cart_id} is :id, {item_id}
// :item_id).
func (h *Handler) RegisterRoutes(r *httpx.Routes) {
	opt := httpx.Optional()
	read, write := httpx.RequireOrHeader(app.ScopeRead, HeaderSessionToken), httpx.RequireOrHeader(app.ScopeWrite, HeaderSessionToken)
	g := r.API.Group("/carts")
	ok, created := http.StatusOK, http.StatusCreated
	g.POST("/guest", opt, httpx.HandleJSON(created, h.createGuest))
	g.GET("/me", httpx.Require(app.ScopeRead), httpx.Handle(ok, h.me))
	g.POST("/merge", httpx.Require(app.ScopeWrite), httpx.HandleJSON(ok, h.merge))
	g.GET("/:id", opt, read, httpx.Handle(ok, h.get))
	g.PUT("/:id", opt, write, httpx.HandleJSON(ok, h.update))
	g.DELETE("/:id", opt, write, httpx.HandleNoContent(h.delete))
	g.GET("/:id/totals", opt, read, httpx.Handle(ok, h.totals))
	g.POST("/:id/items", opt, write, httpx.HandleJSON(created, h.addItem))
	g.DELETE("/:id/items", opt, write, httpx.HandleNoContent(h.clearItems))
	g.PUT("/:id/items/:item_id", opt, write, httpx.HandleJSON(ok, h.updateItem))
	g.DELETE("/:id/items/:item_id", opt, write, httpx.HandleNoContent(h.removeItem))
	g.POST("/:id/coupon", opt, write, httpx.HandleJSON(ok, h.applyCoupon))
	g.DELETE("/:id/coupon", opt, write, httpx.Handle(ok, h.removeCoupon))
	// Any quantity out of 1..9999, however large, is INVALID_QUANTITY (dto.go).
	r.KeepNumbers("POST", "/api/v1/carts/:id/items")
	r.KeepNumbers("PUT", "/api/v1/carts/:id/items/:item_id")
}

func caller(c *gin.Context) app.Caller {
	return app.Caller{SessionToken: c.GetHeader(HeaderSessionToken), Principal: httpx.Principal(c)}
}

// resource is a use case's cart as its resource, or the use case's error.
func resource(cart *domain.Cart, err error) (api.CartResource, error) {
	if err != nil {
		return api.CartResource{}, err
	}
	return app.ToResource(cart), nil
}

// itemResource is a use case's line as its resource, or the use case's error.
func itemResource(cart *domain.Cart, item *domain.Item, err error) (api.ItemResource, error) {
	if err != nil {
		return api.ItemResource{}, err
	}
	return app.ToItemResource(item, cart.Currency), nil
}

func (h *Handler) createGuest(c *gin.Context, req createGuestRequest) (guestCartResponse, error) {
	g, err := h.app.CreateGuest(c.Request.Context(), req.Currency)
	if err != nil {
		return guestCartResponse{}, err
	}
	return guestCartResponse{CartResource: app.ToResource(g.Cart), SessionToken: g.SessionToken}, nil
}

func (h *Handler) me(c *gin.Context) (api.CartResource, error) {
	return resource(h.app.Me(c.Request.Context(), httpx.Principal(c), c.Query("currency")))
}

func (h *Handler) get(c *gin.Context) (api.CartResource, error) {
	return resource(h.app.Get(c.Request.Context(), c.Param("id"), caller(c)))
}

func (h *Handler) update(c *gin.Context, req updateCartRequest) (api.CartResource, error) {
	return resource(h.app.UpdateDetails(c.Request.Context(), c.Param("id"), caller(c), app.DetailsChange{
		Email: req.Email, ShippingMethod: req.ShippingMethod, Notes: req.Notes,
	}))
}

func (h *Handler) delete(c *gin.Context) error {
	return h.app.Delete(c.Request.Context(), c.Param("id"), caller(c))
}

func (h *Handler) totals(c *gin.Context) (totalsResponse, error) {
	t, err := h.app.Totals(c.Request.Context(), c.Param("id"), caller(c), c.Query("shipping_address_id"))
	if err != nil {
		return totalsResponse{}, err
	}
	return toTotals(t), nil
}

func (h *Handler) addItem(c *gin.Context, req addItemRequest) (api.ItemResource, error) {
	qty := 1
	if req.Quantity != nil {
		qty = int(*req.Quantity)
	}
	return itemResource(h.app.AddItem(c.Request.Context(), c.Param("id"), caller(c), app.AddItemCommand{
		ProductID: req.ProductID, VariantID: req.VariantID, Quantity: qty, CustomAttributes: req.CustomAttributes,
	}))
}

func (h *Handler) updateItem(c *gin.Context, req updateItemRequest) (api.ItemResource, error) {
	if req.Quantity == nil && req.CustomAttributes == nil {
		return api.ItemResource{}, apperr.Validation(map[string]string{"quantity": "quantity or custom_attributes is required"})
	}
	return itemResource(h.app.UpdateItem(c.Request.Context(), c.Param("id"), c.Param("item_id"), caller(c), domain.ItemChange{
		Quantity: req.Quantity.intPtr(), CustomAttributes: req.CustomAttributes,
	}))
}

func (h *Handler) removeItem(c *gin.Context) error {
	return h.app.RemoveItem(c.Request.Context(), c.Param("id"), c.Param("item_id"), caller(c))
}

func (h *Handler) clearItems(c *gin.Context) error {
	return h.app.ClearItems(c.Request.Context(), c.Param("id"), caller(c))
}

func (h *Handler) applyCoupon(c *gin.Context, req couponRequest) (api.CartResource, error) {
	return resource(h.app.ApplyCoupon(c.Request.Context(), c.Param("id"), caller(c), req.CouponCode))
}

func (h *Handler) removeCoupon(c *gin.Context) (api.CartResource, error) {
	return resource(h.app.RemoveCoupon(c.Request.Context(), c.Param("id"), caller(c), c.Query("coupon_code")))
}

func (h *Handler) merge(c *gin.Context, req mergeRequest) (api.CartResource, error) {
	return resource(h.app.Merge(c.Request.Context(), httpx.Principal(c), req.SessionToken))
}
