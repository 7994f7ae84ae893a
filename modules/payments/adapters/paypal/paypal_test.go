package paypal_test

import (
	"context"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/payments/adapters/paypal"
	"github.com/gocommerce/commerce/modules/payments/domain"
	"github.com/gocommerce/commerce/modules/payments/internal/gatewaytest"
	"github.com/gocommerce/commerce/modules/payments/ports"
)

// fakePayPal is a local stand-in of PayPal's REST API. It checks OAuth2 client
// credentials (Basic auth) on /v1/oauth2/token and the Bearer token everywhere else,
// and verifies webhook signatures the way PayPal documents them: SHA256withRSA over
// "transmission_id|transmission_time|webhook_id|crc32(body)" with the certificate's key.
type fakePayPal struct {
	t        *testing.T
	key      *rsa.PrivateKey
	mu       sync.Mutex
	tokens   int
	approved bool
	seen     map[string]map[string]any
	reqIDs   map[string]string
	srv      *httptest.Server
}

const (
	clientID  = "client-id"
	secret    = "client-secret"
	webhookID = "WH-123"
	token     = "A21AAtoken"
)

func newFake(t *testing.T) *fakePayPal {
	f := &fakePayPal{t: t, key: gatewaytest.RSAKey(t), seen: map[string]map[string]any{}, reqIDs: map[string]string{}}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakePayPal) certURL() string { return f.srv.URL + "/certs/CERT-1" }

func (f *fakePayPal) sign(transmissionID, at string, body []byte) string {
	return gatewaytest.Sign(f.key, fmt.Sprintf("%s|%s|%s|%d", transmissionID, at, webhookID, crc32.ChecksumIEEE(body)))
}

func write(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (f *fakePayPal) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if r.URL.Path == "/v1/oauth2/token" {
		user, pass, ok := r.BasicAuth()
		if !ok || user != clientID || pass != secret || string(body) != "grant_type=client_credentials" ||
			!strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
			write(w, 401, map[string]any{"error": "invalid_client"})
			return
		}
		f.mu.Lock()
		f.tokens++
		f.mu.Unlock()
		write(w, 200, map[string]any{"access_token": token, "token_type": "Bearer", "expires_in": 32400})
		return
	}
	if r.Header.Get("Authorization") != "Bearer "+token {
		write(w, 401, map[string]any{"name": "AUTHENTICATION_FAILURE"})
		return
	}
	var in map[string]any
	if len(body) > 0 {
		if err := json.Unmarshal(body, &in); err != nil {
			write(w, 400, map[string]any{"name": "INVALID_REQUEST"})
			return
		}
	}
	f.mu.Lock()
	f.seen[r.URL.Path] = in
	f.reqIDs[r.URL.Path] = r.Header.Get("PayPal-Request-Id")
	approved := f.approved
	f.mu.Unlock()
	switch r.URL.Path {
	case "/v2/checkout/orders":
		write(w, 201, map[string]any{"id": "ORDER1", "status": "PAYER_ACTION_REQUIRED", "links": []any{
			map[string]any{"rel": "self", "href": f.srv.URL + "/v2/checkout/orders/ORDER1"},
			map[string]any{"rel": "payer-action", "href": "https://www.sandbox.paypal.com/checkoutnow?token=ORDER1"},
		}})
	case "/v2/checkout/orders/ORDER1/capture":
		if !approved {
			write(w, 422, map[string]any{"name": "UNPROCESSABLE_ENTITY", "message": "not approved", "details": []any{map[string]any{"issue": "ORDER_NOT_APPROVED"}}})
			return
		}
		write(w, 201, map[string]any{"id": "ORDER1", "status": "COMPLETED", "purchase_units": []any{map[string]any{"payments": map[string]any{
			"captures": []any{map[string]any{"id": "CAP1", "status": "COMPLETED"}}}}}})
	case "/v2/checkout/orders/ORDER1/authorize":
		write(w, 201, map[string]any{"id": "ORDER1", "status": "COMPLETED", "purchase_units": []any{map[string]any{"payments": map[string]any{
			"authorizations": []any{map[string]any{"id": "AUTH1", "status": "CREATED"}}}}}})
	case "/v2/payments/authorizations/AUTH1/capture":
		write(w, 201, map[string]any{"id": "CAP2", "status": "COMPLETED"})
	case "/v2/payments/authorizations/AUTH1/void":
		w.WriteHeader(204)
	case "/v2/payments/captures/CAP1/refund":
		write(w, 201, map[string]any{"id": "REF1", "status": "COMPLETED"})
	case "/v1/notifications/verify-webhook-signature":
		status := "FAILURE"
		// Recompute over the event as sent (the adapter forwards the raw body).
		var req struct {
			WebhookEvent json.RawMessage `json:"webhook_event"`
		}
		_ = json.Unmarshal(body, &req)
		msg := fmt.Sprintf("%s|%s|%s|%d", in["transmission_id"], in["transmission_time"], in["webhook_id"], crc32.ChecksumIEEE(req.WebhookEvent))
		if in["auth_algo"] == "SHA256withRSA" && in["cert_url"] == f.certURL() && in["webhook_id"] == webhookID &&
			gatewaytest.Verify(&f.key.PublicKey, msg, fmt.Sprint(in["transmission_sig"])) {
			status = "SUCCESS"
		}
		write(w, 200, map[string]any{"verification_status": status})
	default:
		write(w, 404, map[string]any{"name": "RESOURCE_NOT_FOUND"})
	}
}

