package stripe_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stripe/stripe-go/v85/webhook"

	"github.com/gocommerce/commerce/modules/payments/adapters/stripe"
	"github.com/gocommerce/commerce/modules/payments/adapters/stripe/stripemock"
	"github.com/gocommerce/commerce/modules/payments/domain"
	"github.com/gocommerce/commerce/modules/payments/ports"
)

// TestAgainstStripeMock runs every call of the adapter against stripe-mock (which
// validates each request against Stripe's OpenAPI specification) and checks what was
// sent.
func TestAgainstStripeMock(t *testing.T) {
	rec, base := stripemock.Start(t)
	g := stripe.New(stripe.Config{APIKey: "sk_test_123", BaseURL: base, CaptureMethod: "manual", StatementDescriptor: "SHOP"})
	ctx := context.Background()
	c := domain.Card{Number: "4242 4242 4242 4242", ExpMonth: 12, ExpYear: 2030, CVC: "987", Name: "Ada Lovelace"}

	res, err := g.Authorize(ctx, ports.ChargeRequest{
		PaymentID: "pay_1", Amount: decimal.RequireFromString("19.99"), Currency: "USD", MethodType: "card", Card: &c,
		Capture: false, ReturnURL: "https://shop.example/return", Metadata: map[string]string{"payment_id": "pay_1"},
		IdempotencyKey: "pay_1", CustomerEmail: "ada@example.com",
	})
	if err != nil {
		t.Fatalf("authorize: %v", err)
	}
	if !strings.HasPrefix(res.TransactionID, "pi_") || res.Card == nil || res.Card.Brand != "visa" {
		t.Fatalf("authorize result %+v", res)
	}
	pm := rec.Last("/v1/payment_methods")
	if pm.Form.Get("type") != "card" || pm.Form.Get("card[number]") != "4242424242424242" || pm.Form.Get("card[cvc]") != "987" ||
		pm.Form.Get("card[exp_month]") != "12" || pm.Form.Get("billing_details[name]") != "Ada Lovelace" ||
		pm.Header.Get("Authorization") != "Bearer sk_test_123" {
		t.Fatalf("payment method request %+v", pm)
	}
	pi := rec.Last("/v1/payment_intents")
	for k, want := range map[string]string{
		"amount": "1999", "currency": "usd", "confirm": "true", "capture_method": "manual", "payment_method_types[0]": "card",
		"metadata[payment_id]": "pay_1", "return_url": "https://shop.example/return", "statement_descriptor_suffix": "SHOP",
		"receipt_email": "ada@example.com", "expand[0]": "latest_charge",
	} {
		if got := pi.Form.Get(k); got != want {
			t.Errorf("payment intent %s = %q, want %q", k, got, want)
		}
	}
	if pi.Form.Get("payment_method") == "" || pi.Header.Get("Idempotency-Key") != "pay_1" {
		t.Errorf("payment intent request %+v", pi)
	}

	if _, err := g.Complete(ctx, ports.CompleteRequest{PaymentID: "pay_1", TransactionID: res.TransactionID, Capture: true}); err != nil {
		t.Fatalf("complete: %v", err)
	}
	if _, err := g.Capture(ctx, ports.CaptureRequest{PaymentID: "pay_1", TransactionID: res.TransactionID, Amount: decimal.RequireFromString("10.00"), Currency: "USD"}); err != nil {
		t.Fatalf("capture: %v", err)
	}
	if f := rec.Last("/v1/payment_intents/" + res.TransactionID + "/capture").Form; f.Get("amount_to_capture") != "1000" {
		t.Errorf("capture form %v", f)
	}
	if err := g.Cancel(ctx, ports.CancelRequest{PaymentID: "pay_1", TransactionID: res.TransactionID}); err != nil {
		t.Fatalf("cancel: %v", err)
	}
	rr, err := g.Refund(ctx, ports.RefundRequest{RefundID: "ref_1", PaymentID: "pay_1", TransactionID: res.TransactionID,
		Amount: decimal.RequireFromString("5.00"), Currency: "USD", Reason: "requested_by_customer"})
	if err != nil || !strings.HasPrefix(rr.ProviderRefundID, "re_") {
		t.Fatalf("refund: %+v %v", rr, err)
	}
	if f := rec.Last("/v1/refunds").Form; f.Get("payment_intent") != res.TransactionID || f.Get("amount") != "500" ||
		f.Get("reason") != "requested_by_customer" || f.Get("metadata[refund_id]") != "ref_1" {
		t.Errorf("refund form %v", f)
	}
	saved, err := g.SaveMethod(ctx, ports.SaveMethodRequest{Card: c, Owner: "customer:1"})
	if err != nil || !strings.HasPrefix(saved.ProviderToken, "pm_") || !strings.HasPrefix(saved.ProviderCustomer, "cus_") {
		t.Fatalf("save: %+v %v", saved, err)
	}
	if f := rec.Last("/v1/payment_methods/" + saved.ProviderToken + "/attach").Form; f.Get("customer") != saved.ProviderCustomer {
		t.Errorf("attach form %v", f)
	}
	if err := g.DeleteMethod(ctx, saved.ProviderToken, saved.ProviderCustomer); err != nil {
		t.Fatalf("detach: %v", err)
	}
	// A saved method is charged with its customer.
	if _, err := g.Authorize(ctx, ports.ChargeRequest{PaymentID: "pay_2", Amount: decimal.RequireFromString("5"), Currency: "JPY",
		MethodType: "saved_card", Saved: &ports.SavedInstrument{ProviderToken: saved.ProviderToken, ProviderCustomer: saved.ProviderCustomer}, Capture: true}); err != nil {
		t.Fatalf("authorize saved: %v", err)
	}
	if f := rec.Last("/v1/payment_intents").Form; f.Get("customer") != saved.ProviderCustomer || f.Get("amount") != "5" || f.Get("currency") != "jpy" {
		t.Errorf("saved payment intent form %v", f)
	}
}

