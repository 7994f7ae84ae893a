package payments_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/gocommerce/commerce/platform/httpxtest"
)

// TestAccessAndStatus: scopes, read-only keys, customers' own payments, the record.
func TestAccessAndStatus(t *testing.T) {
	eachStack(t, stackOptions{}, func(t *testing.T, s *stack) {
		body := payBody("42.50", "4242424242424242")
		body["order_id"] = "1001"
		body["customer_id"] = bobID // ignored for a customer: alice pays as alice
		r := s.do(http.MethodPost, "/api/v1/payments", "alice", body)
		if r.Code != 200 {
			t.Fatalf("alice pays: %d %s", r.Code, r.Raw)
		}
		id := r.Body["payment_id"].(string)

		g := s.do(http.MethodGet, "/api/v1/payments/"+id, "alice", nil)
		d := sub(g.Body, "data")
		if g.Code != 200 || d["payment_id"] != id || d["status"] != "succeeded" || d["amount"] != "42.50" || d["currency"] != "USD" ||
			d["gateway"] != "test" || d["transaction_id"] != r.Body["transaction_id"] || d["customer_id"] != aliceID || d["order_id"] != "1001" {
			t.Fatalf("status record: %d %s", g.Code, g.Raw)
		}
		pm := sub(d, "payment_method")
		if pm["method_type"] != "card" || pm["last_four"] != "4242" || pm["card_brand"] != "visa" {
			t.Fatalf("record payment_method: %v", pm)
		}
		mustTime(t, d["created_at"])
		mustTime(t, d["completed_at"])
		for _, k := range []string{"payment_id", "status", "amount", "currency", "gateway", "transaction_id", "payment_method", "created_at", "completed_at"} {
			if _, ok := d[k]; !ok {
				t.Errorf("record lacks %s", k)
			}
		}
		ev := s.Payloads("payment.succeeded", id)[0]
		if ev["customer_id"] != aliceID || ev["order_id"] != "1001" || ev["amount"] != "42.50" {
			t.Fatalf("event data %v", ev)
		}

		for _, c := range []struct {
			cred   string
			status int
		}{{"bob", 404}, {"merchant", 200}, {"reader", 200}, {"admin", 200}, {"orders", 403}, {"", 401}} {
			if r := s.do(http.MethodGet, "/api/v1/payments/"+id, c.cred, nil); r.Code != c.status {
				t.Errorf("GET as %q: %d %s", c.cred, r.Code, r.Raw)
			} else if c.status == 404 && errCode(r) != "PAYMENT_NOT_FOUND" {
				t.Errorf("GET as %q: %s", c.cred, r.Raw)
			}
		}
		if r := s.do(http.MethodGet, "/api/v1/payments/pay_nope", "merchant", nil); r.Code != 404 || errCode(r) != "PAYMENT_NOT_FOUND" {
			t.Fatalf("unknown: %d %s", r.Code, r.Raw)
		}
		// Restricted (read-only) keys cannot initiate or refund.
		r = s.pay("reader", "10.00", "4242424242424242")
		if r.Code != 403 || sub(r.Body, "error")["message"] != "Forbidden: Insufficient permissions. Required: payments:write" {
			t.Fatalf("reader initiates: %d %s", r.Code, r.Raw)
		}
		if r := s.do(http.MethodPost, "/api/v1/payments/"+id+"/refund", "reader", map[string]any{"amount": "1.00"}); r.Code != 403 {
			t.Fatalf("reader refunds: %d %s", r.Code, r.Raw)
		}
		// A customer may not refund or capture, even their own payment.
		if r := s.do(http.MethodPost, "/api/v1/payments/"+id+"/refund", "alice", map[string]any{"amount": "1.00"}); r.Code != 403 {
			t.Fatalf("customer refunds: %d %s", r.Code, r.Raw)
		}
		if r := s.do(http.MethodPost, "/api/v1/payments/methods", "reader", map[string]any{"currency": "USD", "amount": "10.00"}); r.Code != 200 {
			t.Fatalf("reader lists methods: %d %s", r.Code, r.Raw)
		}
		if r := s.do(http.MethodPost, "/api/v1/payments/methods", "orders", map[string]any{"currency": "USD", "amount": "10.00"}); r.Code != 403 {
			t.Fatalf("orders key lists methods: %d %s", r.Code, r.Raw)
		}
		// Bob cannot complete alice's payments either.
		if r := s.do(http.MethodPost, "/api/v1/payments/"+id+"/complete", "bob", map[string]any{"action_type": "three_d_secure"}); r.Code != 404 {
			t.Fatalf("bob completes: %d %s", r.Code, r.Raw)
		}
	})
}

