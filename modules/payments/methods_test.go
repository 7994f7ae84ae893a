package payments_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/gocommerce/commerce/modules/payments/adapters/testgateway"
	"github.com/gocommerce/commerce/modules/payments/domain"
	"github.com/gocommerce/commerce/modules/payments/ports"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/testdb"
)

// walletGateway is a second gateway: a CNY wallet with a redirect (a fake provider).
type walletGateway struct{ *testgateway.Gateway }

func (walletGateway) ID() string   { return "cny_wallet" }
func (walletGateway) Name() string { return "CNY Wallet" }
func (walletGateway) Methods() []ports.MethodSpec {
	return []ports.MethodSpec{{MethodType: "wallet", DisplayName: "Wallet", RequiresRedirect: true, Currencies: []string{"CNY"}, MinMinor: 100, MaxMinor: 500000}}
}

// flakyGateway refuses refunds (refund.failed).
type flakyGateway struct{ *testgateway.Gateway }

func (flakyGateway) ID() string { return "flaky" }
func (flakyGateway) Refund(context.Context, ports.RefundRequest) (ports.RefundResult, error) {
	return ports.RefundResult{}, errors.New("connection reset")
}

// TestPaymentMethods: one descriptor per enabled gateway supporting currency and amount.
func TestPaymentMethods(t *testing.T) {
	eachStack(t, stackOptions{extra: []ports.Gateway{walletGateway{testgateway.New(testgateway.Config{})}}}, func(t *testing.T, s *stack) {
		list := func(currency, amount string) []any {
			t.Helper()
			r := s.do(http.MethodPost, "/api/v1/payments/methods", "alice", map[string]any{"currency": currency, "amount": amount})
			if r.Code != 200 {
				t.Fatalf("methods %s %s: %d %s", currency, amount, r.Code, r.Raw)
			}
			d, _ := r.Body["data"].([]any)
			return d
		}
		usd := list("USD", "19.99")
		if len(usd) != 1 {
			t.Fatalf("USD: %v", usd)
		}
		g := usd[0].(map[string]any)
		if g["gateway_id"] != "test" || g["gateway_name"] != "Test Gateway" {
			t.Fatalf("gateway %v", g)
		}
		methods := g["payment_methods"].([]any)
		c := methods[0].(map[string]any)
		if c["method_type"] != "card" || c["enabled"] != true || c["supports_3ds"] != true || c["supports_tokenization"] != true ||
			c["supports_recurring"] != true || c["requires_redirect"] != false || c["min_amount"] != "0.50" || c["max_amount"] != "999999.99" ||
			c["display_name"] == "" {
			t.Fatalf("card descriptor %v", c)
		}
		fields := c["required_fields"].([]any)
		want := map[string][2]string{
			"number":    {"card_number", `^[0-9 ]{13,19}$`},
			"exp_month": {"expiry_date", `^(0[1-9]|1[0-2])$`},
			"exp_year":  {"expiry_date", `^20[2-9][0-9]$`},
			"cvc":       {"cvc", `^[0-9]{3,4}$`},
		}
		if len(fields) != 4 {
			t.Fatalf("fields %v", fields)
		}
		for _, f := range fields {
			m := f.(map[string]any)
			w, ok := want[m["name"].(string)]
			if !ok || m["field_type"] != w[0] || m["pattern"] != w[1] || m["required"] != true || m["label"] == "" || m["placeholder"] == "" {
				t.Errorf("field %v", m)
			}
		}
		if len(g["required_fields"].([]any)) != 4 {
			t.Errorf("gateway required_fields %v", g["required_fields"])
		}
		found := false
		for _, cur := range c["supported_currencies"].([]any) {
			found = found || cur == "USD"
		}
		if !found {
			t.Error("USD not among supported_currencies")
		}
		if bt := methods[1].(map[string]any); bt["method_type"] != "bank_transfer" || len(bt["required_fields"].([]any)) != 0 {
			t.Errorf("bank transfer %v", bt)
		}
		cny := list("CNY", "12.00")
		if len(cny) != 2 || cny[1].(map[string]any)["gateway_id"] != "cny_wallet" {
			t.Fatalf("CNY: %v", cny)
		}
		w := cny[1].(map[string]any)["payment_methods"].([]any)[0].(map[string]any)
		if w["requires_redirect"] != true || w["min_amount"] != "1.00" || w["max_amount"] != "5000.00" {
			t.Fatalf("wallet %v", w)
		}
		if got := list("CNY", "6000.00"); len(got) != 1 { // above the wallet's maximum
			t.Fatalf("CNY 6000: %v", got)
		}
		if got := list("USD", "0.10"); len(got) != 0 { // below every minimum
			t.Fatalf("USD 0.10: %v", got)
		}
		if r := s.do(http.MethodPost, "/api/v1/payments/methods", "alice", map[string]any{"currency": "ZZZ", "amount": "1.00"}); r.Code != 400 || errCode(r) != "INVALID_CURRENCY" {
			t.Fatalf("bad currency: %d %s", r.Code, r.Raw)
		}
		if r := s.do(http.MethodPost, "/api/v1/payments/methods", "alice", map[string]any{"currency": "USD", "amount": "1.234"}); r.Code != 400 || errCode(r) != "INVALID_AMOUNT" {
			t.Fatalf("bad amount: %d %s", r.Code, r.Raw)
		}
		// The wallet gateway does not take USD.
		r := s.do(http.MethodPost, "/api/v1/payments", "merchant", map[string]any{"gateway_id": "cny_wallet", "amount": "10.00", "currency": "USD"})
		if r.Code != 400 || errCode(r) != "INVALID_CURRENCY" {
			t.Fatalf("wallet USD: %d %s", r.Code, r.Raw)
		}
	})
}

