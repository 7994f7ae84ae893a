// Package paypal is the `paypal` gateway (multi-currency): PayPal's Orders v2 REST API
// over net/http with an OAuth2 client-credentials token (create order, capture or
// authorize after the buyer's approval, capture and void authorizations, refund
// captures) and webhook verification through PayPal's documented
// POST /v1/notifications/verify-webhook-signature call.
package paypal

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/payments/adapters/internal/gatewaykit"
	"github.com/gocommerce/commerce/modules/payments/adapters/internal/signedtime"
	"github.com/gocommerce/commerce/modules/payments/domain"
	"github.com/gocommerce/commerce/modules/payments/ports"
	"github.com/gocommerce/commerce/platform/httpx"
)

// Config is the gateway's section of payment.paypal: client_id and api_key (the client
// secret) for OAuth2, webhook_secret holding the PayPal webhook id.
type Config struct {
	ClientID      string
	Secret        string
	WebhookID     string
	CaptureMethod string
	BaseURL       string
	HTTPClient    *http.Client
	// Now is the clock webhook transmission times are checked against (time.Now when nil).
	Now func() time.Time
}

// Currencies are the currencies PayPal's REST API accepts.
var Currencies = []string{
	"AUD", "BRL", "CAD", "CHF", "CNY", "CZK", "DKK", "EUR", "GBP", "HKD", "HUF", "ILS", "JPY", "MXN", "MYR", "NOK",
	"NZD", "PHP", "PLN", "SEK", "SGD", "THB", "TWD", "USD",
}

// Gateway is the PayPal adapter.
type Gateway struct {
	gatewaykit.Wallet // no saved methods: PayPal vaulting needs the buyer's approval
	cfg               Config
	tokens            httpx.TokenCache
}

var _ ports.Gateway = (*Gateway)(nil)

// New builds the adapter.
func New(cfg Config) *Gateway {
	cfg.HTTPClient = gatewaykit.HTTPClient(cfg.HTTPClient)
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	return &Gateway{Wallet: gatewaykit.Wallet{NoSavedMethods: gatewaykit.NoSavedMethods{Provider: "PayPal"}, GatewayID: "paypal", Currencies: Currencies, MaxMinor: 1000000000}, cfg: cfg}
}

// CaptureMethod is the configured capture method.
func (g *Gateway) CaptureMethod() string { return gatewaykit.CaptureMethod(g.cfg.CaptureMethod) }

// apiError is a PayPal error answer.
type apiError struct {
	Status  int
	Name    string `json:"name"`
	Message string `json:"message"`
	Details []struct {
		Issue       string `json:"issue"`
		Description string `json:"description"`
	} `json:"details"`
}

func (e *apiError) Error() string {
	return fmt.Sprintf("paypal: %d %s: %s", e.Status, e.Name, e.Message)
}

// refused is the error of a failed answer with the given status (gatewaykit.Send).
func refused(status int) error { return &apiError{Status: status} }

func (e *apiError) issue() string {
	if len(e.Details) > 0 {
		return e.Details[0].Issue
	}
	return e.Name
}

// accessToken returns a cached OAuth2 client-credentials token.
func (g *Gateway) accessToken(ctx context.Context) (string, error) {
	return g.tokens.Token(ctx, g.newToken)
}

// newToken asks PayPal for a client-credentials token and its lifetime.
func (g *Gateway) newToken(ctx context.Context) (string, time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, g.cfg.BaseURL+"/v1/oauth2/token",
		strings.NewReader(url.Values{"grant_type": {"client_credentials"}}.Encode()))
	if err != nil {
		return "", 0, err
	}
	req.SetBasicAuth(g.cfg.ClientID, g.cfg.Secret)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	resp, err := gatewaykit.Do(g.cfg.HTTPClient, req, 1<<20, "paypal: token")
	if err != nil {
		return "", 0, err
	}
	if resp.Status != http.StatusOK {
		return "", 0, fmt.Errorf("paypal: token: status %d", resp.Status)
	}
	var t struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int    `json:"expires_in"`
	}
	if err := json.Unmarshal(resp.Body, &t); err != nil || t.AccessToken == "" {
		return "", 0, errors.New("paypal: token: malformed answer")
	}
	return t.AccessToken, time.Duration(t.ExpiresIn) * time.Second, nil
}

