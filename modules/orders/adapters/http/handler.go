// Package http is the orders module's HTTP face (gin handlers, JSON request DTOs,
// routes); the response shapes are the api package's resources.
package http

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/modules/orders/app"
	"github.com/gocommerce/commerce/platform/httpx"
)

// Handler serves the orders endpoints.
type Handler struct {
	app     *app.Service
	queries *app.QueryService
}

// NewHandler builds the handler.
func NewHandler(s *app.Service, q *app.QueryService) *Handler { return &Handler{app: s, queries: q} }

// Scopes (Part 1: orders, GET read; POST, PUT, PATCH, DELETE write; order creation is
// admin-only: "admin" or "orders:admin").
const (
	scopeRead  = "orders:read"
	scopeWrite = "orders:write"
	scopeAdmin = "orders:admin"
)

// RegisterRoutes mounts the orders routes on /api/v1. Gin needs one parameter name per
// path segment, so the spec's {order_id} is :id here too.
func (h *Handler) RegisterRoutes(r *httpx.Routes) {
	read, write, admin := httpx.Require(scopeRead), httpx.Require(scopeWrite), httpx.RequireAny("admin", scopeAdmin)
	g := r.API.Group("/orders")
	g.GET("", read, h.list)
	g.POST("", admin, h.create)
	g.GET("/:id", read, h.get)
	g.PUT("/:id", write, h.update)
	g.PATCH("/:id", write, h.update)
	g.POST("/:id/cancel", write, h.cancel)
	g.POST("/:id/close", write, h.close)
	g.POST("/:id/reopen", write, h.reopen)
	g.POST("/:id/line_items", write, h.addLineItem)
	g.PUT("/:id/line_items/:line_item_id", write, h.changeLineItem)
	g.PATCH("/:id/line_items/:line_item_id", write, h.changeLineItem)
	g.DELETE("/:id/line_items/:line_item_id", write, h.removeLineItem)
	g.GET("/:id/fulfillments", read, h.listFulfillments)
	g.POST("/:id/fulfillments", write, h.createFulfillment)
	g.GET("/:id/fulfillments/:fulfillment_id", read, h.getFulfillment)
	g.PUT("/:id/fulfillments/:fulfillment_id", write, h.updateFulfillment)
	g.PATCH("/:id/fulfillments/:fulfillment_id", write, h.updateFulfillment)
	g.POST("/:id/fulfillments/:fulfillment_id/cancel", write, h.cancelFulfillment)
	g.GET("/:id/notes", read, h.listNotes)
	g.POST("/:id/notes", write, h.addNote)
	g.DELETE("/:id/notes/:note_id", write, h.deleteNote)
	g.POST("/:id/refunds/calculate", write, h.calculateRefund)
	g.GET("/:id/refunds", read, h.listRefunds)
	g.POST("/:id/refunds", write, h.createRefund)
	g.GET("/:id/transactions", read, h.listTransactions)
	g.POST("/:id/transactions", write, h.createTransaction)
	g.GET("/:id/risks", read, h.risks)
}

func actor(c *gin.Context) app.Actor { return app.ActorFrom(httpx.Principal(c)) }

func (h *Handler) list(c *gin.Context) {
	p, err := httpx.ParsePage(c)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	f, err := parseListQuery(c)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	f.Offset, f.Limit = p.Offset(), p.Limit()
	items, total, err := h.queries.List(c.Request.Context(), actor(c), f)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.NewList(items, p, total))
}

func (h *Handler) get(c *gin.Context) {
	inc, err := parseInclude(c.Query("include"))
	if err != nil {
		httpx.Error(c, err)
		return
	}
	o, err := h.queries.Get(c.Request.Context(), actor(c), c.Param("id"), inc)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.Data(o))
}

func (h *Handler) create(c *gin.Context) {
	var req createOrderRequest
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return
	}
	cmd, err := req.command()
	if err != nil {
		httpx.Error(c, err)
		return
	}
	o, err := h.app.Create(c.Request.Context(), actor(c), cmd)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusCreated, httpx.Data(o))
}

func (h *Handler) update(c *gin.Context) {
	var req updateOrderRequest
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return
	}
	o, err := h.app.Update(c.Request.Context(), actor(c), c.Param("id"), req.patch())
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.Data(o))
}

func (h *Handler) cancel(c *gin.Context) {
	var req cancelRequest
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return
	}
	o, err := h.app.Cancel(c.Request.Context(), actor(c), c.Param("id"), app.CancelCommand{Reason: req.Reason, Restock: req.Restock, NotifyCustomer: req.NotifyCustomer})
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.Data(o))
}

func (h *Handler) close(c *gin.Context) {
	o, err := h.app.Close(c.Request.Context(), actor(c), c.Param("id"))
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.Data(o))
}

func (h *Handler) reopen(c *gin.Context) {
	o, err := h.app.Reopen(c.Request.Context(), actor(c), c.Param("id"))
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.Data(o))
}
