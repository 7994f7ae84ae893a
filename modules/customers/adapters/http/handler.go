// Package http is the customers module's HTTP face (gin handlers, JSON DTOs, routes).
package http

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/modules/customers/api"
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
	ok, created, optional := http.StatusOK, http.StatusCreated, httpx.Optional()
	g := r.API.Group("/customers")
	g.GET("", read, httpx.HandleList(h.list))
	g.POST("", write, httpx.HandleInput[createCustomerRequest](created, h.create))
	g.POST("/search", read, h.search)
	g.POST("/recover", optional, httpx.HandleJSON(http.StatusAccepted, h.recover))
	g.GET("/segments", read, httpx.HandleList(h.listSegments))
	g.POST("/segments", write, httpx.HandleJSON(created, h.createSegment))
	g.GET("/segments/:segment_id", read, httpx.Handle(ok, h.getSegment))
	g.DELETE("/segments/:segment_id", write, httpx.HandleNoContent(h.deleteSegment))
	g.GET("/segments/:segment_id/customers", read, httpx.HandleList(h.segmentCustomers))
	g.GET("/:id", read, httpx.Handle(ok, h.get))
	g.Match(httpx.Update, "/:id", write, httpx.Handle(ok, h.update))
	g.DELETE("/:id", write, httpx.HandleNoContent(h.delete))
	g.POST("/:id/send_invite", write, httpx.Handle(ok, h.sendInvite))
	g.POST("/:id/activate", optional, httpx.HandleJSON(ok, h.activate))
	g.POST("/:id/reset_password", optional, httpx.HandleJSON(ok, h.resetPassword))
	g.GET("/:id/addresses", read, httpx.HandleList(h.listAddresses))
	g.POST("/:id/addresses", write, httpx.HandleJSON(created, h.createAddress))
	g.GET("/:id/addresses/:address_id", read, httpx.Handle(ok, h.getAddress))
	g.Match(httpx.Update, "/:id/addresses/:address_id", write, httpx.HandleJSON(ok, h.updateAddress))
	g.DELETE("/:id/addresses/:address_id", write, httpx.HandleNoContent(h.deleteAddress))
	g.POST("/:id/addresses/:address_id/default", write, httpx.HandleJSON(ok, h.setDefaultAddress))
	g.GET("/:id/orders", read, httpx.HandleList(h.orders))
	g.POST("/:id/export", write, httpx.Handle(ok, h.export))
	g.POST("/:id/anonymize", write, httpx.Handle(ok, h.anonymize))
}

func actor(c *gin.Context) app.Actor { return app.ActorFrom(httpx.Principal(c)) }

func page(p httpx.Page) app.Page { return app.Page{Offset: p.Offset(), Limit: p.Limit()} }

// full is a write's answer: the customer with its addresses and metafields.
func full(c api.Customer, err error) (customerResponse, error) {
	return toCustomerResponse(c, includeAll, nil), err
}

// summaries is a list's answer.
func summaries(list []api.Customer, total int64, err error) ([]customerSummary, int64, error) {
	return httpx.Map(list, toSummary), total, err
}

func (h *Handler) list(c *gin.Context, p httpx.Page) ([]customerSummary, int64, error) {
	q, err := parseListQuery(c)
	if err != nil {
		return nil, 0, err
	}
	q.Page = page(p)
	return summaries(h.app.List(c.Request.Context(), actor(c), q))
}

func (h *Handler) search(c *gin.Context) {
	req, ok := httpx.Bind[searchRequest](c)
	if !ok {
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
	items, total, err := summaries(h.app.Search(c.Request.Context(), actor(c), q))
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.NewList(items, p, total))
}

func (h *Handler) get(c *gin.Context) (customerResponse, error) {
	inc, err := parseInclude(c.Query("include"))
	if err != nil {
		return customerResponse{}, err
	}
	d, err := h.app.Get(c.Request.Context(), actor(c), c.Param("id"), inc.orders)
	return toCustomerResponse(d.Customer, inc, d.Orders), err
}

func (h *Handler) create(c *gin.Context, cmd app.CreateCommand) (customerResponse, error) {
	return full(h.app.Create(c.Request.Context(), actor(c), cmd))
}

func (h *Handler) update(c *gin.Context) (customerResponse, error) {
	b, err := patch.Read(c.Request, patch.IgnoreNulls())
	if err != nil {
		return customerResponse{}, err
	}
	cmd := updateCommand(b)
	if err := b.Err(); err != nil {
		return customerResponse{}, err
	}
	return full(h.app.Update(c.Request.Context(), actor(c), c.Param("id"), cmd))
}

func (h *Handler) delete(c *gin.Context) error {
	anonymize, err := parseBool(c, "anonymize_orders")
	if err != nil {
		return err
	}
	return h.app.Delete(c.Request.Context(), actor(c), c.Param("id"), anonymize != nil && *anonymize)
}