// call sends an authenticated JSON request; requestID (PayPal-Request-Id) makes it
// idempotent at PayPal.
func (g *Gateway) call(ctx context.Context, method, path, requestID string, in, out any) error {
	token, err := g.accessToken(ctx)
	if err != nil {
		return err
	}
	req, _, err := gatewaykit.NewRequest(ctx, method, g.cfg.BaseURL+path, in, "Authorization", "Bearer "+token,
		"Content-Type", "application/json", "Accept", "application/json", "Prefer", "return=representation")
	if err != nil {
		return err
	}
	if requestID != "" {
		req.Header.Set("PayPal-Request-Id", requestID)
	}
	resp, err := gatewaykit.Send(g.cfg.HTTPClient, req, 4<<20, "paypal: "+method+" "+path, refused)
	if err != nil {
		return err
	}
	if err := resp.Decode(out); err != nil {
		return fmt.Errorf("paypal: %s %s: %w", method, path, err)
	}
	return nil
}

type money struct {
	CurrencyCode string `json:"currency_code"`
	Value        string `json:"value"`
}

func moneyOf(d decimal.Decimal, c domain.Currency) money {
	return money{CurrencyCode: string(c), Value: domain.FormatAmount(d, c)}
}

type link struct {
	Href string `json:"href"`
	Rel  string `json:"rel"`
}

type capture struct {
	ID       string `json:"id"`
	Status   string `json:"status"`
	CustomID string `json:"custom_id"`
	Amount   *money `json:"amount"`
}

type order struct {
	ID            string `json:"id"`
	Status        string `json:"status"`
	Links         []link `json:"links"`
	PurchaseUnits []struct {
		Payments struct {
			Captures       []capture `json:"captures"`
			Authorizations []capture `json:"authorizations"`
		} `json:"payments"`
	} `json:"purchase_units"`
}

// Authorize creates an order; the buyer approves it on PayPal (requires_action,
// action_type redirect), then complete captures or authorizes it.
func (g *Gateway) Authorize(ctx context.Context, req ports.ChargeRequest) (ports.ChargeResult, error) {
	if req.Card != nil || req.Saved != nil || req.BankTransfer != nil {
		return ports.ChargeResult{}, domain.ErrInvalidPaymentMethod.WithMessage("PayPal payments are approved on PayPal; send payment_method type paypal")
	}
	intent := "CAPTURE"
	if !req.Capture {
		intent = "AUTHORIZE"
	}
	unit := map[string]any{
		"reference_id": req.PaymentID, "custom_id": req.PaymentID, "amount": moneyOf(req.Amount, req.Currency),
	}
	if req.Description != "" {
		unit["description"] = req.Description
	}
	if id := req.Metadata["order_id"]; id != "" {
		unit["invoice_id"] = id
	}
	ctxt := map[string]any{"user_action": "PAY_NOW", "shipping_preference": "NO_SHIPPING"}
	if req.ReturnURL != "" {
		ctxt["return_url"] = req.ReturnURL
		ctxt["cancel_url"] = req.ReturnURL
	}
	body := map[string]any{
		"intent": intent, "purchase_units": []any{unit},
		"payment_source": map[string]any{"paypal": map[string]any{"experience_context": ctxt}},
	}
	var o order
	if err := g.call(ctx, http.MethodPost, "/v2/checkout/orders", req.IdempotencyKey, body, &o); err != nil {
		return declined(err)
	}
	approve := ""
	for _, l := range o.Links {
		if l.Rel == "payer-action" || l.Rel == "approve" {
			approve = l.Href
		}
	}
	return ports.ChargeResult{
		Status: domain.StatusRequiresAction, TransactionID: o.ID,
		Action: &domain.Action{Type: domain.ActionRedirect, Data: map[string]any{
			"type": "paypal_approval", "redirect_url": approve, "payment_intent": o.ID, "order_id": o.ID,
		}},
	}, nil
}

// declined turns PayPal's business refusals (422) into a failed result.
func declined(err error) (ports.ChargeResult, error) {
	var e *apiError
	if errors.As(err, &e) && e.Status == http.StatusUnprocessableEntity {
		code := "card_declined"
		if e.issue() != "INSTRUMENT_DECLINED" {
			code = "processing_error"
		}
		return ports.ChargeResult{Status: domain.StatusFailed, DeclineCode: code, DeclineMessage: e.Message}, nil
	}
	return ports.ChargeResult{}, err
}