// fakeStripe answers fixed Stripe JSON, to check how the adapter maps outcomes that
// stripe-mock's static fixtures cannot produce.
func fakeStripe(t *testing.T, status int, body string) *stripe.Gateway {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/v1/payment_methods" {
			_, _ = io.WriteString(w, `{"id":"pm_1","object":"payment_method","card":{"brand":"visa","last4":"3155","exp_month":12,"exp_year":2030}}`)
			return
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return stripe.New(stripe.Config{APIKey: "sk_test_1", BaseURL: srv.URL})
}

func TestOutcomeMapping(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	req := ports.ChargeRequest{PaymentID: "pay_1", Amount: decimal.RequireFromString("1"), Currency: "USD", Capture: true,
		Card: &domain.Card{Number: "4000002500003155", ExpMonth: 12, ExpYear: 2030}}
	cases := []struct {
		name   string
		status int
		body   string
		want   domain.Status
		code   string
	}{
		{"succeeded", 200, `{"id":"pi_1","object":"payment_intent","status":"succeeded","latest_charge":{"id":"ch_1","receipt_url":"https://r"}}`, domain.StatusSucceeded, ""},
		{"requires_capture", 200, `{"id":"pi_1","object":"payment_intent","status":"requires_capture"}`, domain.StatusRequiresCapture, ""},
		{"requires_action", 200, `{"id":"pi_1","object":"payment_intent","status":"requires_action","client_secret":"pi_1_secret_x","next_action":{"type":"redirect_to_url","redirect_to_url":{"url":"https://hooks.stripe.com/3ds"}}}`, domain.StatusRequiresAction, ""},
		{"card error", 402, `{"error":{"type":"card_error","code":"card_declined","decline_code":"insufficient_funds","message":"Your card has insufficient funds.","payment_intent":{"id":"pi_9"}}}`, domain.StatusFailed, "insufficient_funds"},
		{"failed attempt", 200, `{"id":"pi_1","object":"payment_intent","status":"requires_payment_method","last_payment_error":{"code":"incorrect_cvc","message":"bad cvc"}}`, domain.StatusFailed, "incorrect_cvc"},
	}
	for _, c := range cases {
		res, err := fakeStripe(t, c.status, c.body).Authorize(ctx, req)
		if err != nil || res.Status != c.want || res.DeclineCode != c.code {
			t.Errorf("%s: %+v %v", c.name, res, err)
		}
		if c.want == domain.StatusRequiresAction && (res.Action == nil || res.Action.Data["redirect_url"] != "https://hooks.stripe.com/3ds" ||
			res.Action.Data["payment_intent_client_secret"] != "pi_1_secret_x" || res.Action.Type != "three_d_secure") {
			t.Errorf("action %+v", res.Action)
		}
		if c.name == "succeeded" && (res.ReceiptURL != "https://r" || res.ProviderReference != "ch_1" || res.Card.LastFour != "3155") {
			t.Errorf("succeeded %+v", res)
		}
	}
	// Server errors stay errors (the service records processing_error).
	if _, err := fakeStripe(t, 500, `{"error":{"type":"api_error","message":"boom"}}`).Authorize(ctx, req); err == nil {
		t.Error("api error swallowed")
	}
}

// TestWebhookVerification checks the Stripe-Signature scheme on payloads signed here.
func TestWebhookVerification(t *testing.T) {
	t.Parallel()
	g := stripe.New(stripe.Config{APIKey: "sk_test_1", WebhookSecret: "whsec_1"})
	payload, _ := json.Marshal(map[string]any{
		"id": "evt_1", "object": "event", "type": "payment_intent.succeeded", "api_version": "2015-10-16", // any api_version
		"data": map[string]any{"object": map[string]any{"id": "pi_1", "object": "payment_intent", "amount": 1999, "currency": "usd", "metadata": map[string]any{"payment_id": "pay_1"}}},
	})
	sign := func(secret string, at time.Time) http.Header {
		p := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: at})
		return http.Header{"Stripe-Signature": {p.Header}}
	}
	ev, err := g.ParseWebhook(context.Background(), sign("whsec_1", time.Now()), payload)
	if err != nil || ev.ID != "evt_1" || ev.Kind != ports.EventPaymentSucceeded || ev.TransactionID != "pi_1" || ev.PaymentID != "pay_1" ||
		!ev.Amount.Equal(decimal.RequireFromString("19.99")) || ev.Currency != "USD" {
		t.Fatalf("verified event %+v %v", ev, err)
	}
	for name, h := range map[string]http.Header{
		"wrong secret": sign("whsec_2", time.Now()),
		"too old":      sign("whsec_1", time.Now().Add(-6*time.Minute)),
		"missing":      {},
		"garbage":      {"Stripe-Signature": {"t=1,v1=zz"}},
	} {
		if _, err := g.ParseWebhook(context.Background(), h, payload); !errors.Is(err, domain.ErrInvalidSignature) {
			t.Errorf("%s: %v", name, err)
		}
	}
	// A tampered body fails.
	if _, err := g.ParseWebhook(context.Background(), sign("whsec_1", time.Now()), append([]byte(" "), payload...)); !errors.Is(err, domain.ErrInvalidSignature) {
		t.Errorf("tampered: %v", err)
	}
}