func TestPayPalOrders(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	ctx := context.Background()
	g := paypal.New(paypal.Config{ClientID: clientID, Secret: secret, WebhookID: webhookID, BaseURL: f.srv.URL})
	res, err := g.Authorize(ctx, ports.ChargeRequest{PaymentID: "pay_1", Amount: decimal.RequireFromString("19.9"), Currency: "EUR",
		MethodType: "paypal", Capture: true, ReturnURL: "https://shop.example/return", IdempotencyKey: "pay_1", Metadata: map[string]string{"order_id": "1001"}})
	if err != nil || res.Status != domain.StatusRequiresAction || res.TransactionID != "ORDER1" || res.Action.Type != "redirect" ||
		res.Action.Data["redirect_url"] != "https://www.sandbox.paypal.com/checkoutnow?token=ORDER1" {
		t.Fatalf("create order: %+v %v", res, err)
	}
	order := f.seen["/v2/checkout/orders"]
	unit := order["purchase_units"].([]any)[0].(map[string]any)
	amount := unit["amount"].(map[string]any)
	ctxt := order["payment_source"].(map[string]any)["paypal"].(map[string]any)["experience_context"].(map[string]any)
	if order["intent"] != "CAPTURE" || amount["currency_code"] != "EUR" || amount["value"] != "19.90" || unit["custom_id"] != "pay_1" ||
		unit["invoice_id"] != "1001" || ctxt["return_url"] != "https://shop.example/return" || f.reqIDs["/v2/checkout/orders"] != "pay_1" {
		t.Fatalf("order body %v", order)
	}
	// Not approved yet: still waiting.
	res, err = g.Complete(ctx, ports.CompleteRequest{PaymentID: "pay_1", TransactionID: "ORDER1", Capture: true})
	if err != nil || res.Status != domain.StatusRequiresAction {
		t.Fatalf("complete before approval: %+v %v", res, err)
	}
	f.mu.Lock()
	f.approved = true
	f.mu.Unlock()
	res, err = g.Complete(ctx, ports.CompleteRequest{PaymentID: "pay_1", TransactionID: "ORDER1", Capture: true})
	if err != nil || res.Status != domain.StatusSucceeded || res.ProviderReference != "CAP1" {
		t.Fatalf("capture order: %+v %v", res, err)
	}
	rr, err := g.Refund(ctx, ports.RefundRequest{RefundID: "ref_1", ProviderReference: "CAP1", Amount: decimal.RequireFromString("5"), Currency: "EUR"})
	if err != nil || rr.Status != domain.RefundSucceeded || rr.ProviderRefundID != "REF1" {
		t.Fatalf("refund: %+v %v", rr, err)
	}
	if body := f.seen["/v2/payments/captures/CAP1/refund"]; body["custom_id"] != "ref_1" || body["amount"].(map[string]any)["value"] != "5.00" || f.reqIDs["/v2/payments/captures/CAP1/refund"] != "ref_1" {
		t.Fatalf("refund body %v", body)
	}
	// Manual capture: authorize, capture the authorization, void.
	res, err = g.Complete(ctx, ports.CompleteRequest{PaymentID: "pay_2", TransactionID: "ORDER1", Capture: false})
	if err != nil || res.Status != domain.StatusRequiresCapture || res.ProviderReference != "AUTH1" {
		t.Fatalf("authorize order: %+v %v", res, err)
	}
	if c, err := g.Capture(ctx, ports.CaptureRequest{PaymentID: "pay_2", ProviderReference: "AUTH1", Amount: decimal.RequireFromString("3"), Currency: "EUR"}); err != nil || c.ProviderReference != "CAP2" {
		t.Fatalf("capture authorization: %+v %v", c, err)
	}
	if err := g.Cancel(ctx, ports.CancelRequest{ProviderReference: "AUTH1", Status: domain.StatusRequiresCapture}); err != nil {
		t.Fatalf("void: %v", err)
	}
	if f.tokens != 1 {
		t.Fatalf("token requests: %d (the token is cached)", f.tokens)
	}
	// Wrong credentials fail at the token endpoint.
	bad := paypal.New(paypal.Config{ClientID: clientID, Secret: "wrong", BaseURL: f.srv.URL})
	if _, err := bad.Authorize(ctx, ports.ChargeRequest{PaymentID: "pay_3", Amount: decimal.RequireFromString("1"), Currency: "EUR", Capture: true}); err == nil {
		t.Fatal("wrong secret accepted")
	}
	if _, err := g.Authorize(ctx, ports.ChargeRequest{Card: &domain.Card{}}); !errors.Is(err, domain.ErrInvalidPaymentMethod) {
		t.Fatalf("card on paypal: %v", err)
	}
}