// Complete captures (or, with capture_method manual, authorizes) the approved order.
// An order the buyer has not approved yet stays requires_action.
func (g *Gateway) Complete(ctx context.Context, req ports.CompleteRequest) (ports.ChargeResult, error) {
	op := "capture"
	if !req.Capture {
		op = "authorize"
	}
	var o order
	err := g.call(ctx, http.MethodPost, "/v2/checkout/orders/"+url.PathEscape(req.TransactionID)+"/"+op, req.PaymentID+":"+op, map[string]any{}, &o)
	if err != nil {
		var e *apiError
		if errors.As(err, &e) && e.issue() == "ORDER_NOT_APPROVED" {
			return ports.ChargeResult{Status: domain.StatusRequiresAction, TransactionID: req.TransactionID}, nil
		}
		return declined(err)
	}
	res := ports.ChargeResult{TransactionID: o.ID}
	var c *capture
	if len(o.PurchaseUnits) > 0 {
		p := o.PurchaseUnits[0].Payments
		if req.Capture && len(p.Captures) > 0 {
			c = &p.Captures[0]
		}
		if !req.Capture && len(p.Authorizations) > 0 {
			c = &p.Authorizations[0]
		}
	}
	if c == nil {
		return ports.ChargeResult{Status: domain.StatusFailed, TransactionID: o.ID, DeclineCode: "processing_error", DeclineMessage: "PayPal returned no capture"}, nil
	}
	res.ProviderReference = c.ID
	switch c.Status {
	case "COMPLETED":
		res.Status = domain.StatusSucceeded
	case "CREATED":
		res.Status = domain.StatusRequiresCapture
	case "PENDING":
		res.Status = domain.StatusProcessing
		if !req.Capture {
			res.Status = domain.StatusRequiresCapture
		}
	default:
		res.Status = domain.StatusFailed
		res.DeclineCode, res.DeclineMessage = "card_declined", "PayPal declined the payment ("+c.Status+")"
	}
	return res, nil
}

// Capture captures an authorization.
func (g *Gateway) Capture(ctx context.Context, req ports.CaptureRequest) (ports.CaptureResult, error) {
	var c capture
	body := map[string]any{"amount": moneyOf(req.Amount, req.Currency), "final_capture": true}
	if err := g.call(ctx, http.MethodPost, "/v2/payments/authorizations/"+url.PathEscape(req.ProviderReference)+"/capture", req.PaymentID+":capture", body, &c); err != nil {
		return ports.CaptureResult{}, err
	}
	return ports.CaptureResult{ProviderReference: c.ID}, nil
}

// Cancel voids an authorization; an order never approved simply expires at PayPal.
func (g *Gateway) Cancel(ctx context.Context, req ports.CancelRequest) error {
	if req.Status != domain.StatusRequiresCapture || req.ProviderReference == "" {
		return nil
	}
	return g.call(ctx, http.MethodPost, "/v2/payments/authorizations/"+url.PathEscape(req.ProviderReference)+"/void", req.PaymentID+":void", nil, nil)
}

// Refund refunds a capture.
func (g *Gateway) Refund(ctx context.Context, req ports.RefundRequest) (ports.RefundResult, error) {
	var r capture
	body := map[string]any{"amount": moneyOf(req.Amount, req.Currency), "custom_id": req.RefundID}
	if err := g.call(ctx, http.MethodPost, "/v2/payments/captures/"+url.PathEscape(req.ProviderReference)+"/refund", req.RefundID, body, &r); err != nil {
		var e *apiError
		if errors.As(err, &e) && e.Status == http.StatusUnprocessableEntity {
			return ports.RefundResult{Status: domain.RefundFailed, FailureReason: e.Message}, nil
		}
		return ports.RefundResult{}, err
	}
	return ports.RefundResult{ProviderRefundID: r.ID, Status: refundStatus(r.Status)}, nil
}

// refundStates are the final refund states.
var refundStates = gatewaykit.RefundStates{Succeeded: []string{"COMPLETED"}, Failed: []string{"FAILED", "CANCELLED"}}

func refundStatus(s string) domain.RefundStatus { return refundStates.Of(s) }

// Webhook headers PayPal signs its deliveries with.
const (
	HeaderTransmissionID   = "PAYPAL-TRANSMISSION-ID"
	HeaderTransmissionTime = "PAYPAL-TRANSMISSION-TIME"
	HeaderTransmissionSig  = "PAYPAL-TRANSMISSION-SIG"
	HeaderCertURL          = "PAYPAL-CERT-URL"
	HeaderAuthAlgo         = "PAYPAL-AUTH-ALGO"
)