// TestRefunds: full and partial, several partials up to the amount, errors, events,
// and concurrent refunds that can never exceed the captured amount.
func TestRefunds(t *testing.T) {
	eachStack(t, stackOptions{}, func(t *testing.T, s *stack) {
		id := s.pay("merchant", "50.00", "4242424242424242").Body["payment_id"].(string)
		refund := func(body map[string]any) httpxtest.Response {
			t.Helper()
			return s.do(http.MethodPost, "/api/v1/payments/"+id+"/refund", "merchant", body)
		}
		r := refund(map[string]any{"amount": "20.00", "reason": "requested_by_customer", "metadata": map[string]any{"ticket": "T-1"}})
		d := sub(r.Body, "data")
		if r.Code != 200 || d["payment_id"] != id || d["amount"] != "20.00" || d["currency"] != "USD" || d["status"] != "succeeded" ||
			d["reason"] != "requested_by_customer" || sub(d, "metadata")["ticket"] != "T-1" {
			t.Fatalf("partial refund: %d %s", r.Code, r.Raw)
		}
		refundID, _ := d["refund_id"].(string)
		if len(refundID) != 40 || refundID[:4] != "ref_" {
			t.Fatalf("refund id %q", refundID)
		}
		mustTime(t, d["created_at"])
		if got := s.EventTypes(refundID); !slices.Equal(got, []string{"refund.created", "refund.succeeded"}) {
			t.Fatalf("refund events %v", got)
		}
		if ev := s.Payloads("refund.succeeded", refundID)[0]; ev["amount"] != "20.00" || ev["payment_id"] != id {
			t.Fatalf("refund event %v", ev)
		}
		g := s.do(http.MethodGet, "/api/v1/payments/"+id, "merchant", nil)
		if d := sub(g.Body, "data"); d["status"] != "partially_refunded" || d["amount_refunded"] != "20.00" {
			t.Fatalf("after partial: %s", g.Raw)
		}
		for _, c := range []struct {
			body   map[string]any
			status int
			code   any
		}{
			{map[string]any{"amount": "40.00"}, 400, "REFUND_AMOUNT_INVALID"},
			{map[string]any{"amount": "0"}, 400, "REFUND_AMOUNT_INVALID"},
			{map[string]any{"amount": "-1.00"}, 400, "REFUND_AMOUNT_INVALID"},
			{map[string]any{"amount": "1.001"}, 400, "REFUND_AMOUNT_INVALID"},
			{map[string]any{"amount": "1.00", "reason": "changed_mind"}, 400, float64(400)},
		} {
			if r := refund(c.body); r.Code != c.status || errCode(r) != c.code {
				t.Errorf("refund %v: %d %s", c.body, r.Code, r.Raw)
			}
		}
		if r := refund(map[string]any{"amount": "10.00", "reason": "duplicate"}); r.Code != 200 {
			t.Fatalf("second partial: %d %s", r.Code, r.Raw)
		}
		// No amount: everything left (20.00).
		r = refund(map[string]any{"reason": "fraudulent"})
		if r.Code != 200 || sub(r.Body, "data")["amount"] != "20.00" {
			t.Fatalf("rest: %d %s", r.Code, r.Raw)
		}
		g = s.do(http.MethodGet, "/api/v1/payments/"+id, "merchant", nil)
		if d := sub(g.Body, "data"); d["status"] != "refunded" || d["amount_refunded"] != "50.00" {
			t.Fatalf("after full: %s", g.Raw)
		}
		if r := refund(map[string]any{"amount": "1.00"}); r.Code != 409 || errCode(r) != "ALREADY_REFUNDED" {
			t.Fatalf("refund a refunded payment: %d %s", r.Code, r.Raw)
		}
		if n := len(s.Payloads("refund.created", "")); n != 3 {
			t.Fatalf("refund.created events: %d", n)
		}
		// A failed payment cannot be refunded; an unknown payment is not found.
		failed := s.pay("merchant", "10.00", "4000000000000002").Body["payment_id"].(string)
		if r := s.do(http.MethodPost, "/api/v1/payments/"+failed+"/refund", "merchant", map[string]any{}); r.Code != 409 {
			t.Fatalf("refund failed payment: %d %s", r.Code, r.Raw)
		}
		if r := s.do(http.MethodPost, "/api/v1/payments/pay_nope/refund", "merchant", map[string]any{}); r.Code != 404 || errCode(r) != "PAYMENT_NOT_FOUND" {
			t.Fatalf("refund unknown: %d %s", r.Code, r.Raw)
		}

		// Ten concurrent refunds of 10.00 on 50.00: exactly five succeed.
		id2 := s.pay("merchant", "50.00", "4242424242424242").Body["payment_id"].(string)
		ok := 0
		for _, r := range httpxtest.Concurrently(10, func(int) httpxtest.Response {
			return s.do(http.MethodPost, "/api/v1/payments/"+id2+"/refund", "merchant", map[string]any{"amount": "10.00"})
		}) {
			switch c := r.Code; c {
			case 200:
				ok++
			case 400, 409:
			default:
				t.Fatalf("concurrent refund status %d", c)
			}
		}
		g = s.do(http.MethodGet, "/api/v1/payments/"+id2, "merchant", nil)
		if ok != 5 || sub(g.Body, "data")["amount_refunded"] != "50.00" || s.Count("payments_refunds", "payment_id = ?", id2) != 5 {
			t.Fatalf("concurrent refunds: %d ok, %s", ok, g.Raw)
		}
	})
}

