package payments_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v85/webhook"

	"github.com/gocommerce/commerce/modules/payments/adapters/stripe"
	"github.com/gocommerce/commerce/modules/payments/ports"
	"github.com/gocommerce/commerce/platform/httpxtest"
)

// signed builds a test gateway webhook delivery (Stripe's scheme, Test-Signature).
func signed(t *testing.T, event map[string]any, secret string, at time.Time) ([]byte, string) {
	t.Helper()
	raw, err := json.Marshal(event)
	if err != nil {
		t.Fatal(err)
	}
	p := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: raw, Secret: secret, Timestamp: at})
	return raw, p.Header
}

func stripeEvent(id, typ string, object map[string]any) map[string]any {
	return map[string]any{"id": id, "object": "event", "type": typ, "api_version": "2019-02-19", "created": time.Now().Unix(),
		"data": map[string]any{"object": object}}
}

// TestProviderWebhooks: verified, stored once, mapped onto payments and refunds.
func TestProviderWebhooks(t *testing.T) {
	eachStack(t, stackOptions{}, func(t *testing.T, s *stack) {
		deliver := func(ev map[string]any) httpxtest.Response {
			t.Helper()
			raw, header := signed(t, ev, webhookSecret, time.Now())
			return s.do(http.MethodPost, "/api/v2/webhooks/test", "", raw, "Test-Signature", header)
		}

		// A 3D Secure payment the customer finished while the client was away.
		r := s.pay("alice", "19.99", "4000002500003155")
		id, txn := r.Body["payment_id"].(string), sub(r.Body, "action_data")["payment_intent"].(string)
		ev := stripeEvent("evt_1", "payment_intent.succeeded", map[string]any{
			"id": txn, "object": "payment_intent", "amount": 1999, "currency": "usd", "status": "succeeded", "metadata": map[string]any{"payment_id": id},
		})
		got := deliver(ev)
		if got.Code != 200 || got.Raw != `{"received":true}` {
			t.Fatalf("deliver: %d %s", got.Code, got.Raw)
		}
		if types := s.EventTypes(id); !slices.Equal(types, []string{"payment.created", "payment.requires_action", "payment.action_completed", "payment.succeeded"}) {
			t.Fatalf("events %v", types)
		}
		// Duplicate delivery: acknowledged, not reprocessed.
		if got := deliver(ev); got.Code != 200 || got.Body["received"] != true || len(s.EventTypes(id)) != 4 ||
			s.Count("payments_webhook_events", "gateway = ? AND provider_event_id = ?", "test", "evt_1") != 1 {
			t.Fatalf("duplicate: %d %s", got.Code, got.Raw)
		}
		// Bad signatures, stale timestamps and missing headers are 400; unknown gateways 404.
		raw, _ := signed(t, ev, "whsec_wrong", time.Now())
		_, header := signed(t, ev, "whsec_wrong", time.Now())
		if got := s.do(http.MethodPost, "/api/v2/webhooks/test", "", raw, "Test-Signature", header); got.Code != 400 {
			t.Fatalf("bad signature: %d %s", got.Code, got.Raw)
		}
		raw, header = signed(t, stripeEvent("evt_old", "payment_intent.succeeded", map[string]any{"id": txn}), webhookSecret, time.Now().Add(-10*time.Minute))
		if got := s.do(http.MethodPost, "/api/v2/webhooks/test", "", raw, "Test-Signature", header); got.Code != 400 {
			t.Fatalf("stale timestamp: %d %s", got.Code, got.Raw)
		}
		if got := s.do(http.MethodPost, "/api/v2/webhooks/test", "", raw); got.Code != 400 {
			t.Fatalf("unsigned: %d %s", got.Code, got.Raw)
		}
		for _, gw := range []string{"nope", "stripe"} {
			if got := s.do(http.MethodPost, "/api/v2/webhooks/"+gw, "", raw, "Stripe-Signature", header); got.Code != 404 || errCode(got) != "GATEWAY_NOT_FOUND" {
				t.Fatalf("%s: %d %s", gw, got.Code, got.Raw)
			}
		}
		if n := s.Count("payments_webhook_events", ""); n != 1 {
			t.Fatalf("stored events: %d", n)
		}

		// payment_intent.payment_failed and .canceled.
		r = s.pay("merchant", "5.00", "4000000000003220")
		id2, txn2 := r.Body["payment_id"].(string), sub(r.Body, "action_data")["payment_intent"].(string)
		deliver(stripeEvent("evt_2", "payment_intent.payment_failed", map[string]any{
			"id": txn2, "object": "payment_intent", "amount": 500, "currency": "usd",
			"last_payment_error": map[string]any{"code": "card_declined", "decline_code": "insufficient_funds", "message": "Insufficient funds"},
		}))
		g := s.do(http.MethodGet, "/api/v1/payments/"+id2, "merchant", nil)
		if sub(g.Body, "data")["status"] != "failed" || s.Payloads("payment.failed", id2)[0]["error_code"] != "insufficient_funds" {
			t.Fatalf("payment_failed: %s", g.Raw)
		}
		r = s.pay("merchant", "5.00", "4000000000003220")
		id3, txn3 := r.Body["payment_id"].(string), sub(r.Body, "action_data")["payment_intent"].(string)
		deliver(stripeEvent("evt_3", "payment_intent.canceled", map[string]any{"id": txn3, "object": "payment_intent", "amount": 500, "currency": "usd"}))
		if types := s.EventTypes(id3); types[len(types)-1] != "payment.canceled" {
			t.Fatalf("canceled events %v", types)
		}

		// charge.refunded: a refund made on the provider's side is recorded.
		paid := s.pay("merchant", "30.00", "4242424242424242")
		pid, ptxn := paid.Body["payment_id"].(string), paid.Body["transaction_id"].(string)
		deliver(stripeEvent("evt_4", "charge.refunded", map[string]any{
			"id": "ch_1", "object": "charge", "payment_intent": ptxn, "amount": 3000, "amount_refunded": 1000, "currency": "usd",
			"refunds": map[string]any{"data": []any{map[string]any{"id": "re_dash_1", "amount": 1000, "status": "succeeded"}}},
		}))
		g = s.do(http.MethodGet, "/api/v1/payments/"+pid, "merchant", nil)
		if d := sub(g.Body, "data"); d["status"] != "partially_refunded" || d["amount_refunded"] != "10.00" {
			t.Fatalf("charge.refunded: %s", g.Raw)
		}
		if n := len(s.Payloads("refund.succeeded", "")); n != 1 {
			t.Fatalf("refund.succeeded: %d", n)
		}
		// The same refund reported again (another event) is not recorded twice.
		deliver(stripeEvent("evt_5", "charge.refunded", map[string]any{
			"id": "ch_1", "object": "charge", "payment_intent": ptxn, "amount": 3000, "amount_refunded": 1000, "currency": "usd",
			"refunds": map[string]any{"data": []any{map[string]any{"id": "re_dash_1", "amount": 1000, "status": "succeeded"}}},
		}))
		if n := s.Count("payments_refunds", "payment_id = ?", pid); n != 1 {
			t.Fatalf("refunds after repeat: %d", n)
		}
		// A duplicate delivery is not processed again: this event's refund has no
		// provider id, so processing it twice would record it twice.
		anon := stripeEvent("evt_5b", "charge.refunded", map[string]any{
			"id": "ch_1", "object": "charge", "payment_intent": ptxn, "amount": 3000, "amount_refunded": 1500, "currency": "usd",
			"refunds": map[string]any{"data": []any{map[string]any{"amount": 500, "status": "succeeded"}}},
		})
		deliver(anon)
		deliver(anon)
		if n := s.Count("payments_refunds", "payment_id = ?", pid); n != 2 {
			t.Fatalf("refunds after a duplicate delivery: %d", n)
		}

		// invoice.paid / invoice.payment_failed: subscription payments.
		deliver(stripeEvent("evt_6", "invoice.paid", map[string]any{
			"id": "in_1", "object": "invoice", "amount_paid": 1500, "currency": "eur", "customer": "cus_1",
			"subscription": "sub_1", "payment_intent": "pi_sub_1", "customer_email": "ada@example.com",
		}))
		evs := s.Payloads("payment.succeeded", "")
		last := evs[len(evs)-1]
		if last["amount"] != "15.00" || last["currency"] != "EUR" || sub(last, "subscription")["subscription_id"] != "sub_1" ||
			sub(last, "subscription")["invoice_id"] != "in_1" || last["transaction_id"] != "pi_sub_1" {
			t.Fatalf("invoice.paid event %v", last)
		}
		deliver(stripeEvent("evt_7", "invoice.payment_failed", map[string]any{
			"id": "in_2", "object": "invoice", "amount_due": 1500, "currency": "eur",
			"parent": map[string]any{"subscription_details": map[string]any{"subscription": "sub_2"}},
		}))
		evs = s.Payloads("payment.failed", "")
		last = evs[len(evs)-1]
		if last["status"] != "failed" || sub(last, "subscription")["subscription_id"] != "sub_2" {
			t.Fatalf("invoice.payment_failed event %v", last)
		}
		// An event type the service does not map is stored and acknowledged.
		if got := deliver(stripeEvent("evt_8", "customer.created", map[string]any{"id": "cus_9", "object": "customer"})); got.Code != 200 {
			t.Fatalf("unmapped: %d", got.Code)
		}
		if n := s.Count("payments_webhook_events", ""); n != 9 {
			t.Fatalf("stored events: %d", n)
		}
	})
}

