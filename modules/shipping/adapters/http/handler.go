// Package http is the shipping module's HTTP face: GET /api/v1/shipping/rates,
// POST /api/v1/shipping/shipments, GET /api/v1/shipping/shipments/{id} and the carrier
// tracking webhook POST /api/v1/shipping/webhooks/{carrier}.
package http

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"io"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/modules/shipping/api"
	"github.com/gocommerce/commerce/modules/shipping/app"
	"github.com/gocommerce/commerce/modules/shipping/domain"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/httpx"
)

// Scopes of the shipping endpoints (Part 2 names none; docs/decisions/0150).
const (
	ScopeRead  = "shipping:read"
	ScopeWrite = "shipping:write"
)

// SignatureHeader carries the webhook's HMAC-SHA256 (hex) of the raw body (the house
// format); CredentialHeader the credential of a carrier's own push (UPS Track Alert).
const (
	SignatureHeader  = "X-Shipping-Signature"
	CredentialHeader = "Credential"
)

// Handler serves the shipping endpoints.
type Handler struct {
	svc *app.Service
}

// NewHandler builds the handler.
func NewHandler(svc *app.Service) *Handler { return &Handler{svc: svc} }

// RegisterRoutes mounts the routes on /api/v1.
func (h *Handler) RegisterRoutes(r *httpx.Routes) {
	g := r.API.Group("/shipping")
	g.GET("/rates", httpx.Require(ScopeRead), h.rates)
	g.POST("/shipments", httpx.Require(ScopeWrite), httpx.HandleJSON(http.StatusCreated, h.createShipment))
	g.GET("/shipments/:id", httpx.Require(ScopeRead), httpx.Handle(http.StatusOK, h.getShipment))
	g.POST("/webhooks/:carrier", h.webhook)
}

// RatesInput reads the rates query (every parameter as sent).
func RatesInput(c *gin.Context) app.RatesInput {
	return app.RatesInput{
		FromCountry: c.Query("from_country"), FromZip: c.Query("from_zip"), ToCountry: c.Query("to_country"), ToZip: c.Query("to_zip"),
		Weight: c.Query("weight"), WeightUnit: c.Query("weight_unit"), Length: c.Query("length"), Width: c.Query("width"),
		Height: c.Query("height"), DimensionUnit: c.Query("dimension_unit"), Carriers: c.Query("carriers"),
		ServiceCode: c.Query("service_code"), Currency: c.Query("currency"),
	}
}

func (h *Handler) rates(c *gin.Context) {
	quote, echo, err := h.svc.QuoteInput(c.Request.Context(), RatesInput(c))
	if err != nil {
		httpx.Error(c, err)
		return
	}
	meta := ratesMeta{
		RequestID: httpx.RequestID(c), FromAddress: place{Country: echo.FromCountry, Zip: echo.FromZip},
		ToAddress: place{Country: echo.ToCountry, Zip: echo.ToZip}, Weight: echo.Weight.String(), WeightUnit: echo.WeightUnit,
		Carriers: echo.Carriers, Errors: []carrierError{},
	}
	for _, f := range quote.Failures {
		meta.Errors = append(meta.Errors, carrierError{Carrier: f.Carrier, Code: f.Code, Message: f.Message})
	}
	if len(quote.Failures) > 0 && len(quote.Failures) == len(echo.Carriers) {
		httpx.Error(c, domain.ErrRatesUnavailable.WithExtra("carriers", meta.Errors))
		return
	}
	data := make([]rateResponse, len(quote.Rates))
	for i, r := range quote.Rates {
		data[i] = toRateResponse(r)
	}
	c.JSON(http.StatusOK, ratesResponse{Data: data, Meta: meta})
}

func (h *Handler) createShipment(c *gin.Context, req createShipmentRequest) (api.Shipment, error) {
	return h.svc.CreateShipment(c.Request.Context(), req.input())
}

func (h *Handler) getShipment(c *gin.Context) (api.Shipment, error) {
	history, order, err := app.ParseIncludes(c.Query("include"))
	if err != nil {
		return api.Shipment{}, err
	}
	return h.svc.GetShipment(c.Request.Context(), app.GetShipmentQuery{
		ID: c.Param("id"), Principal: httpx.Principal(c), TrackingHistory: history, Order: order,
	})
}

// webhook applies a carrier's tracking update, signed with shipping.webhook_secret.
func (h *Handler) webhook(c *gin.Context) {
	carrier := strings.ToLower(c.Param("carrier"))
	if !domain.ValidCarrier(carrier) {
		httpx.Error(c, domain.ErrInvalidCarrier.WithField("carrier", "must be one of: "+strings.Join(domain.Carriers, ", ")))
		return
	}
	body, err := io.ReadAll(c.Request.Body)
	if err != nil {
		httpx.Error(c, apperr.Invalidf("Could not read the body"))
		return
	}
	secret := h.svc.Settings().WebhookSecret
	var out api.Shipment
	if cred := c.GetHeader(CredentialHeader); cred != "" {
		// A carrier's own push (UPS Track Alert) carries the credential chosen at
		// subscription: the webhook secret.
		if secret == "" || subtle.ConstantTimeCompare([]byte(cred), []byte(secret)) != 1 {
			httpx.Error(c, domain.ErrWebhookSignature)
			return
		}
		out, err = h.svc.PushTracking(c.Request.Context(), carrier, body)
	} else {
		mac := hmac.New(sha256.New, []byte(secret))
		mac.Write(body)
		got, _ := hex.DecodeString(strings.TrimPrefix(c.GetHeader(SignatureHeader), "sha256="))
		if secret == "" || !hmac.Equal(got, mac.Sum(nil)) {
			httpx.Error(c, domain.ErrWebhookSignature)
			return
		}
		update, perr := parseWebhook(carrier, body)
		if perr != nil {
			httpx.Error(c, perr)
			return
		}
		out, err = h.svc.ApplyTracking(c.Request.Context(), update)
	}
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"received": true, "shipment_id": out.ID, "status": out.Status})
}