// TestManualCapture: capture_method manual authorizes; capture captures once; cancel.
func TestManualCapture(t *testing.T) {
	eachStack(t, stackOptions{capture: "manual"}, func(t *testing.T, s *stack) {
		r := s.pay("merchant", "80.00", "4242424242424242")
		if r.Code != 200 || r.Body["type"] != "success" || r.Body["payment_status"] != "requires_capture" {
			t.Fatalf("authorize: %d %s", r.Code, r.Raw)
		}
		id := r.Body["payment_id"].(string)
		if got := s.EventTypes(id); !slices.Equal(got, []string{"payment.created"}) {
			t.Fatalf("authorize events %v", got)
		}
		if r := s.do(http.MethodPost, "/api/v1/payments/"+id+"/refund", "merchant", map[string]any{}); r.Code != 409 {
			t.Fatalf("refund before capture: %d %s", r.Code, r.Raw)
		}
		if r := s.do(http.MethodPost, "/api/v1/payments/"+id+"/capture", "alice", nil); r.Code != 403 {
			t.Fatalf("customer captures: %d %s", r.Code, r.Raw)
		}
		if r := s.do(http.MethodPost, "/api/v1/payments/"+id+"/capture", "merchant", map[string]any{"amount": "90.00"}); r.Code != 400 || errCode(r) != "INVALID_AMOUNT" {
			t.Fatalf("over-capture: %d %s", r.Code, r.Raw)
		}
		c := s.do(http.MethodPost, "/api/v1/payments/"+id+"/capture", "merchant", nil)
		if c.Code != 200 || c.Body["type"] != "success" || c.Body["payment_status"] != "succeeded" || c.Body["payment_id"] != id {
			t.Fatalf("capture: %d %s", c.Code, c.Raw)
		}
		if got := s.EventTypes(id); !slices.Equal(got, []string{"payment.created", "payment.captured", "payment.succeeded"}) {
			t.Fatalf("capture events %v", got)
		}
		if r := s.do(http.MethodPost, "/api/v1/payments/"+id+"/capture", "merchant", nil); r.Code != 409 || errCode(r) != "ALREADY_CAPTURED" {
			t.Fatalf("capture twice: %d %s", r.Code, r.Raw)
		}
		if r := s.do(http.MethodPost, "/api/v1/payments/"+id+"/cancel", "merchant", nil); r.Code != 409 || errCode(r) != "ALREADY_CAPTURED" {
			t.Fatalf("cancel captured: %d %s", r.Code, r.Raw)
		}
		if r := s.do(http.MethodPost, "/api/v1/payments/"+id+"/refund", "merchant", map[string]any{"amount": "30.00"}); r.Code != 200 {
			t.Fatalf("refund after capture: %d %s", r.Code, r.Raw)
		}
		// A partial capture captures less; refunds are bounded by it.
		id2 := s.pay("merchant", "80.00", "4242424242424242").Body["payment_id"].(string)
		if r := s.do(http.MethodPost, "/api/v1/payments/"+id2+"/capture", "admin", map[string]any{"amount": "60.00"}); r.Code != 200 {
			t.Fatalf("partial capture: %d %s", r.Code, r.Raw)
		}
		if r := s.do(http.MethodPost, "/api/v1/payments/"+id2+"/refund", "merchant", map[string]any{"amount": "70.00"}); r.Code != 400 || errCode(r) != "REFUND_AMOUNT_INVALID" {
			t.Fatalf("refund above capture: %d %s", r.Code, r.Raw)
		}
		// Cancel an authorization.
		id3 := s.pay("merchant", "15.00", "4242424242424242").Body["payment_id"].(string)
		cn := s.do(http.MethodPost, "/api/v1/payments/"+id3+"/cancel", "merchant", nil)
		if cn.Code != 200 || sub(cn.Body, "data")["status"] != "canceled" {
			t.Fatalf("cancel: %d %s", cn.Code, cn.Raw)
		}
		if got := s.EventTypes(id3); !slices.Equal(got, []string{"payment.created", "payment.canceled"}) {
			t.Fatalf("cancel events %v", got)
		}
		if r := s.do(http.MethodPost, "/api/v1/payments/"+id3+"/cancel", "merchant", nil); r.Code != 200 || len(s.EventTypes(id3)) != 2 {
			t.Fatalf("cancel twice: %d %s", r.Code, r.Raw)
		}
		if r := s.do(http.MethodPost, "/api/v1/payments/"+id3+"/capture", "merchant", nil); r.Code != 409 {
			t.Fatalf("capture canceled: %d %s", r.Code, r.Raw)
		}
	})
}
