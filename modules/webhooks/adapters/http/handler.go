// Package http is the webhooks module's HTTP face (CONTRACT §4): POST/GET
// /api/v1/webhooks, GET/PATCH/DELETE /api/v1/webhooks/{id}, GET
// /api/v1/webhooks/{id}/deliveries and POST
// /api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver, all with webhooks:write.
package http

import (
	_ "embed" // the OpenAPI fragment
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/modules/webhooks/api"
	"github.com/gocommerce/commerce/modules/webhooks/app"
	"github.com/gocommerce/commerce/modules/webhooks/domain"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/patch"
)

// Scope guards every endpoint (admin includes it).
const Scope = "webhooks:write"

//go:embed openapi.yaml
var openAPI []byte

// OpenAPI returns the module's OpenAPI fragment.
func OpenAPI() []byte { return openAPI }

// Handler serves the webhooks endpoints.
type Handler struct {
	svc *app.Service
}

// NewHandler builds the handler.
func NewHandler(svc *app.Service) *Handler { return &Handler{svc: svc} }

// RegisterRoutes mounts the routes on /api/v1.
func (h *Handler) RegisterRoutes(r *httpx.Routes) {
	g := r.API.Group("/webhooks", httpx.Require(Scope))
	ok := http.StatusOK
	g.POST("", httpx.HandlePatch(http.StatusCreated, endpointInput, h.create))
	g.GET("", httpx.HandleList(h.list))
	g.GET("/:id", httpx.Handle(ok, h.get))
	g.PATCH("/:id", httpx.HandlePatch(ok, endpointInput, h.update))
	g.DELETE("/:id", httpx.HandleNoContent(h.delete))
	g.GET("/:id/deliveries", httpx.HandleList(h.deliveries))
	g.POST("/:id/deliveries/:delivery_id/redeliver", httpx.Handle(http.StatusAccepted, h.redeliver))
}

func endpointInput(b *patch.Body) domain.EndpointInput {
	return domain.EndpointInput{URL: b.String("url"), Description: b.String("description"), Events: b.Strings("events"),
		Secret: b.String("secret"), Enabled: b.Bool("enabled")}
}

func (h *Handler) create(c *gin.Context, in domain.EndpointInput) (api.Endpoint, error) {
	return h.svc.CreateEndpoint(c.Request.Context(), in)
}

func (h *Handler) list(c *gin.Context, p httpx.Page) ([]api.Endpoint, int64, error) {
	return h.svc.ListEndpoints(c.Request.Context(), p.Offset(), p.Limit())
}

func (h *Handler) get(c *gin.Context) (api.Endpoint, error) {
	return h.svc.GetEndpoint(c.Request.Context(), c.Param("id"))
}

func (h *Handler) update(c *gin.Context, in domain.EndpointInput) (api.Endpoint, error) {
	return h.svc.UpdateEndpoint(c.Request.Context(), c.Param("id"), in)
}

func (h *Handler) delete(c *gin.Context) error {
	return h.svc.DeleteEndpoint(c.Request.Context(), c.Param("id"))
}

func (h *Handler) deliveries(c *gin.Context, p httpx.Page) ([]api.Delivery, int64, error) {
	return h.svc.ListDeliveries(c.Request.Context(), c.Param("id"), p.Offset(), p.Limit())
}

func (h *Handler) redeliver(c *gin.Context) (api.Delivery, error) {
	return h.svc.Redeliver(c.Request.Context(), c.Param("id"), c.Param("delivery_id"))
}
