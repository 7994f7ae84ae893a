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
	g.POST("/methods", read, h.methods)
	g.POST("", write, h.initiate)
	g.GET("/saved-methods", read, h.listSaved)
	g.POST("/saved-methods", write, h.saveMethod)
	g.DELETE("/saved-methods/:token", write, h.deleteSaved)
	g.GET("/:payment_id", read, h.get)
	g.POST("/:payment_id/complete", write, h.complete)
	g.POST("/:payment_id/refund", write, h.refund)
	g.POST("/:payment_id/capture", write, h.capture)
	g.POST("/:payment_id/cancel", write, h.cancel)
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

func (h *Handler) methods(c *gin.Context) {
	var req methodsRequest
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return
	}
	gws, err := h.svc.ListMethods(c.Request.Context(), req.Currency, req.Amount.text())
	if err != nil {
		httpx.Error(c, err)
		return
	}
	out := make([]gatewayDescriptor, 0, len(gws))
	for _, g := range gws {
		out = append(out, toGatewayDescriptor(g))
	}
	c.JSON(http.StatusOK, httpx.Data(out))
}

func (h *Handler) initiate(c *gin.Context) {
	var req initiateRequest
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return
	}
	key, err := idempotencyKey(c, req.IdempotencyKey)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	if req.CustomerEmail != "" {
		if _, err := mail.ParseAddress(req.CustomerEmail); err != nil {
			httpx.Error(c, apperr.Validation(map[string]string{"customer_email": "must be a valid email address"}))
			return
		}
	}
	cmd := api.InitiateCommand{
		GatewayID: req.GatewayID, Amount: req.Amount.text(), Currency: req.Currency, PaymentMethod: req.PaymentMethod.toAPI(),
		OrderID: req.OrderID, CustomerEmail: req.CustomerEmail, CustomerID: req.CustomerID, Description: req.Description,
		Metadata: req.Metadata, ReturnURL: req.ReturnURL, IdempotencyKey: key, SavePaymentMethod: req.SavePaymentMethod,
	}
	res, err := h.svc.InitiatePayment(c.Request.Context(), caller(c), cmd)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	status, body := toResultResponse(res)
	c.JSON(status, body)
}

func (h *Handler) get(c *gin.Context) {
	p, err := h.svc.GetPayment(c.Request.Context(), caller(c), c.Param("payment_id"))
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.Data(toPaymentResponse(p)))
}

func (h *Handler) complete(c *gin.Context) {
	var req completeRequest
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return
	}
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
		httpx.Error(c, apperr.Validation(bad))
		return
	}
	res, err := h.svc.CompletePayment(c.Request.Context(), caller(c), app.CompleteCommand{
		PaymentID: c.Param("payment_id"), ActionType: req.ActionType, ActionData: data,
	})
	if err != nil {
		httpx.Error(c, err)
		return
	}
	status, body := toResultResponse(res)
	c.JSON(status, body)
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

func (h *Handler) refund(c *gin.Context) {
	var req refundRequest
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return
	}
	amount := req.Amount.text()
	if req.Amount.set && strings.TrimSpace(amount) == "" {
		amount = "not-a-decimal-string"
	}
	key, err := idempotencyKey(c, req.IdempotencyKey)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	r, err := h.svc.RefundPayment(c.Request.Context(), caller(c), api.RefundCommand{
		PaymentID: c.Param("payment_id"), Amount: amount, Reason: req.Reason, Metadata: req.Metadata, IdempotencyKey: key,
	})
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.Data(toRefundResponse(r)))
}

func (h *Handler) capture(c *gin.Context) {
	var req captureRequest
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return
	}
	res, err := h.svc.CapturePayment(c.Request.Context(), caller(c), api.CaptureCommand{PaymentID: c.Param("payment_id"), Amount: req.Amount.text()})
	if err != nil {
		httpx.Error(c, err)
		return
	}
	status, body := toResultResponse(res)
	c.JSON(status, body)
}

func (h *Handler) cancel(c *gin.Context) {
	p, err := h.svc.CancelPayment(c.Request.Context(), caller(c), c.Param("payment_id"))
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.Data(toPaymentResponse(p)))
}

func (h *Handler) saveMethod(c *gin.Context) {
	var req saveMethodRequest
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return
	}
	m, err := h.svc.SaveMethod(c.Request.Context(), caller(c), app.SaveMethodCommand{
		GatewayID: req.GatewayID, PaymentMethod: req.PaymentMethodData.toAPI(), SetAsDefault: req.SetAsDefault,
	})
	if err != nil {
		httpx.Error(c, err)
		return
	}
	r := toSavedMethodResponse(m)
	c.JSON(http.StatusCreated, saveMethodResponse{
		Token: m.Token, ExpiresAt: m.ExpiresAt,
		PaymentMethod: savedPaymentMethodResponse{
			MethodType: r.MethodType, LastFour: r.LastFour, CardBrand: r.CardBrand, ExpMonth: r.ExpMonth, ExpYear: r.ExpYear,
			CardholderName: r.CardholderName, IsDefault: r.IsDefault,
		},
	})
}

func (h *Handler) listSaved(c *gin.Context) {
	page, err := httpx.ParsePage(c)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	ms, total, err := h.svc.ListSavedMethods(c.Request.Context(), caller(c), page.Offset(), page.Limit())
	if err != nil {
		httpx.Error(c, err)
		return
	}
	out := make([]savedMethodResponse, 0, len(ms))
	for _, m := range ms {
		out = append(out, toSavedMethodResponse(m))
	}
	c.JSON(http.StatusOK, httpx.NewList(out, page, total))
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
