package payments_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/gocommerce/commerce/platform/testdb"
)

// TestIdempotencyKeys: same key and request replay the stored answer without a second
// charge; a different request is IDEMPOTENCY_KEY_REUSED; concurrent duplicates charge
// once.
func TestIdempotencyKeys(t *testing.T) {
	for _, engine := range testdb.Engines() {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			s := newStack(t, engine, stackOptions{})

			body := payBody("25.00", "4242424242424242")
			body["idempotency_key"] = "order-1001-attempt-1"
			first := s.do(http.MethodPost, "/api/v1/payments", "merchant", body)
			if first.Code != 200 {
				t.Fatalf("first: %d %s", first.Code, first.Raw)
			}
			charges := s.gw.Charges()
			second := s.do(http.MethodPost, "/api/v1/payments", "merchant", body)
			if second.Code != first.Code || second.Raw != first.Raw || s.gw.Charges() != charges {
				t.Fatalf("replay: %d %s (charges %d → %d)", second.Code, second.Raw, charges, s.gw.Charges())
			}
			// The header works the same way, and a request equal but for "25.0" is the same request.
			same := payBody("25.0", "4242 4242 4242 4242")
			if r := s.do(http.MethodPost, "/api/v1/payments", "merchant", same, "Idempotency-Key", "order-1001-attempt-1"); r.Raw != first.Raw {
				t.Fatalf("header replay: %d %s", r.Code, r.Raw)
			}
			// Same key, different request.
			other := payBody("26.00", "4242424242424242")
			other["idempotency_key"] = "order-1001-attempt-1"
			r := s.do(http.MethodPost, "/api/v1/payments", "merchant", other)
			if r.Code != 409 || errCode(r) != "IDEMPOTENCY_KEY_REUSED" {
				t.Fatalf("reused: %d %s", r.Code, r.Raw)
			}
			// Keys are per caller: another key may use the same string.
			if r := s.do(http.MethodPost, "/api/v1/payments", "admin", body); r.Code != 200 || r.Body["payment_id"] == first.Body["payment_id"] {
				t.Fatalf("other caller: %d %s", r.Code, r.Raw)
			}
			// Body and header disagreeing is a validation error.
			if r := s.do(http.MethodPost, "/api/v1/payments", "merchant", body, "Idempotency-Key", "other"); r.Code != 400 {
				t.Fatalf("conflicting keys: %d %s", r.Code, r.Raw)
			}
			// A decline is replayed with its 402 and body.
			decl := payBody("25.00", "4000000000000002")
			decl["idempotency_key"] = "declined-1"
			d1 := s.do(http.MethodPost, "/api/v1/payments", "merchant", decl)
			d2 := s.do(http.MethodPost, "/api/v1/payments", "merchant", decl)
			if d1.Code != 402 || d2.Code != 402 || d1.Raw != d2.Raw {
				t.Fatalf("declined replay: %d %s / %d %s", d1.Code, d1.Raw, d2.Code, d2.Raw)
			}
			if n := s.count("payments_payments", ""); n != 3 {
				t.Fatalf("payments: %d, want 3", n)
			}

			// 20 parallel identical requests: exactly one charge, one payment, one answer.
			par := payBody("30.00", "4242424242424242")
			par["idempotency_key"] = "parallel-1"
			before := s.gw.Charges()
			stored := s.count("payments_payments", "")
			var wg sync.WaitGroup
			out := make([]response, 20)
			for i := range out {
				wg.Add(1)
				go func(i int) {
					defer wg.Done()
					out[i] = s.do(http.MethodPost, "/api/v1/payments", "merchant", par)
				}(i)
			}
			wg.Wait()
			for i, r := range out {
				if r.Code != 200 || r.Raw != out[0].Raw {
					t.Fatalf("parallel %d: %d %s (first %s)", i, r.Code, r.Raw, out[0].Raw)
				}
			}
			if got := s.gw.Charges() - before; got != 1 {
				t.Fatalf("parallel charges: %d", got)
			}
			if n := s.count("payments_payments", ""); n != stored+1 {
				t.Fatalf("parallel payments: %d new", n-stored)
			}
			if n := s.count("payments_idempotency_keys", "idem_key = ?", "parallel-1"); n != 1 {
				t.Fatalf("idempotency rows: %d", n)
			}
			if n := len(s.outbox("payment.succeeded", out[0].Body["payment_id"].(string))); n != 1 {
				t.Fatalf("succeeded events: %d", n)
			}
		})
	}
}

