// Package http is checkout's HTTP face: POST /api/v1/checkout/initiate, /shipping and
// /complete (gin handlers, JSON DTOs, the OpenAPI fragment).
package http

import (
	_ "embed" // the OpenAPI fragment
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/modules/checkout/app"
	"github.com/gocommerce/commerce/modules/checkout/domain"
	"github.com/gocommerce/commerce/platform/httpx"
)

//go:embed openapi.yaml
var openAPI []byte

// OpenAPI returns the module's OpenAPI fragment.
func OpenAPI() []byte { return openAPI }

// HeaderSessionToken carries a guest cart's session token (the carts module's header).
const HeaderSessionToken = "X-Session-Token"

// HeaderIdempotencyKey makes a repeated complete answer the first one's order.
const HeaderIdempotencyKey = "Idempotency-Key"

// scope is what an authenticated caller needs: checkout changes the caller's cart.
const scope = "carts:write"

// Handler serves the checkout endpoints.
type Handler struct{ app *app.Service }

// NewHandler builds the handler.
func NewHandler(s *app.Service) *Handler { return &Handler{app: s} }

// RegisterRoutes mounts /api/v1/checkout/*.
func (h *Handler) RegisterRoutes(r *httpx.Routes) {
	g := r.API.Group("/checkout")
	opt, ok := httpx.Optional(), http.StatusOK
	g.POST("/initiate", opt, admit, httpx.HandleJSON(ok, h.initiate))
	g.POST("/shipping", opt, admit, httpx.HandleJSON(ok, h.shipping))
	g.POST("/complete", opt, admit, httpx.HandleJSON(ok, h.complete))
}

// admit lets a guest in with X-Session-Token (401 without) and a principal holding
// carts:write (403 otherwise); which cart the credentials open is the carts module's
// business (CART_NOT_FOUND for any other).
var admit = httpx.RequireOrHeader(scope, HeaderSessionToken)

func access(c *gin.Context, cartID string) app.Access {
	return app.Access{CartID: cartID, SessionToken: c.GetHeader(HeaderSessionToken), Principal: httpx.Principal(c)}
}

func (h *Handler) initiate(c *gin.Context, req initiateRequest) (checkoutResponse, error) {
	return checkoutOf(h.app.Initiate(c.Request.Context(), app.InitiateInput{Access: access(c, req.CartID), ShippingAddress: req.ShippingAddress.domain(),
		BillingAddress: req.BillingAddress.domain(), VATID: req.VATID, Email: req.Email}))
}

func (h *Handler) shipping(c *gin.Context, req shippingRequest) (checkoutResponse, error) {
	return checkoutOf(h.app.ChooseShipping(c.Request.Context(), app.ShippingInput{Access: access(c, req.CartID), ShippingRateID: req.ShippingRateID, ShippingMethod: req.ShippingMethod}))
}

func (h *Handler) complete(c *gin.Context, req completeRequest) (completeResponse, error) {
	key := c.GetHeader(HeaderIdempotencyKey)
	if key == "" {
		key = req.IdempotencyKey
	}
	out, err := h.app.Complete(c.Request.Context(), app.CompleteInput{
		Access: access(c, req.CartID), PaymentMethod: req.method(), CustomerEmail: req.CustomerEmail, ReturnURL: req.ReturnURL,
		IdempotencyKey: key, ShippingAddress: req.ShippingAddress.domain(),
	})
	if err != nil {
		return completeResponse{}, err
	}
	return toComplete(out), nil
}

// checkoutOf is a use case's session as its response.
func checkoutOf(s *domain.Session, err error) (checkoutResponse, error) {
	if err != nil {
		return checkoutResponse{}, err
	}
	return toCheckout(s), nil
}
