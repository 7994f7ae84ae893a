// Package http is the customers module's HTTP face (gin handlers, JSON DTOs, routes).
package http

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/modules/customers/app"
	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/patch"
)

// Handler serves the customers endpoints.
type Handler struct {
	app *app.Service
}

// NewHandler builds the handler.
func NewHandler(s *app.Service) *Handler { return &Handler{app: s} }

// Scopes (Part 1: customers, GET read; POST, PUT, PATCH, DELETE write).
const (
	scopeRead  = "customers:read"
	scopeWrite = "customers:write"
)

// RegisterRoutes mounts the customers routes on /api/v1. Gin needs one parameter name
// per path segment, so {customer_id} of the spec is :id here.
func (h *Handler) RegisterRoutes(r *httpx.Routes) {
	read, write := httpx.Require(scopeRead), httpx.Require(scopeWrite)
	g := r.API.Group("/customers")
	g.GET("", read, h.list)
	g.POST("", write, h.create)
	g.POST("/search", read, h.search)
	g.POST("/recover", httpx.Optional(), h.recover)
	g.GET("/segments", read, h.listSegments)
	g.POST("/segments", write, h.createSegment)
	g.GET("/segments/:segment_id", read, h.getSegment)
	g.DELETE("/segments/:segment_id", write, h.deleteSegment)
	g.GET("/segments/:segment_id/customers", read, h.segmentCustomers)
	g.GET("/:id", read, h.get)
	g.PUT("/:id", write, h.update)
	g.PATCH("/:id", write, h.update)
	g.DELETE("/:id", write, h.delete)
	g.POST("/:id/send_invite", write, h.sendInvite)
	g.POST("/:id/activate", httpx.Optional(), h.activate)
	g.POST("/:id/reset_password", httpx.Optional(), h.resetPassword)
	g.GET("/:id/addresses", read, h.listAddresses)
	g.POST("/:id/addresses", write, h.createAddress)
	g.GET("/:id/addresses/:address_id", read, h.getAddress)
	g.PUT("/:id/addresses/:address_id", write, h.updateAddress)
	g.PATCH("/:id/addresses/:address_id", write, h.updateAddress)
	g.DELETE("/:id/addresses/:address_id", write, h.deleteAddress)
	g.POST("/:id/addresses/:address_id/default", write, h.setDefaultAddress)
	g.GET("/:id/orders", read, h.orders)
	g.POST("/:id/export", write, h.export)
	g.POST("/:id/anonymize", write, h.anonymize)
}

func actor(c *gin.Context) app.Actor { return app.ActorFrom(httpx.Principal(c)) }

func page(p httpx.Page) app.Page { return app.Page{Offset: p.Offset(), Limit: p.Limit()} }

func (h *Handler) list(c *gin.Context) {
	p, err := httpx.ParsePage(c)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	q, err := parseListQuery(c)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	q.Page = page(p)
	items, total, err := h.app.List(c.Request.Context(), actor(c), q)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.NewList(toSummaries(items), p, total))
}

func (h *Handler) search(c *gin.Context) {
	var req searchRequest
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return
	}
	p, err := httpx.ParsePage(c)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	q, p, err := parseSearch(req, p)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	items, total, err := h.app.Search(c.Request.Context(), actor(c), q)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.NewList(toSummaries(items), p, total))
}

func (h *Handler) get(c *gin.Context) {
	inc, err := parseInclude(c.Query("include"))
	if err != nil {
		httpx.Error(c, err)
		return
	}
	d, err := h.app.Get(c.Request.Context(), actor(c), c.Param("id"), inc.orders)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.Data(toCustomerResponse(d.Customer, inc, d.Orders)))
}

func (h *Handler) create(c *gin.Context) {
	var req createCustomerRequest
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return
	}
	if req.Email == nil {
		httpx.Error(c, apperr.Validation(map[string]string{"email": "is required"}))
		return
	}
	out, err := h.app.Create(c.Request.Context(), actor(c), req.command())
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusCreated, httpx.Data(toCustomerResponse(out, includeAll, nil)))
}

func (h *Handler) update(c *gin.Context) {
	b, err := patch.Read(c.Request, patch.IgnoreNulls())
	var cmd app.UpdateCommand
	if err == nil {
		cmd = updateCommand(b)
		err = b.Err()
	}
	if err != nil {
		httpx.Error(c, err)
		return
	}
	out, err := h.app.Update(c.Request.Context(), actor(c), c.Param("id"), cmd)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.Data(toCustomerResponse(out, includeAll, nil)))
}

func (h *Handler) delete(c *gin.Context) {
	anonymize, err := parseBool(c, "anonymize_orders")
	if err != nil {
		httpx.Error(c, err)
		return
	}
	if err := h.app.Delete(c.Request.Context(), actor(c), c.Param("id"), anonymize != nil && *anonymize); err != nil {
		httpx.Error(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

func (h *Handler) sendInvite(c *gin.Context) {
	out, err := h.app.SendInvite(c.Request.Context(), actor(c), c.Param("id"))
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.Data(toCustomerResponse(out, includeAll, nil)))
}

func (h *Handler) activate(c *gin.Context) {
	var req activateRequest
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return
	}
	out, err := h.app.Activate(c.Request.Context(), c.Param("id"), app.ActivateCommand{
		Token: req.ActivationToken, Password: req.Password, PasswordConfirmation: req.PasswordConfirmation,
	})
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.Data(toCustomerResponse(out, include{}, nil)))
}