// TestRefundIdempotencyKeys: a retried refund with its key (header or body) answers the
// first refund and refunds nothing more; another request with the key is
// IDEMPOTENCY_KEY_REUSED and changes nothing; concurrent retries refund once.
func TestRefundIdempotencyKeys(t *testing.T) {
	for _, engine := range testdb.Engines() {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			s := newStack(t, engine, stackOptions{})
			id := s.pay("merchant", "50.00", "4242424242424242").Body["payment_id"].(string)
			path := "/api/v1/payments/" + id + "/refund"
			refunded := func() any {
				t.Helper()
				return sub(s.do(http.MethodGet, "/api/v1/payments/"+id, "merchant", nil).Body, "data")["amount_refunded"]
			}

			body := map[string]any{"amount": "20.00", "reason": "requested_by_customer", "metadata": map[string]any{"ticket": "T-1"}}
			first := s.do(http.MethodPost, path, "merchant", body, "Idempotency-Key", "refund-T-1")
			if first.Code != 200 || sub(first.Body, "data")["amount"] != "20.00" {
				t.Fatalf("first: %d %s", first.Code, first.Raw)
			}
			// The retry (header, or the same key in the body, "20.0" being the same amount).
			again := s.do(http.MethodPost, path, "merchant", body, "Idempotency-Key", "refund-T-1")
			inBody := map[string]any{"amount": "20.0", "reason": "requested_by_customer", "metadata": map[string]any{"ticket": "T-1"}, "idempotency_key": "refund-T-1"}
			third := s.do(http.MethodPost, path, "merchant", inBody)
			for _, r := range []response{again, third} {
				if r.Code != 200 || r.Raw != first.Raw {
					t.Fatalf("replay: %d %s, want %s", r.Code, r.Raw, first.Raw)
				}
			}
			if got := refunded(); got != "20.00" || s.count("payments_refunds", "payment_id = ?", id) != 1 {
				t.Fatalf("after replays: refunded %v, %d refunds", got, s.count("payments_refunds", "payment_id = ?", id))
			}
			if n := len(s.outbox("refund.created", "")); n != 1 {
				t.Fatalf("refund.created events: %d", n)
			}

			// The key with another amount, reason or payment: 409, nothing refunded.
			other := s.pay("merchant", "30.00", "4242424242424242").Body["payment_id"].(string)
			for _, c := range []struct {
				path string
				body map[string]any
			}{
				{path, map[string]any{"amount": "21.00", "reason": "requested_by_customer", "metadata": map[string]any{"ticket": "T-1"}}},
				{path, map[string]any{"amount": "20.00", "reason": "duplicate", "metadata": map[string]any{"ticket": "T-1"}}},
				{path, map[string]any{"reason": "requested_by_customer", "metadata": map[string]any{"ticket": "T-1"}}},
				{"/api/v1/payments/" + other + "/refund", body},
			} {
				r := s.do(http.MethodPost, c.path, "merchant", c.body, "Idempotency-Key", "refund-T-1")
				if r.Code != 409 || errCode(r) != "IDEMPOTENCY_KEY_REUSED" {
					t.Fatalf("reused for %s %v: %d %s", c.path, c.body, r.Code, r.Raw)
				}
			}
			// A payment's key is not a refund's.
			pay := payBody("10.00", "4242424242424242")
			pay["idempotency_key"] = "pay-1"
			if r := s.do(http.MethodPost, "/api/v1/payments", "merchant", pay); r.Code != 200 {
				t.Fatalf("pay: %d %s", r.Code, r.Raw)
			}
			if r := s.do(http.MethodPost, path, "merchant", map[string]any{"amount": "1.00"}, "Idempotency-Key", "pay-1"); r.Code != 409 || errCode(r) != "IDEMPOTENCY_KEY_REUSED" {
				t.Fatalf("payment key on a refund: %d %s", r.Code, r.Raw)
			}
			if got := refunded(); got != "20.00" || s.count("payments_refunds", "payment_id = ?", other) != 0 {
				t.Fatalf("after reused keys: refunded %v", got)
			}
			// Header and body disagreeing, or a key too long: 400.
			if r := s.do(http.MethodPost, path, "merchant", inBody, "Idempotency-Key", "other"); r.Code != 400 {
				t.Fatalf("conflicting keys: %d %s", r.Code, r.Raw)
			}
			if r := s.do(http.MethodPost, path, "merchant", map[string]any{"amount": "1.00"}, "Idempotency-Key", strings.Repeat("k", 256)); r.Code != 400 {
				t.Fatalf("long key: %d %s", r.Code, r.Raw)
			}
			// A refusal is not stored: the key stays free for a valid request.
			if r := s.do(http.MethodPost, path, "merchant", map[string]any{"amount": "31.00"}, "Idempotency-Key", "too-much"); r.Code != 400 || errCode(r) != "REFUND_AMOUNT_INVALID" {
				t.Fatalf("too much: %d %s", r.Code, r.Raw)
			}

			// Ten concurrent identical requests for the rest (30.00): one refund, ten equal answers.
			var wg sync.WaitGroup
			out := make([]response, 10)
			for i := range out {
				wg.Add(1)
				go func(i int) {
					defer wg.Done()
					out[i] = s.do(http.MethodPost, path, "merchant", map[string]any{"reason": "fraudulent"}, "Idempotency-Key", "rest-1")
				}(i)
			}
			wg.Wait()
			for i, r := range out {
				if r.Code != 200 || r.Raw != out[0].Raw || sub(r.Body, "data")["amount"] != "30.00" {
					t.Fatalf("parallel %d: %d %s (first %s)", i, r.Code, r.Raw, out[0].Raw)
				}
			}
			if got := refunded(); got != "50.00" || s.count("payments_refunds", "payment_id = ?", id) != 2 {
				t.Fatalf("after parallel: refunded %v, %d refunds", got, s.count("payments_refunds", "payment_id = ?", id))
			}
		})
	}
}
