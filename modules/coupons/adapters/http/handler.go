// Package http is the coupons module's HTTP face (gin handlers, JSON DTOs, routes).
package http

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/modules/coupons/app"
	"github.com/gocommerce/commerce/modules/coupons/domain"
	"github.com/gocommerce/commerce/modules/coupons/ports"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/patch"
)

// Handler serves the coupon endpoints.
type Handler struct {
	app       *app.Service
	validator *app.Validator
}

// NewHandler builds the handler.
func NewHandler(s *app.Service, v *app.Validator) *Handler { return &Handler{app: s, validator: v} }

// Scopes (docs/decisions/0066): list, get and validate are optional-auth; create,
// update, delete and the usage report need the spec's "admin": coupons:admin, which the
// admin wildcard satisfies. Holders of coupons:write see every field (manager).
const (
	scopeWrite = "coupons:write"
	scopeAdmin = "coupons:admin"
)

// HeaderSessionToken carries a guest cart's session token.
const HeaderSessionToken = "X-Session-Token"

// RegisterRoutes mounts the coupon routes on /api/v1 (gin needs one parameter name
// per segment, so {code_or_id} and {id} are both :id).
func (h *Handler) RegisterRoutes(r *httpx.Routes) {
	admin, ok := httpx.Require(scopeAdmin), http.StatusOK
	g := r.API.Group("/coupons")
	g.GET("", httpx.Optional(), h.list)
	g.POST("", admin, h.write(http.StatusCreated, h.create))
	g.POST("/validate", httpx.Optional(), httpx.HandleJSONBare(ok, h.validate))
	g.GET("/:id", httpx.Optional(), httpx.Handle(ok, h.get))
	g.PUT("/:id", admin, h.write(ok, h.update))
	g.DELETE("/:id", admin, httpx.HandleNoContent(h.delete))
	g.GET("/:id/usage", admin, httpx.Handle(ok, h.usage))
}

// manager reports a caller who manages coupons (sees every coupon and every field).
func manager(c *gin.Context) bool { return httpx.Principal(c).Can(scopeWrite) }

func (h *Handler) list(c *gin.Context) {
	p, err := httpx.ParsePage(c)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	q := app.ListQuery{Full: manager(c), Offset: p.Offset(), Limit: p.Limit()}
	if v := c.Query("active"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			httpx.Error(c, apperr.Validation(map[string]string{"active": "must be true or false"}))
			return
		}
		q.Active = &b
	}
	items, total, err := h.app.List(c.Request.Context(), q)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	out := make([]any, len(items))
	for i, it := range items {
		out[i] = toResponse(it, q.Full)
	}
	c.JSON(http.StatusOK, httpx.NewFlatList(out, p, total))
}

func (h *Handler) get(c *gin.Context) (any, error) {
	full := manager(c)
	cp, err := h.app.Get(c.Request.Context(), c.Param("id"), full)
	if err != nil {
		return nil, err
	}
	return toResponse(cp, full), nil
}

// write serves a coupon write: the body read with platform/patch, then the admin view
// of fn's coupon.
func (h *Handler) write(status int, fn func(c *gin.Context, p domain.Patch) (*domain.Coupon, error)) gin.HandlerFunc {
	return httpx.Handle(status, func(c *gin.Context) (any, error) {
		b, err := patch.Read(c.Request)
		if err != nil {
			return nil, err
		}
		p := parsePatch(b)
		if err := b.Err(); err != nil {
			return nil, err
		}
		cp, err := fn(c, p)
		if err != nil {
			return nil, err
		}
		return toResponse(cp, true), nil
	})
}

func (h *Handler) create(c *gin.Context, p domain.Patch) (*domain.Coupon, error) {
	return h.app.Create(c.Request.Context(), p)
}

func (h *Handler) update(c *gin.Context, p domain.Patch) (*domain.Coupon, error) {
	return h.app.Update(c.Request.Context(), c.Param("id"), p)
}

func (h *Handler) delete(c *gin.Context) error {
	return h.app.Delete(c.Request.Context(), c.Param("id"))
}

func (h *Handler) usage(c *gin.Context) (usageResponse, error) {
	st, err := h.app.Usage(c.Request.Context(), c.Param("id"))
	if err != nil {
		return usageResponse{}, err
	}
	return toUsage(st), nil
}

func (h *Handler) validate(c *gin.Context, req validateRequest) (any, error) {
	v, err := h.validator.Validate(c.Request.Context(), app.ValidateQuery{
		Code: strings.TrimSpace(req.CouponCode),
		Access: ports.CartAccess{
			CartID: strings.TrimSpace(req.CartID), SessionToken: c.GetHeader(HeaderSessionToken), Principal: httpx.Principal(c),
		},
	})
	if err != nil {
		return nil, err
	}
	return toValidation(v), nil
}