// TestRefundFailure: a refund the gateway refuses is refund.failed and gives the
// reserved amount back.
func TestRefundFailure(t *testing.T) {
	eachStack(t, stackOptions{extra: []ports.Gateway{flakyGateway{testgateway.New(testgateway.Config{})}}}, func(t *testing.T, s *stack) {
		body := payBody("20.00", "4242424242424242")
		body["gateway_id"] = "flaky"
		id := s.do(http.MethodPost, "/api/v1/payments", "merchant", body).Body["payment_id"].(string)
		r := s.do(http.MethodPost, "/api/v1/payments/"+id+"/refund", "merchant", map[string]any{"amount": "5.00"})
		if r.Code != 402 || errCode(r) != "PROCESSING_ERROR" {
			t.Fatalf("refund: %d %s", r.Code, r.Raw)
		}
		refundID, _ := sub(r.Body, "error")["refund_id"].(string)
		if got := s.EventTypes(refundID); !slices.Equal(got, []string{"refund.created", "refund.failed"}) {
			t.Fatalf("events %v", got)
		}
		g := s.do(http.MethodGet, "/api/v1/payments/"+id, "merchant", nil)
		if d := sub(g.Body, "data"); d["status"] != "succeeded" || d["amount_refunded"] != "0.00" {
			t.Fatalf("after failed refund: %s", g.Raw)
		}
	})
}

// TestActionExpiry: completing after expires_at fails the payment.
func TestActionExpiry(t *testing.T) {
	testdb.EachEngine(t, func(t *testing.T, engine string) {
		clk := clock.NewFake(time.Now())
		s := newStack(t, engine, stackOptions{clock: clk})
		r := s.pay("alice", "19.99", "4000002500003155")
		id := r.Body["payment_id"].(string)
		clk.Advance(16 * time.Minute)
		done := s.do(http.MethodPost, "/api/v1/payments/"+id+"/complete", "alice", map[string]any{
			"action_type": "three_d_secure", "action_data": map[string]any{"payment_intent": sub(r.Body, "action_data")["payment_intent"]},
		})
		if done.Code != 402 || done.Body["type"] != "failed" || done.Body["error_code"] != "authentication_expired" || done.Body["retry_allowed"] != true {
			t.Fatalf("expired: %d %s", done.Code, done.Raw)
		}
		if got := s.EventTypes(id); !slices.Equal(got, []string{"payment.created", "payment.requires_action", "payment.failed"}) {
			t.Fatalf("events %v", got)
		}
		if g := s.do(http.MethodGet, "/api/v1/payments/"+id, "alice", nil); sub(g.Body, "data")["status"] != string(domain.StatusFailed) {
			t.Fatalf("status %s", g.Raw)
		}
		// The hosted page is gone once the payment is no longer waiting.
		if p := s.do(http.MethodGet, "/api/v1/payments/"+id+"/3ds", "", nil); p.Code != 404 {
			t.Fatalf("3ds page: %d", p.Code)
		}
	})
}