func (h *Handler) sendInvite(c *gin.Context) (customerResponse, error) {
	return full(h.app.SendInvite(c.Request.Context(), actor(c), c.Param("id")))
}

func (h *Handler) activate(c *gin.Context, req activateRequest) (customerResponse, error) {
	out, err := h.app.Activate(c.Request.Context(), c.Param("id"), app.ActivateCommand{
		Token: req.ActivationToken, Password: req.Password, PasswordConfirmation: req.PasswordConfirmation,
	})
	return toCustomerResponse(out, include{}, nil), err
}

func (h *Handler) resetPassword(c *gin.Context, req resetPasswordRequest) (customerResponse, error) {
	out, err := h.app.ResetPassword(c.Request.Context(), c.Param("id"), app.ActivateCommand{
		Token: req.ResetToken, Password: req.Password, PasswordConfirmation: req.PasswordConfirmation,
	})
	return toCustomerResponse(out, include{}, nil), err
}

func (h *Handler) recover(c *gin.Context, req recoverRequest) (gin.H, error) {
	return gin.H{"message": "If an account with this email exists, a password reset email has been sent"},
		h.app.RequestPasswordReset(c.Request.Context(), req.Email)
}

func (h *Handler) listAddresses(c *gin.Context, p httpx.Page) ([]api.Address, int64, error) {
	return h.app.ListAddresses(c.Request.Context(), actor(c), c.Param("id"), page(p))
}

func (h *Handler) getAddress(c *gin.Context) (api.Address, error) {
	return h.app.GetAddress(c.Request.Context(), actor(c), c.Param("id"), c.Param("address_id"))
}

func (h *Handler) createAddress(c *gin.Context, req addressRequest) (api.Address, error) {
	return h.app.CreateAddress(c.Request.Context(), actor(c), c.Param("id"), req.input())
}

func (h *Handler) updateAddress(c *gin.Context, req addressRequest) (api.Address, error) {
	return h.app.UpdateAddress(c.Request.Context(), actor(c), c.Param("id"), c.Param("address_id"), req.input())
}

func (h *Handler) deleteAddress(c *gin.Context) error {
	return h.app.DeleteAddress(c.Request.Context(), actor(c), c.Param("id"), c.Param("address_id"))
}

func (h *Handler) setDefaultAddress(c *gin.Context, req defaultAddressRequest) (api.Address, error) {
	if req.Type == "" {
		req.Type = c.Query("type")
	}
	kind := domain.DefaultShipping
	switch req.Type {
	case "", "shipping":
	case "billing":
		kind = domain.DefaultBilling
	default:
		return api.Address{}, apperr.Validation(map[string]string{"type": "must be one of: shipping, billing"})
	}
	return h.app.SetDefaultAddress(c.Request.Context(), actor(c), c.Param("id"), c.Param("address_id"), kind)
}

func (h *Handler) orders(c *gin.Context, p httpx.Page) ([]orderSummaryResponse, int64, error) {
	f, err := parseOrderFilter(c)
	if err != nil {
		return nil, 0, err
	}
	items, total, err := h.app.ListOrders(c.Request.Context(), actor(c), c.Param("id"), f, page(p))
	return httpx.Map(items, toOrderSummary), total, err
}

func (h *Handler) export(c *gin.Context) (exportResponse, error) {
	out, err := h.app.Export(c.Request.Context(), actor(c), c.Param("id"))
	if err != nil {
		return exportResponse{}, err
	}
	return toExportResponse(out), nil
}

func (h *Handler) anonymize(c *gin.Context) (customerResponse, error) {
	return full(h.app.Anonymize(c.Request.Context(), actor(c), c.Param("id")))
}

func (h *Handler) listSegments(c *gin.Context, p httpx.Page) ([]segmentResponse, int64, error) {
	items, total, err := h.app.ListSegments(c.Request.Context(), actor(c), page(p))
	return httpx.Map(items, toSegmentResponse), total, err
}

func (h *Handler) createSegment(c *gin.Context, req segmentRequest) (segmentResponse, error) {
	out, err := h.app.CreateSegment(c.Request.Context(), actor(c), req.Name, req.Query)
	return toSegmentResponse(out), err
}

func (h *Handler) getSegment(c *gin.Context) (segmentResponse, error) {
	out, err := h.app.GetSegment(c.Request.Context(), actor(c), c.Param("segment_id"))
	return toSegmentResponse(out), err
}

func (h *Handler) deleteSegment(c *gin.Context) error {
	return h.app.DeleteSegment(c.Request.Context(), actor(c), c.Param("segment_id"))
}

func (h *Handler) segmentCustomers(c *gin.Context, p httpx.Page) ([]customerSummary, int64, error) {
	sort, desc, err := parseSort(c.Query("sort"), c.Query("order"), map[string]string{})
	if err != nil {
		return nil, 0, err
	}
	return summaries(h.app.SegmentCustomers(c.Request.Context(), actor(c), c.Param("segment_id"),
		app.ListQuery{Sort: sort, Desc: desc, Page: page(p)}))
}
