// Package http is the payments module's HTTP face: the payment endpoints under
// /api/v1/payments, the test gateway's hosted 3D Secure page and the provider webhook
// receiver at /api/v2/webhooks/{gateway}.
package http

import (
	"fmt"
	"html"
	"io"
	"net/http"
	"net/mail"
	"net/url"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/modules/payments/api"
	"github.com/gocommerce/commerce/modules/payments/app"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/httpx"
)

// IdempotencyHeader carries an idempotency key (the body's idempotency_key also does).
const IdempotencyHeader = "Idempotency-Key"

// Handler serves the payments endpoints.
type Handler struct {
	svc *app.Service
}

// NewHandler builds the handler.
func NewHandler(svc *app.Service) *Handler { return &Handler{svc: svc} }

// RegisterRoutes mounts the routes. GET and the methods query need payments:read; every
// operation that moves money or changes saved methods needs payments:write (a
// read-only key gets 403). The hosted 3D Secure page and provider webhooks are public.
func (h *Handler) RegisterRoutes(r *httpx.Routes) {
	read, write := httpx.Require("payments:read"), httpx.Require("payments:write")
	g := r.API.Group("/payments")
	ok := http.StatusOK
	g.POST("/methods", read, httpx.HandleJSON(ok, h.methods))
	g.POST("", write, result(h.initiate))
	g.GET("/saved-methods", read, httpx.HandleList(h.listSaved))
	g.POST("/saved-methods", write, httpx.HandleJSONBare(http.StatusCreated, h.saveMethod))
	g.DELETE("/saved-methods/:token", write, h.deleteSaved)
	g.GET("/:payment_id", read, httpx.Handle(ok, h.get))
	g.POST("/:payment_id/complete", write, result(h.complete))
	g.POST("/:payment_id/refund", write, httpx.HandleJSON(ok, h.refund))
	g.POST("/:payment_id/capture", write, result(h.capture))
	g.POST("/:payment_id/cancel", write, httpx.Handle(ok, h.cancel))
	g.GET("/:payment_id/3ds", h.threeDS)
	r.Root.POST("/api/v2/webhooks/:gateway", h.webhook)
	// Alipay posts its notifications as forms.
	r.AllowForm("POST", "/api/v2/webhooks/:gateway", 1<<20)
	// Provider bodies carry their own numbers (amounts in minor units, timestamps).
	r.KeepNumbers("POST", "/api/v2/webhooks/:gateway")
}

// baseURL is the service's base URL as this client reached it.
func baseURL(c *gin.Context) string {
	scheme := "http"
	if c.Request.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + c.Request.Host
}

func caller(c *gin.Context) app.Caller { return app.CallerFrom(httpx.Principal(c), baseURL(c)) }

// result serves a payment result as the spec's body for its type, with its status
// (toResultResponse), after binding the JSON body to a B.
func result[B any](fn func(c *gin.Context, req B) (api.PaymentResult, error)) gin.HandlerFunc {
	return func(c *gin.Context) {
		req, ok := httpx.Bind[B](c)
		if !ok {
			return
		}
		res, err := fn(c, req)
		if err != nil {
			httpx.Error(c, err)
			return
		}
		c.JSON(toResultResponse(res))
	}
}

func (h *Handler) methods(c *gin.Context, req methodsRequest) ([]gatewayDescriptor, error) {
	gws, err := h.svc.ListMethods(c.Request.Context(), req.Currency, req.Amount.text())
	out := make([]gatewayDescriptor, 0, len(gws))
	for _, g := range gws {
		out = append(out, toGatewayDescriptor(g))
	}
	return out, err
}

func (h *Handler) initiate(c *gin.Context, req initiateRequest) (api.PaymentResult, error) {
	key, err := idempotencyKey(c, req.IdempotencyKey)
	if err != nil {
		return api.PaymentResult{}, err
	}
	if req.CustomerEmail != "" {
		if _, err := mail.ParseAddress(req.CustomerEmail); err != nil {
			return api.PaymentResult{}, apperr.Validation(map[string]string{"customer_email": "must be a valid email address"})
		}
	}
	cmd := api.InitiateCommand{
		GatewayID: req.GatewayID, Amount: req.Amount.text(), Currency: req.Currency, PaymentMethod: req.PaymentMethod.toAPI(),
		OrderID: req.OrderID, CustomerEmail: req.CustomerEmail, CustomerID: req.CustomerID, Description: req.Description,
		Metadata: req.Metadata, ReturnURL: req.ReturnURL, IdempotencyKey: key, SavePaymentMethod: req.SavePaymentMethod,
	}
	return h.svc.InitiatePayment(c.Request.Context(), caller(c), cmd)
}

func (h *Handler) get(c *gin.Context) (paymentResponse, error) {
	p, err := h.svc.GetPayment(c.Request.Context(), caller(c), c.Param("payment_id"))
	return toPaymentResponse(p), err
}

