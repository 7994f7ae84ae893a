// Package http is the orders module's HTTP face (gin handlers, JSON request DTOs,
// routes); the response shapes are the api package's resources.
package http

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/modules/orders/api"
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
	ok, created := http.StatusOK, http.StatusCreated
	g := r.API.Group("/orders")
	g.GET("", read, httpx.HandleList(h.list))
	g.POST("", admin, httpx.HandleInput[createOrderRequest](created, h.create))
	g.GET("/:id", read, httpx.Handle(ok, h.get))
	g.Match(httpx.Update, "/:id", write, httpx.HandleJSON(ok, h.update))
	g.POST("/:id/cancel", write, httpx.HandleJSON(ok, h.cancel))
	g.POST("/:id/close", write, httpx.Handle(ok, h.close))
	g.POST("/:id/reopen", write, httpx.Handle(ok, h.reopen))
	g.POST("/:id/line_items", write, httpx.HandleJSON(created, h.addLineItem))
	g.Match(httpx.Update, "/:id/line_items/:line_item_id", write, httpx.HandleJSON(ok, h.changeLineItem))
	g.DELETE("/:id/line_items/:line_item_id", write, httpx.Handle(ok, h.removeLineItem))
	g.GET("/:id/fulfillments", read, httpx.HandleList(h.listFulfillments))
	g.POST("/:id/fulfillments", write, httpx.HandleInput[fulfillmentRequest](created, h.createFulfillment))
	g.GET("/:id/fulfillments/:fulfillment_id", read, httpx.Handle(ok, h.getFulfillment))
	g.Match(httpx.Update, "/:id/fulfillments/:fulfillment_id", write, httpx.HandleJSON(ok, h.updateFulfillment))
	g.POST("/:id/fulfillments/:fulfillment_id/cancel", write, httpx.Handle(ok, h.cancelFulfillment))
	g.GET("/:id/notes", read, httpx.HandleList(h.listNotes))
	g.POST("/:id/notes", write, httpx.HandleJSON(created, h.addNote))
	g.DELETE("/:id/notes/:note_id", write, httpx.HandleNoContent(h.deleteNote))
	g.POST("/:id/refunds/calculate", write, httpx.HandleInput[refundRequest](ok, h.calculateRefund))
	g.GET("/:id/refunds", read, httpx.HandleList(h.listRefunds))
	g.POST("/:id/refunds", write, httpx.HandleInput[refundRequest](created, h.createRefund))
	g.GET("/:id/transactions", read, httpx.HandleList(h.listTransactions))
	g.POST("/:id/transactions", write, httpx.HandleJSON(created, h.createTransaction))
	g.GET("/:id/risks", read, httpx.Handle(ok, h.risks))
}

func actor(c *gin.Context) app.Actor { return app.ActorFrom(httpx.Principal(c)) }

func (h *Handler) list(c *gin.Context, p httpx.Page) ([]api.OrderSummary, int64, error) {
	f, err := parseListQuery(c)
	if err != nil {
		return nil, 0, err
	}
	f.Offset, f.Limit = p.Offset(), p.Limit()
	return h.queries.List(c.Request.Context(), actor(c), f)
}

func (h *Handler) get(c *gin.Context) (api.Order, error) {
	inc, err := parseInclude(c.Query("include"))
	if err != nil {
		return api.Order{}, err
	}
	return h.queries.Get(c.Request.Context(), actor(c), c.Param("id"), inc)
}

func (h *Handler) create(c *gin.Context, cmd api.CreateOrderCommand) (api.Order, error) {
	return h.app.Create(c.Request.Context(), actor(c), cmd)
}

func (h *Handler) update(c *gin.Context, req updateOrderRequest) (api.Order, error) {
	return h.app.Update(c.Request.Context(), actor(c), c.Param("id"), req.patch())
}

func (h *Handler) cancel(c *gin.Context, req cancelRequest) (api.Order, error) {
	return h.app.Cancel(c.Request.Context(), actor(c), c.Param("id"), app.CancelCommand{Reason: req.Reason, Restock: req.Restock, NotifyCustomer: req.NotifyCustomer})
}

func (h *Handler) close(c *gin.Context) (api.Order, error) {
	return h.app.Close(c.Request.Context(), actor(c), c.Param("id"))
}

func (h *Handler) reopen(c *gin.Context) (api.Order, error) {
	return h.app.Reopen(c.Request.Context(), actor(c), c.Param("id"))
}
