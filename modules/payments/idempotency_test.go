package payments_test

import (
	"net/http"
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