func (h *Handler) complete(c *gin.Context, req completeRequest) (api.PaymentResult, error) {
	data := map[string]string{}
	bad := map[string]string{}
	for k, v := range req.ActionData {
		s, ok := v.(string)
		if !ok {
			bad["action_data."+k] = "must be a string"
			continue
		}
		data[k] = s
	}
	if len(bad) > 0 {
		return api.PaymentResult{}, apperr.Validation(bad)
	}
	return h.svc.CompletePayment(c.Request.Context(), caller(c), app.CompleteCommand{
		PaymentID: c.Param("payment_id"), ActionType: req.ActionType, ActionData: data,
	})
}

// idempotencyKey is the request's idempotency key: the Idempotency-Key header or the
// body's idempotency_key (both may be sent when they agree).
func idempotencyKey(c *gin.Context, fromBody string) (string, error) {
	key := strings.TrimSpace(fromBody)
	if hk := strings.TrimSpace(c.GetHeader(IdempotencyHeader)); hk != "" {
		if key != "" && key != hk {
			return "", apperr.Validation(map[string]string{"idempotency_key": "differs from the Idempotency-Key header"})
		}
		key = hk
	}
	return key, nil
}

func (h *Handler) refund(c *gin.Context, req refundRequest) (refundResponse, error) {
	amount := req.Amount.text()
	if req.Amount.set && strings.TrimSpace(amount) == "" {
		amount = "not-a-decimal-string"
	}
	key, err := idempotencyKey(c, req.IdempotencyKey)
	if err != nil {
		return refundResponse{}, err
	}
	r, err := h.svc.RefundPayment(c.Request.Context(), caller(c), api.RefundCommand{
		PaymentID: c.Param("payment_id"), Amount: amount, Reason: req.Reason, Metadata: req.Metadata, IdempotencyKey: key,
	})
	return toRefundResponse(r), err
}

func (h *Handler) capture(c *gin.Context, req captureRequest) (api.PaymentResult, error) {
	return h.svc.CapturePayment(c.Request.Context(), caller(c), api.CaptureCommand{PaymentID: c.Param("payment_id"), Amount: req.Amount.text()})
}

func (h *Handler) cancel(c *gin.Context) (paymentResponse, error) {
	p, err := h.svc.CancelPayment(c.Request.Context(), caller(c), c.Param("payment_id"))
	return toPaymentResponse(p), err
}

func (h *Handler) saveMethod(c *gin.Context, req saveMethodRequest) (saveMethodResponse, error) {
	m, err := h.svc.SaveMethod(c.Request.Context(), caller(c), app.SaveMethodCommand{
		GatewayID: req.GatewayID, PaymentMethod: req.PaymentMethodData.toAPI(), SetAsDefault: req.SetAsDefault,
	})
	if err != nil {
		return saveMethodResponse{}, err
	}
	return saveMethodResponse{Token: m.Token, ExpiresAt: m.ExpiresAt, PaymentMethod: toSavedMethodResponse(m).savedPaymentMethodResponse}, nil
}

func (h *Handler) listSaved(c *gin.Context, p httpx.Page) ([]savedMethodResponse, int64, error) {
	ms, total, err := h.svc.ListSavedMethods(c.Request.Context(), caller(c), p.Offset(), p.Limit())
	out := make([]savedMethodResponse, 0, len(ms))
	for _, m := range ms {
		out = append(out, toSavedMethodResponse(m))
	}
	return out, total, err
}

func (h *Handler) deleteSaved(c *gin.Context) {
	m, err := h.svc.DeleteMethod(c.Request.Context(), caller(c), c.Param("token"))
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, deleteMethodResponse{Success: true, Message: "Payment method deleted", Token: m.Token})
}

// threeDS is the test gateway's hosted 3D Secure page: the test customer always
// authenticates, and is sent back to return_url with payment_intent, as a provider does.
func (h *Handler) threeDS(c *gin.Context) {
	t, err := h.svc.ActionPage(c.Request.Context(), c.Param("payment_id"))
	if err != nil {
		httpx.Error(c, err)
		return
	}
	if t.ReturnURL != "" {
		u, err := url.Parse(t.ReturnURL)
		if err == nil {
			q := u.Query()
			q.Set("payment_intent", t.PaymentIntent)
			q.Set("payment_intent_client_secret", t.ClientSecret)
			q.Set("redirect_status", "succeeded")
			u.RawQuery = q.Encode()
			c.Redirect(http.StatusFound, u.String())
			return
		}
	}
	page := fmt.Sprintf(`<!doctype html><html><head><meta charset="utf-8"><title>3D Secure (test)</title></head>`+
		`<body><h1>Authentication complete</h1><p>Payment intent <code>%s</code> was authenticated. `+
		`Complete the payment with POST /api/v1/payments/{id}/complete.</p></body></html>`, html.EscapeString(t.PaymentIntent))
	c.Data(http.StatusOK, "text/html; charset=utf-8", []byte(page))
}

// webhook receives a provider's event: 200 {received: true} once verified (duplicates
// included), 400 for a bad signature, 404 GATEWAY_NOT_FOUND for an unknown gateway.
func (h *Handler) webhook(c *gin.Context) {
	body, err := io.ReadAll(c.Request.Body)
	if err != nil {
		httpx.Error(c, apperr.Invalidf("Could not read the request body").WithCause(err))
		return
	}
	if err := h.svc.HandleWebhook(c.Request.Context(), c.Param("gateway"), c.Request.Header, body); err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"received": true})
}
