package payments_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gocommerce/commerce/platform/httpxtest"
)

// TestIdempotencyKeys: the spec's "unique per attempt; reuse yields
// IDEMPOTENCY_KEY_REUSED". Any reuse is 409 and charges nothing; a retry of the same
// request is told the payment_id its key made; concurrent duplicates charge once.
func TestIdempotencyKeys(t *testing.T) {
	eachStack(t, stackOptions{}, func(t *testing.T, s *stack) {
		reused := func(r httpxtest.Response, paymentID any) {
			t.Helper()
			e := sub(r.Body, "error")
			if r.Code != 409 || e["code"] != "IDEMPOTENCY_KEY_REUSED" || e["status"] != float64(409) || e["payment_id"] != paymentID {
				t.Fatalf("reuse: %d %s, want 409 IDEMPOTENCY_KEY_REUSED with payment_id %v", r.Code, r.Raw, paymentID)
			}
		}

		body := payBody("25.00", "4242424242424242")
		body["idempotency_key"] = "order-1001-attempt-1"
		first := s.do(http.MethodPost, "/api/v1/payments", "merchant", body)
		if first.Code != 200 {
			t.Fatalf("first: %d %s", first.Code, first.Raw)
		}
		pid := first.Body["payment_id"]
		charges := s.gw.Charges()
		// The same request again, in the body or the header ("25.0" is the same amount).
		reused(s.do(http.MethodPost, "/api/v1/payments", "merchant", body), pid)
		same := payBody("25.0", "4242 4242 4242 4242")
		reused(s.do(http.MethodPost, "/api/v1/payments", "merchant", same, "Idempotency-Key", "order-1001-attempt-1"), pid)
		// Another request with the key: 409 without a payment to point at.
		other := payBody("26.00", "4242424242424242")
		other["idempotency_key"] = "order-1001-attempt-1"
		reused(s.do(http.MethodPost, "/api/v1/payments", "merchant", other), nil)
		if s.gw.Charges() != charges {
			t.Fatalf("a reused key charged: %d → %d", charges, s.gw.Charges())
		}
		// Keys are per caller: another key may use the same string.
		if r := s.do(http.MethodPost, "/api/v1/payments", "admin", body); r.Code != 200 || r.Body["payment_id"] == pid {
			t.Fatalf("other caller: %d %s", r.Code, r.Raw)
		}
		// Body and header disagreeing is a validation error; so is a key too long.
		if r := s.do(http.MethodPost, "/api/v1/payments", "merchant", body, "Idempotency-Key", "other"); r.Code != 400 {
			t.Fatalf("conflicting keys: %d %s", r.Code, r.Raw)
		}
		long := payBody("25.00", "4242424242424242")
		long["idempotency_key"] = strings.Repeat("k", 256)
		if r := s.do(http.MethodPost, "/api/v1/payments", "merchant", long); r.Code != 400 {
			t.Fatalf("long key: %d %s", r.Code, r.Raw)
		}
		// A declined attempt used its key too.
		decl := payBody("25.00", "4000000000000002")
		decl["idempotency_key"] = "declined-1"
		d1 := s.do(http.MethodPost, "/api/v1/payments", "merchant", decl)
		if d1.Code != 402 {
			t.Fatalf("declined: %d %s", d1.Code, d1.Raw)
		}
		reused(s.do(http.MethodPost, "/api/v1/payments", "merchant", decl), d1.Body["payment_id"])
		if n := s.Count("payments_payments", ""); n != 3 {
			t.Fatalf("payments: %d, want 3", n)
		}

		// 20 parallel identical requests: exactly one charge, one payment, one 200.
		par := payBody("30.00", "4242424242424242")
		par["idempotency_key"] = "parallel-1"
		before := s.gw.Charges()
		stored := s.Count("payments_payments", "")
		paid, others := httpxtest.WithCode(httpxtest.Concurrently(20, func(int) httpxtest.Response {
			return s.do(http.MethodPost, "/api/v1/payments", "merchant", par)
		}), 200)
		if len(paid) != 1 {
			t.Fatalf("parallel: %d answered 200, want 1", len(paid))
		}
		for _, r := range others {
			reused(r, paid[0].Body["payment_id"])
		}
		if got := s.gw.Charges() - before; got != 1 {
			t.Fatalf("parallel charges: %d", got)
		}
		if n := s.Count("payments_payments", ""); n != stored+1 {
			t.Fatalf("parallel payments: %d new", n-stored)
		}
		if n := s.Count("payments_idempotency_keys", "idem_key = ?", "parallel-1"); n != 1 {
			t.Fatalf("idempotency rows: %d", n)
		}
		if n := len(s.Payloads("payment.succeeded", paid[0].Body["payment_id"].(string))); n != 1 {
			t.Fatalf("succeeded events: %d", n)
		}
	})
}

