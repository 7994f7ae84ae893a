package payments_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/ids"
)

// TestCardTable drives every row of CONTRACT.md §6 over HTTP on both engines.
func TestCardTable(t *testing.T) {
	eachStack(t, stackOptions{}, func(t *testing.T, s *stack) {

		successKeys := []string{"payment_id", "payment_method", "payment_status", "receipt_url", "transaction_id", "type"}
		methodKeys := []string{"card_brand", "cardholder_name", "exp_month", "exp_year", "last_four", "method_type", "token"}
		success := func(number, brand, last4 string) string {
			t.Helper()
			r := s.pay("merchant", "19.99", number)
			if r.Code != 200 || r.Body["type"] != "success" || r.Body["payment_status"] != "succeeded" {
				t.Fatalf("%s: %d %s", number, r.Code, r.Raw)
			}
			if got := keys(r.Body); !slices.Equal(got, successKeys) {
				t.Fatalf("%s: success keys %v", number, got)
			}
			pm := sub(r.Body, "payment_method")
			if got := keys(pm); !slices.Equal(got, methodKeys) {
				t.Fatalf("%s: payment_method keys %v", number, got)
			}
			if pm["method_type"] != "card" || pm["card_brand"] != brand || pm["last_four"] != last4 || pm["exp_month"] != float64(12) ||
				pm["exp_year"] != float64(2030) || pm["cardholder_name"] != "Ada Lovelace" || pm["token"] != nil {
				t.Fatalf("%s: payment_method %v", number, pm)
			}
			id, _ := r.Body["payment_id"].(string)
			if !strings.HasPrefix(id, "pay_") || !ids.Valid(strings.TrimPrefix(id, "pay_")) {
				t.Fatalf("payment id %q", id)
			}
			if r.Body["transaction_id"] == "" || r.Body["receipt_url"] == "" {
				t.Fatalf("%s: %v", number, r.Body)
			}
			if got := s.EventTypes(id); !slices.Equal(got, []string{"payment.created", "payment.succeeded"}) {
				t.Fatalf("%s: events %v", number, got)
			}
			return id
		}
		failed := func(number, code string, retry bool) {
			t.Helper()
			r := s.pay("merchant", "19.99", number)
			if r.Code != 402 || r.Body["type"] != "failed" || r.Body["error_code"] != code || r.Body["retry_allowed"] != retry ||
				r.Body["error_message"] == "" {
				t.Fatalf("%s: %d %s", number, r.Code, r.Raw)
			}
			if got := keys(r.Body); !slices.Equal(got, []string{"error_code", "error_message", "payment_id", "retry_allowed", "type"}) {
				t.Fatalf("%s: failed keys %v", number, got)
			}
			id := r.Body["payment_id"].(string)
			if got := s.EventTypes(id); !slices.Equal(got, []string{"payment.created", "payment.failed"}) {
				t.Fatalf("%s: events %v", number, got)
			}
			ev := s.Payloads("payment.failed", id)[0]
			if ev["status"] != "failed" || ev["error_code"] != code || ev["amount"] != "19.99" {
				t.Fatalf("%s: event %v", number, ev)
			}
			g := s.do(http.MethodGet, "/api/v1/payments/"+id, "merchant", nil)
			if g.Code != 200 || sub(g.Body, "data")["status"] != "failed" {
				t.Fatalf("%s: status %d %s", number, g.Code, g.Raw)
			}
		}
		challenge := func(number string) {
			t.Helper()
			before := time.Now().UTC()
			r := s.pay("merchant", "19.99", number)
			if r.Code != 200 || r.Body["type"] != "requires_action" || r.Body["action_type"] != "three_d_secure" {
				t.Fatalf("%s: %d %s", number, r.Code, r.Raw)
			}
			if got := keys(r.Body); !slices.Equal(got, []string{"action_data", "action_type", "expires_at", "payment_id", "type"}) {
				t.Fatalf("%s: keys %v", number, got)
			}
			id := r.Body["payment_id"].(string)
			ad := sub(r.Body, "action_data")
			redirect, _ := ad["redirect_url"].(string)
			if ad["type"] == "" || !strings.HasSuffix(redirect, "/api/v1/payments/"+id+"/3ds") || ad["payment_intent"] == "" || ad["payment_intent_client_secret"] == "" {
				t.Fatalf("%s: action_data %v", number, ad)
			}
			exp := mustTime(t, r.Body["expires_at"])
			if exp.Before(before.Add(14*time.Minute)) || exp.After(before.Add(16*time.Minute)) {
				t.Fatalf("%s: expires_at %v", number, exp)
			}
			if got := s.EventTypes(id); !slices.Equal(got, []string{"payment.created", "payment.requires_action"}) {
				t.Fatalf("%s: events %v", number, got)
			}
			if g := s.do(http.MethodGet, "/api/v1/payments/"+id, "merchant", nil); sub(g.Body, "data")["status"] != "requires_action" {
				t.Fatalf("%s: status %s", number, g.Raw)
			}
			// The hosted 3D Secure page sends the customer back with payment_intent.
			u, _ := url.Parse(redirect)
			page := s.do(http.MethodGet, u.Path, "", nil)
			loc, _ := url.Parse(page.Header.Get("Location"))
			if page.Code != http.StatusFound || loc == nil || loc.Host != "shop.example" || loc.Query().Get("payment_intent") != ad["payment_intent"] {
				t.Fatalf("%s: 3ds page %d %v", number, page.Code, page.Header)
			}
			// A payment_intent of another payment is refused.
			bad := s.do(http.MethodPost, "/api/v1/payments/"+id+"/complete", "merchant", map[string]any{
				"action_type": "three_d_secure", "action_data": map[string]any{"payment_intent": "pi_other"},
			})
			if bad.Code != 400 {
				t.Fatalf("%s: wrong payment_intent %d %s", number, bad.Code, bad.Raw)
			}
			done := s.do(http.MethodPost, "/api/v1/payments/"+id+"/complete", "merchant", map[string]any{
				"action_type": "three_d_secure",
				"action_data": map[string]any{"payment_intent": loc.Query().Get("payment_intent"), "payment_intent_client_secret": loc.Query().Get("payment_intent_client_secret")},
			})
			if done.Code != 200 || done.Body["type"] != "success" || done.Body["payment_status"] != "succeeded" || done.Body["payment_id"] != id ||
				sub(done.Body, "payment_method")["last_four"] != number[len(number)-4:] {
				t.Fatalf("%s: complete %d %s", number, done.Code, done.Raw)
			}
			if got := s.EventTypes(id); !slices.Equal(got, []string{"payment.created", "payment.requires_action", "payment.action_completed", "payment.succeeded"}) {
				t.Fatalf("%s: events %v", number, got)
			}
			// Completing again answers the same success without new events.
			again := s.do(http.MethodPost, "/api/v1/payments/"+id+"/complete", "merchant", map[string]any{
				"action_type": "three_d_secure", "action_data": map[string]any{"payment_intent": ad["payment_intent"]},
			})
			if again.Code != 200 || again.Body["payment_status"] != "succeeded" || len(s.EventTypes(id)) != 4 {
				t.Fatalf("%s: complete again %d %s", number, again.Code, again.Raw)
			}
			g := s.do(http.MethodGet, "/api/v1/payments/"+id, "merchant", nil)
			if d := sub(g.Body, "data"); d["status"] != "succeeded" || d["completed_at"] == nil {
				t.Fatalf("%s: status %s", number, g.Raw)
			}
		}

		success("4242 4242 4242 4242", "visa", "4242")
		failed("4000 0000 0000 0002", "card_declined", false)
		failed("4000000000009995", "insufficient_funds", true)
		challenge("4000 0025 0000 3155")
		success("4000 0000 0000 3055", "visa", "3055")
		challenge("4000 0000 0000 3220")
		failed("4000 0000 0000 0127", "incorrect_cvc", true)
		failed("4000 0000 0000 0069", "expired_card", false)
		success("5555 5555 5555 4444", "mastercard", "4444")
		success("3782 822463 10005", "amex", "0005")
		success("6011111111111117", "discover", "1117")

		// An invalid (Luhn) number is INVALID_PAYMENT_METHOD and charges nothing.
		charges := s.gw.Charges()
		r := s.pay("merchant", "19.99", "4242 4242 4242 4241")
		if r.Code != 400 || errCode(r) != "INVALID_PAYMENT_METHOD" || sub(r.Body, "error")["status"] != float64(400) {
			t.Fatalf("invalid Luhn: %d %s", r.Code, r.Raw)
		}
		if s.gw.Charges() != charges {
			t.Fatal("an invalid card reached the gateway")
		}
		// A card whose expiry has passed is declined as expired_card.
		body := payBody("19.99", "4242424242424242")
		body["payment_method"].(map[string]any)["card"].(map[string]any)["exp_year"] = 2021
		if r := s.do(http.MethodPost, "/api/v1/payments", "merchant", body); r.Code != 402 || r.Body["error_code"] != "expired_card" {
			t.Fatalf("past expiry: %d %s", r.Code, r.Raw)
		}
	})
}