func TestPayPalWebhook(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	g := paypal.New(paypal.Config{ClientID: clientID, Secret: secret, WebhookID: webhookID, BaseURL: f.srv.URL,
		Now: func() time.Time { return time.Date(2026, 11, 22, 10, 0, 30, 0, time.UTC) }})
	body := []byte(`{"id":"WH-EVT-1","event_type":"PAYMENT.CAPTURE.COMPLETED","create_time":"2026-11-22T10:00:00Z",` +
		`"resource":{"id":"CAP1","status":"COMPLETED","custom_id":"pay_1","amount":{"currency_code":"EUR","value":"19.90"},` +
		`"supplementary_data":{"related_ids":{"order_id":"ORDER1"}}}}`)
	headers := func(b []byte) http.Header {
		h := http.Header{}
		h.Set(paypal.HeaderTransmissionID, "tx-1")
		h.Set(paypal.HeaderTransmissionTime, "2026-11-22T10:00:01Z")
		h.Set(paypal.HeaderTransmissionSig, f.sign("tx-1", "2026-11-22T10:00:01Z", b))
		h.Set(paypal.HeaderCertURL, f.certURL())
		h.Set(paypal.HeaderAuthAlgo, "SHA256withRSA")
		return h
	}
	ev, err := g.ParseWebhook(context.Background(), headers(body), body)
	if err != nil || ev.ID != "WH-EVT-1" || ev.Kind != ports.EventPaymentSucceeded || ev.TransactionID != "ORDER1" || ev.PaymentID != "pay_1" ||
		!ev.Amount.Equal(decimal.RequireFromString("19.90")) {
		t.Fatalf("verified event: %+v %v", ev, err)
	}
	tampered := []byte(strings.Replace(string(body), "19.90", "1.90", 1))
	if _, err := g.ParseWebhook(context.Background(), headers(body), tampered); !errors.Is(err, domain.ErrInvalidSignature) {
		t.Fatalf("tampered: %v", err)
	}
	h := headers(body)
	h.Del(paypal.HeaderTransmissionSig)
	if _, err := g.ParseWebhook(context.Background(), h, body); !errors.Is(err, domain.ErrInvalidSignature) {
		t.Fatalf("missing header: %v", err)
	}
	refund := []byte(`{"id":"WH-EVT-2","event_type":"PAYMENT.CAPTURE.REFUNDED","resource":{"id":"REF1","status":"COMPLETED","custom_id":"ref_1",` +
		`"amount":{"currency_code":"EUR","value":"5.00"},"links":[{"rel":"up","href":"https://api/v2/payments/captures/CAP1"}]}}`)
	ev, err = g.ParseWebhook(context.Background(), headers(refund), refund)
	if err != nil || ev.Kind != ports.EventRefundUpdated || len(ev.Refunds) != 1 || ev.Refunds[0].RefundID != "ref_1" || ev.ProviderReference != "CAP1" {
		t.Fatalf("refund event: %+v %v", ev, err)
	}
}