// ParseWebhook asks PayPal to verify the delivery (verify-webhook-signature with the
// configured webhook id and the event exactly as received), then maps the event. The
// signed PAYPAL-TRANSMISSION-TIME must be within 5 minutes of now, before or after;
// that is checked first, so a replayed or future-dated delivery costs no call.
func (g *Gateway) ParseWebhook(ctx context.Context, headers http.Header, body []byte) (ports.WebhookEvent, error) {
	if g.cfg.WebhookID == "" {
		return ports.WebhookEvent{}, domain.ErrInvalidSignature.WithMessage("PayPal webhook id is not configured")
	}
	for _, h := range []string{HeaderTransmissionID, HeaderTransmissionTime, HeaderTransmissionSig, HeaderCertURL, HeaderAuthAlgo} {
		if headers.Get(h) == "" {
			return ports.WebhookEvent{}, domain.ErrInvalidSignature.WithMessage("Missing %s header", h)
		}
	}
	sent, err := time.Parse(time.RFC3339, headers.Get(HeaderTransmissionTime))
	if err != nil {
		return ports.WebhookEvent{}, domain.ErrInvalidSignature.WithMessage("Malformed %s header", HeaderTransmissionTime)
	}
	if err := signedtime.Check(g.cfg.Now(), sent); err != nil {
		return ports.WebhookEvent{}, domain.ErrInvalidSignature.WithCause(err)
	}
	if !json.Valid(body) {
		return ports.WebhookEvent{}, domain.ErrInvalidSignature.WithMessage("Webhook body is not JSON")
	}
	verify := map[string]any{
		"auth_algo": headers.Get(HeaderAuthAlgo), "cert_url": headers.Get(HeaderCertURL),
		"transmission_id": headers.Get(HeaderTransmissionID), "transmission_sig": headers.Get(HeaderTransmissionSig),
		"transmission_time": headers.Get(HeaderTransmissionTime), "webhook_id": g.cfg.WebhookID,
		"webhook_event": json.RawMessage(body),
	}
	var out struct {
		VerificationStatus string `json:"verification_status"`
	}
	if err := g.call(ctx, http.MethodPost, "/v1/notifications/verify-webhook-signature", "", verify, &out); err != nil {
		var e *apiError
		if errors.As(err, &e) && e.Status < 500 {
			return ports.WebhookEvent{}, domain.ErrInvalidSignature.WithCause(err)
		}
		return ports.WebhookEvent{}, err
	}
	if out.VerificationStatus != "SUCCESS" {
		return ports.WebhookEvent{}, domain.ErrInvalidSignature
	}
	return mapEvent(body)
}

type resource struct {
	ID                string `json:"id"`
	Status            string `json:"status"`
	CustomID          string `json:"custom_id"`
	Amount            *money `json:"amount"`
	Links             []link `json:"links"`
	SupplementaryData struct {
		RelatedIDs struct {
			OrderID string `json:"order_id"`
		} `json:"related_ids"`
	} `json:"supplementary_data"`
	StatusDetails struct {
		Reason string `json:"reason"`
	} `json:"status_details"`
}

func mapEvent(body []byte) (ports.WebhookEvent, error) {
	var env struct {
		ID         string          `json:"id"`
		EventType  string          `json:"event_type"`
		CreateTime time.Time       `json:"create_time"`
		Resource   json.RawMessage `json:"resource"`
	}
	if err := json.Unmarshal(body, &env); err != nil {
		return ports.WebhookEvent{}, domain.ErrInvalidSignature.WithMessage("Webhook body is not a PayPal event")
	}
	ev := ports.WebhookEvent{ID: env.ID, Type: env.EventType, Kind: ports.EventIgnored, OccurredAt: env.CreateTime.UTC(), Payload: body}
	var r resource
	if err := json.Unmarshal(env.Resource, &r); err != nil {
		return ev, nil //nolint:nilerr // a resource we do not read: stored and ignored
	}
	var amount decimal.Decimal
	if r.Amount != nil {
		ev.Currency = domain.Currency(r.Amount.CurrencyCode)
		amount, _ = decimal.NewFromString(r.Amount.Value)
	}
	switch env.EventType {
	case "PAYMENT.CAPTURE.COMPLETED", "PAYMENT.CAPTURE.DENIED", "PAYMENT.CAPTURE.DECLINED":
		ev.TransactionID, ev.ProviderReference, ev.PaymentID, ev.Amount = r.SupplementaryData.RelatedIDs.OrderID, r.ID, r.CustomID, amount
		ev.Kind = ports.EventPaymentSucceeded
		if env.EventType != "PAYMENT.CAPTURE.COMPLETED" {
			ev.Kind, ev.DeclineCode, ev.DeclineMessage = ports.EventPaymentFailed, "card_declined", "PayPal declined the capture"
		}
	case "PAYMENT.AUTHORIZATION.VOIDED":
		ev.TransactionID, ev.ProviderReference, ev.PaymentID = r.SupplementaryData.RelatedIDs.OrderID, r.ID, r.CustomID
		ev.Kind = ports.EventPaymentCanceled
	case "PAYMENT.CAPTURE.REFUNDED", "PAYMENT.REFUND.COMPLETED", "PAYMENT.REFUND.FAILED":
		ev.Kind = ports.EventRefundUpdated
		for _, l := range r.Links {
			if l.Rel == "up" {
				ev.ProviderReference = l.Href[strings.LastIndex(l.Href, "/")+1:]
			}
		}
		ev.Refunds = []ports.WebhookRefund{{ProviderRefundID: r.ID, RefundID: r.CustomID, Amount: amount, Status: refundStatus(r.Status)}}
	}
	return ev, nil
}