// TestInitiateValidation checks the request errors of initiate.
func TestInitiateValidation(t *testing.T) {
	eachStack(t, stackOptions{}, func(t *testing.T, s *stack) {
		cases := []struct {
			name   string
			body   map[string]any
			status int
			code   any
		}{
			{"zero amount", payBody("0", "4242424242424242"), 400, "INVALID_AMOUNT"},
			{"negative amount", payBody("-5.00", "4242424242424242"), 400, "INVALID_AMOUNT"},
			{"not a decimal", payBody("ten", "4242424242424242"), 400, "INVALID_AMOUNT"},
			{"too many decimals", payBody("10.001", "4242424242424242"), 400, "INVALID_AMOUNT"},
			{"below the gateway minimum", payBody("0.10", "4242424242424242"), 400, "INVALID_AMOUNT"},
			{"numeric amount", map[string]any{"amount": 10, "currency": "USD", "payment_method": card("4242424242424242")}, 400, "INVALID_AMOUNT"},
			{"unknown currency", map[string]any{"amount": "10.00", "currency": "XXX", "payment_method": card("4242424242424242")}, 400, "INVALID_CURRENCY"},
			{"missing currency", map[string]any{"amount": "10.00", "payment_method": card("4242424242424242")}, 400, "INVALID_CURRENCY"},
			{"JPY decimals", map[string]any{"amount": "10.5", "currency": "JPY", "payment_method": card("4242424242424242")}, 400, "INVALID_AMOUNT"},
			{"disabled gateway", map[string]any{"gateway_id": "stripe", "amount": "10.00", "currency": "USD", "payment_method": card("4242424242424242")}, 404, "GATEWAY_NOT_FOUND"},
			{"unknown gateway", map[string]any{"gateway_id": "nope", "amount": "10.00", "currency": "USD", "payment_method": card("4242424242424242")}, 404, "GATEWAY_NOT_FOUND"},
			{"no card", map[string]any{"amount": "10.00", "currency": "USD", "payment_method": map[string]any{"type": "card"}}, 400, "INVALID_PAYMENT_METHOD"},
			{"no payment method", map[string]any{"amount": "10.00", "currency": "USD"}, 400, "INVALID_PAYMENT_METHOD"},
			{"bad month", map[string]any{"amount": "10.00", "currency": "USD", "payment_method": map[string]any{"type": "card", "card": map[string]any{"number": "4242424242424242", "exp_month": 13, "exp_year": 2030}}}, 400, "INVALID_PAYMENT_METHOD"},
			{"short number", payBody("10.00", "4242 4242"), 400, "INVALID_PAYMENT_METHOD"},
			{"bad return_url", map[string]any{"amount": "10.00", "currency": "USD", "payment_method": card("4242424242424242"), "return_url": "not a url"}, 400, float64(400)},
		}
		for _, c := range cases {
			r := s.do(http.MethodPost, "/api/v1/payments", "merchant", c.body)
			if r.Code != c.status || errCode(r) != c.code {
				t.Errorf("%s: %d %s", c.name, r.Code, r.Raw)
			}
		}
		// JPY has no minor units: "1999" is fine, shown as "1999".
		r := s.do(http.MethodPost, "/api/v1/payments", "merchant", map[string]any{"amount": "1999", "currency": "jpy", "payment_method": card("4242424242424242")})
		if r.Code != 200 {
			t.Fatalf("JPY: %d %s", r.Code, r.Raw)
		}
		g := s.do(http.MethodGet, "/api/v1/payments/"+r.Body["payment_id"].(string), "merchant", nil)
		if d := sub(g.Body, "data"); d["amount"] != "1999" || d["currency"] != "JPY" {
			t.Fatalf("JPY record: %s", g.Raw)
		}
		if n := s.Count("payments_payments", ""); n != 1 {
			t.Fatalf("payments stored: %d", n)
		}
	})
}