// TestRefundIdempotencyKeys: refunds follow the same rule (decision 0092): a reused key
// (header or body) is 409 IDEMPOTENCY_KEY_REUSED and refunds nothing; a retry of the
// same refund is told its refund_id; concurrent retries refund once.
func TestRefundIdempotencyKeys(t *testing.T) {
	eachStack(t, stackOptions{}, func(t *testing.T, s *stack) {
		id := s.pay("merchant", "50.00", "4242424242424242").Body["payment_id"].(string)
		path := "/api/v1/payments/" + id + "/refund"
		refunded := func() any {
			t.Helper()
			return sub(s.do(http.MethodGet, "/api/v1/payments/"+id, "merchant", nil).Body, "data")["amount_refunded"]
		}
		reused := func(r httpxtest.Response, refundID any) {
			t.Helper()
			e := sub(r.Body, "error")
			if r.Code != 409 || e["code"] != "IDEMPOTENCY_KEY_REUSED" || e["refund_id"] != refundID {
				t.Fatalf("reuse: %d %s, want 409 IDEMPOTENCY_KEY_REUSED with refund_id %v", r.Code, r.Raw, refundID)
			}
		}

		body := map[string]any{"amount": "20.00", "reason": "requested_by_customer", "metadata": map[string]any{"ticket": "T-1"}}
		first := s.do(http.MethodPost, path, "merchant", body, "Idempotency-Key", "refund-T-1")
		if first.Code != 200 || sub(first.Body, "data")["amount"] != "20.00" {
			t.Fatalf("first: %d %s", first.Code, first.Raw)
		}
		rid := sub(first.Body, "data")["refund_id"]
		// The retry (header, or the same key in the body, "20.0" being the same amount).
		reused(s.do(http.MethodPost, path, "merchant", body, "Idempotency-Key", "refund-T-1"), rid)
		inBody := map[string]any{"amount": "20.0", "reason": "requested_by_customer", "metadata": map[string]any{"ticket": "T-1"}, "idempotency_key": "refund-T-1"}
		reused(s.do(http.MethodPost, path, "merchant", inBody), rid)
		// The key with another amount, reason or payment: 409 without a refund to point at.
		other := s.pay("merchant", "30.00", "4242424242424242").Body["payment_id"].(string)
		for _, c := range []struct {
			path string
			body map[string]any
		}{
			{path, map[string]any{"amount": "21.00", "reason": "requested_by_customer", "metadata": map[string]any{"ticket": "T-1"}}},
			{path, map[string]any{"reason": "requested_by_customer", "metadata": map[string]any{"ticket": "T-1"}}},
			{"/api/v1/payments/" + other + "/refund", body},
		} {
			reused(s.do(http.MethodPost, c.path, "merchant", c.body, "Idempotency-Key", "refund-T-1"), nil)
		}
		// A payment's key is not a refund's.
		pay := payBody("10.00", "4242424242424242")
		pay["idempotency_key"] = "pay-1"
		if r := s.do(http.MethodPost, "/api/v1/payments", "merchant", pay); r.Code != 200 {
			t.Fatalf("pay: %d %s", r.Code, r.Raw)
		}
		reused(s.do(http.MethodPost, path, "merchant", map[string]any{"amount": "1.00"}, "Idempotency-Key", "pay-1"), nil)
		if got := refunded(); got != "20.00" || s.Count("payments_refunds", "payment_id = ?", id) != 1 || s.Count("payments_refunds", "payment_id = ?", other) != 0 {
			t.Fatalf("after reused keys: refunded %v", got)
		}
		if n := len(s.Payloads("refund.created", "")); n != 1 {
			t.Fatalf("refund.created events: %d", n)
		}
		// Header and body disagreeing, or a key too long: 400.
		if r := s.do(http.MethodPost, path, "merchant", inBody, "Idempotency-Key", "other"); r.Code != 400 {
			t.Fatalf("conflicting keys: %d %s", r.Code, r.Raw)
		}
		if r := s.do(http.MethodPost, path, "merchant", map[string]any{"amount": "1.00"}, "Idempotency-Key", strings.Repeat("k", 256)); r.Code != 400 {
			t.Fatalf("long key: %d %s", r.Code, r.Raw)
		}
		// A refusal stores nothing: the key stays free for a valid request.
		if r := s.do(http.MethodPost, path, "merchant", map[string]any{"amount": "31.00"}, "Idempotency-Key", "try-1"); r.Code != 400 || errCode(r) != "REFUND_AMOUNT_INVALID" {
			t.Fatalf("too much: %d %s", r.Code, r.Raw)
		}
		if r := s.do(http.MethodPost, path, "merchant", map[string]any{"amount": "5.00"}, "Idempotency-Key", "try-1"); r.Code != 200 {
			t.Fatalf("the key after a refusal: %d %s", r.Code, r.Raw)
		}

		// Ten concurrent identical requests for the rest (25.00): one refund.
		done, others := httpxtest.WithCode(httpxtest.Concurrently(10, func(int) httpxtest.Response {
			return s.do(http.MethodPost, path, "merchant", map[string]any{"reason": "fraudulent"}, "Idempotency-Key", "rest-1")
		}), 200)
		if len(done) != 1 || sub(done[0].Body, "data")["amount"] != "25.00" {
			t.Fatalf("parallel: %d answered 200", len(done))
		}
		for _, r := range others {
			reused(r, sub(done[0].Body, "data")["refund_id"])
		}
		if got := refunded(); got != "50.00" || s.Count("payments_refunds", "payment_id = ?", id) != 3 {
			t.Fatalf("after parallel: refunded %v, %d refunds", got, s.Count("payments_refunds", "payment_id = ?", id))
		}
	})
}