func (h *Handler) resetPassword(c *gin.Context) {
	var req resetPasswordRequest
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return
	}
	out, err := h.app.ResetPassword(c.Request.Context(), c.Param("id"), app.ActivateCommand{
		Token: req.ResetToken, Password: req.Password, PasswordConfirmation: req.PasswordConfirmation,
	})
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.Data(toCustomerResponse(out, include{}, nil)))
}

func (h *Handler) recover(c *gin.Context) {
	var req recoverRequest
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return
	}
	if err := h.app.RequestPasswordReset(c.Request.Context(), req.Email); err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusAccepted, httpx.Data(gin.H{
		"message": "If an account with this email exists, a password reset email has been sent",
	}))
}

func (h *Handler) listAddresses(c *gin.Context) {
	p, err := httpx.ParsePage(c)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	items, total, err := h.app.ListAddresses(c.Request.Context(), actor(c), c.Param("id"), page(p))
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.NewList(toAddressResponses(items), p, total))
}

func (h *Handler) getAddress(c *gin.Context) {
	out, err := h.app.GetAddress(c.Request.Context(), actor(c), c.Param("id"), c.Param("address_id"))
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.Data(toAddressResponse(out)))
}

func (h *Handler) createAddress(c *gin.Context) {
	var req addressRequest
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return
	}
	out, err := h.app.CreateAddress(c.Request.Context(), actor(c), c.Param("id"), req.input())
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusCreated, httpx.Data(toAddressResponse(out)))
}

func (h *Handler) updateAddress(c *gin.Context) {
	var req addressRequest
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return
	}
	out, err := h.app.UpdateAddress(c.Request.Context(), actor(c), c.Param("id"), c.Param("address_id"), req.input())
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.Data(toAddressResponse(out)))
}

func (h *Handler) deleteAddress(c *gin.Context) {
	if err := h.app.DeleteAddress(c.Request.Context(), actor(c), c.Param("id"), c.Param("address_id")); err != nil {
		httpx.Error(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

func (h *Handler) setDefaultAddress(c *gin.Context) {
	var req defaultAddressRequest
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return
	}
	if req.Type == "" {
		req.Type = c.Query("type")
	}
	kind := domain.DefaultShipping
	switch req.Type {
	case "", "shipping":
	case "billing":
		kind = domain.DefaultBilling
	default:
		httpx.Error(c, apperr.Validation(map[string]string{"type": "must be one of: shipping, billing"}))
		return
	}
	out, err := h.app.SetDefaultAddress(c.Request.Context(), actor(c), c.Param("id"), c.Param("address_id"), kind)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.Data(toAddressResponse(out)))
}

func (h *Handler) orders(c *gin.Context) {
	p, err := httpx.ParsePage(c)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	f, err := parseOrderFilter(c)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	items, total, err := h.app.ListOrders(c.Request.Context(), actor(c), c.Param("id"), f, page(p))
	if err != nil {
		httpx.Error(c, err)
		return
	}
	out := make([]orderSummaryResponse, len(items))
	for i, o := range items {
		out[i] = toOrderSummary(o)
	}
	c.JSON(http.StatusOK, httpx.NewList(out, p, total))
}

func (h *Handler) export(c *gin.Context) {
	out, err := h.app.Export(c.Request.Context(), actor(c), c.Param("id"))
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.Data(toExportResponse(out)))
}

func (h *Handler) anonymize(c *gin.Context) {
	out, err := h.app.Anonymize(c.Request.Context(), actor(c), c.Param("id"))
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.Data(toCustomerResponse(out, includeAll, nil)))
}

func (h *Handler) listSegments(c *gin.Context) {
	p, err := httpx.ParsePage(c)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	items, total, err := h.app.ListSegments(c.Request.Context(), actor(c), page(p))
	if err != nil {
		httpx.Error(c, err)
		return
	}
	out := make([]segmentResponse, len(items))
	for i, s := range items {
		out[i] = toSegmentResponse(s)
	}
	c.JSON(http.StatusOK, httpx.NewList(out, p, total))
}

func (h *Handler) createSegment(c *gin.Context) {
	var req segmentRequest
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return
	}
	out, err := h.app.CreateSegment(c.Request.Context(), actor(c), req.Name, req.Query)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusCreated, httpx.Data(toSegmentResponse(out)))
}

func (h *Handler) getSegment(c *gin.Context) {
	out, err := h.app.GetSegment(c.Request.Context(), actor(c), c.Param("segment_id"))
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.Data(toSegmentResponse(out)))
}

func (h *Handler) deleteSegment(c *gin.Context) {
	if err := h.app.DeleteSegment(c.Request.Context(), actor(c), c.Param("segment_id")); err != nil {
		httpx.Error(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

func (h *Handler) segmentCustomers(c *gin.Context) {
	p, err := httpx.ParsePage(c)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	sort, desc, err := parseSort(c.Query("sort"), c.Query("order"), map[string]string{})
	if err != nil {
		httpx.Error(c, err)
		return
	}
	items, total, err := h.app.SegmentCustomers(c.Request.Context(), actor(c), c.Param("segment_id"),
		app.ListQuery{Sort: sort, Desc: desc, Page: page(p)})
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.NewList(toSummaries(items), p, total))
}