// TestStripeWebhookOverHTTP delivers a Stripe-signed invoice event to the stripe gateway.
func TestStripeWebhookOverHTTP(t *testing.T) {
	eachStack(t, stackOptions{extra: []ports.Gateway{stripe.New(stripe.Config{WebhookSecret: "whsec_stripe"})}}, func(t *testing.T, s *stack) {
		ev := stripeEvent("evt_s1", "invoice.paid", map[string]any{
			"id": "in_9", "object": "invoice", "amount_paid": 2500, "currency": "usd", "subscription": "sub_9", "payment_intent": "pi_9",
		})
		raw, header := signed(t, ev, "whsec_stripe", time.Now())
		if r := s.do(http.MethodPost, "/api/v2/webhooks/stripe", "", raw, "Stripe-Signature", header); r.Code != 200 || r.Body["received"] != true {
			t.Fatalf("stripe webhook: %d %s", r.Code, r.Raw)
		}
		if r := s.do(http.MethodPost, "/api/v2/webhooks/stripe", "", raw, "Stripe-Signature", "t=1,v1=00"); r.Code != 400 || errCode(r) != "INVALID_SIGNATURE" {
			t.Fatalf("bad signature: %d %s", r.Code, r.Raw)
		}
		evs := s.Payloads("payment.succeeded", "")
		if len(evs) != 1 || evs[0]["gateway"] != "stripe" || sub(evs[0], "subscription")["subscription_id"] != "sub_9" {
			t.Fatalf("events %v", evs)
		}
	})
}
