// Package http is the carts module's HTTP face (gin handlers, JSON DTOs, routes).
package http

import (
	"net/http"

	"github.com/gin-gonic/gin"

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

// cartAuth admits a request to a cart endpoint (docs/decisions/0060): an
// authenticated principal must hold the scope (403 otherwise); an anonymous request
// must carry X-Session-Token (401 otherwise). Which cart the credentials open is the
// use case's business (CART_NOT_FOUND for any other).
func cartAuth(scope string) gin.HandlerFunc {
	return func(c *gin.Context) {
		if p := httpx.Principal(c); p != nil {
			if !p.Can(scope) {
				httpx.Error(c, apperr.New(apperr.Forbidden, "", httpx.MsgForbidden+scope))
				return
			}
		} else if c.GetHeader(HeaderSessionToken) == "" {
			httpx.Error(c, apperr.Unauthorized(httpx.MsgMissingAuth))
			return
		}
		c.Next()
	}
}

// RegisterRoutes mounts the cart routes on /api/v1 ({cart_id} is :id, {item_id}
// :item_id).
func (h *Handler) RegisterRoutes(r *httpx.Routes) {
	opt := httpx.Optional()
	read, write := cartAuth(app.ScopeRead), cartAuth(app.ScopeWrite)
	g := r.API.Group("/carts")
	g.POST("/guest", opt, h.createGuest)
	g.GET("/me", httpx.Require(app.ScopeRead), h.me)
	g.POST("/merge", httpx.Require(app.ScopeWrite), h.merge)
	g.GET("/:id", opt, read, h.get)
	g.PUT("/:id", opt, write, h.update)
	g.DELETE("/:id", opt, write, h.delete)
	g.GET("/:id/totals", opt, read, h.totals)
	g.POST("/:id/items", opt, write, h.addItem)
	g.DELETE("/:id/items", opt, write, h.clearItems)
	g.PUT("/:id/items/:item_id", opt, write, h.updateItem)
	g.DELETE("/:id/items/:item_id", opt, write, h.removeItem)
	g.POST("/:id/coupon", opt, write, h.applyCoupon)
	g.DELETE("/:id/coupon", opt, write, h.removeCoupon)
	// Any quantity out of 1..9999, however large, is INVALID_QUANTITY (dto.go).
	r.KeepNumbers("POST", "/api/v1/carts/:id/items")
	r.KeepNumbers("PUT", "/api/v1/carts/:id/items/:item_id")
}

func caller(c *gin.Context) app.Caller {
	return app.Caller{SessionToken: c.GetHeader(HeaderSessionToken), Principal: httpx.Principal(c)}
}

func (h *Handler) cart(c *gin.Context, status int, cart *domain.Cart) {
	c.JSON(status, httpx.Data(app.ToResource(cart)))
}

func (h *Handler) createGuest(c *gin.Context) {
	var req createGuestRequest
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return
	}
	g, err := h.app.CreateGuest(c.Request.Context(), req.Currency)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusCreated, httpx.Data(guestCartResponse{CartResource: app.ToResource(g.Cart), SessionToken: g.SessionToken}))
}

func (h *Handler) me(c *gin.Context) {
	cart, err := h.app.Me(c.Request.Context(), httpx.Principal(c), c.Query("currency"))
	if err != nil {
		httpx.Error(c, err)
		return
	}
	h.cart(c, http.StatusOK, cart)
}

func (h *Handler) get(c *gin.Context) {
	cart, err := h.app.Get(c.Request.Context(), c.Param("id"), caller(c))
	if err != nil {
		httpx.Error(c, err)
		return
	}
	h.cart(c, http.StatusOK, cart)
}

func (h *Handler) update(c *gin.Context) {
	var req updateCartRequest
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return
	}
	cart, err := h.app.UpdateDetails(c.Request.Context(), c.Param("id"), caller(c), app.DetailsChange{
		Email: req.Email, ShippingMethod: req.ShippingMethod, Notes: req.Notes,
	})
	if err != nil {
		httpx.Error(c, err)
		return
	}
	h.cart(c, http.StatusOK, cart)
}

func (h *Handler) delete(c *gin.Context) {
	if err := h.app.Delete(c.Request.Context(), c.Param("id"), caller(c)); err != nil {
		httpx.Error(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

func (h *Handler) totals(c *gin.Context) {
	t, err := h.app.Totals(c.Request.Context(), c.Param("id"), caller(c), c.Query("shipping_address_id"))
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.Data(toTotals(t)))
}

func (h *Handler) addItem(c *gin.Context) {
	var req addItemRequest
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return
	}
	qty := 1
	if req.Quantity != nil {
		qty = int(*req.Quantity)
	}
	cart, item, err := h.app.AddItem(c.Request.Context(), c.Param("id"), caller(c), app.AddItemCommand{
		ProductID: req.ProductID, VariantID: req.VariantID, Quantity: qty, CustomAttributes: req.CustomAttributes,
	})
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusCreated, httpx.Data(app.ToItemResource(item, cart.Currency)))
}

func (h *Handler) updateItem(c *gin.Context) {
	var req updateItemRequest
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return
	}
	if req.Quantity == nil && req.CustomAttributes == nil {
		httpx.Error(c, apperr.Validation(map[string]string{"quantity": "quantity or custom_attributes is required"}))
		return
	}
	cart, item, err := h.app.UpdateItem(c.Request.Context(), c.Param("id"), c.Param("item_id"), caller(c), domain.ItemChange{
		Quantity: req.Quantity.intPtr(), CustomAttributes: req.CustomAttributes,
	})
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.Data(app.ToItemResource(item, cart.Currency)))
}

func (h *Handler) removeItem(c *gin.Context) {
	if err := h.app.RemoveItem(c.Request.Context(), c.Param("id"), c.Param("item_id"), caller(c)); err != nil {
		httpx.Error(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

func (h *Handler) clearItems(c *gin.Context) {
	if err := h.app.ClearItems(c.Request.Context(), c.Param("id"), caller(c)); err != nil {
		httpx.Error(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

func (h *Handler) applyCoupon(c *gin.Context) {
	var req couponRequest
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return
	}
	cart, err := h.app.ApplyCoupon(c.Request.Context(), c.Param("id"), caller(c), req.CouponCode)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	h.cart(c, http.StatusOK, cart)
}

func (h *Handler) removeCoupon(c *gin.Context) {
	cart, err := h.app.RemoveCoupon(c.Request.Context(), c.Param("id"), caller(c), c.Query("coupon_code"))
	if err != nil {
		httpx.Error(c, err)
		return
	}
	h.cart(c, http.StatusOK, cart)
}

func (h *Handler) merge(c *gin.Context) {
	var req mergeRequest
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return
	}
	cart, err := h.app.Merge(c.Request.Context(), httpx.Principal(c), req.SessionToken)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	h.cart(c, http.StatusOK, cart)
}
