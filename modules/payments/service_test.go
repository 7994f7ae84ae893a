package payments_test

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/payments/api"
	"github.com/gocommerce/commerce/platform/apperr"
)

// TestPaymentsAPI exercises api.Payments, the interface orders, checkout and
// subscriptions use (trusted calls, no principal).
func TestPaymentsAPI(t *testing.T) {
	eachStack(t, stackOptions{}, func(t *testing.T, s *stack) {
		var p api.Payments = s.svc
		ctx := context.Background()
		card := func(n string) api.PaymentMethodInput {
			return api.PaymentMethodInput{Type: "card", Card: &api.Card{Number: n, ExpMonth: 12, ExpYear: 2030, CVC: "987", Name: "Ada"}}
		}
		res, err := p.Initiate(ctx, api.InitiateCommand{Amount: "99.95", Currency: "EUR", PaymentMethod: card("4242424242424242"),
			OrderID: "1001", CustomerID: aliceID, IdempotencyKey: "order-1001"})
		if err != nil || res.Type != api.ResultSuccess || res.PaymentStatus != api.StatusSucceeded || res.PaymentMethod.LastFour != "4242" {
			t.Fatalf("initiate: %+v %v", res, err)
		}
		_, err = p.Initiate(ctx, api.InitiateCommand{Amount: "99.95", Currency: "EUR", PaymentMethod: card("4242424242424242"),
			OrderID: "1001", CustomerID: aliceID, IdempotencyKey: "order-1001"})
		if e, ok := apperr.As(err); !errors.Is(err, api.ErrIdempotencyKeyReused) || !ok || e.Extra["payment_id"] != res.PaymentID {
			t.Fatalf("reused key: %v, want IDEMPOTENCY_KEY_REUSED naming %s", err, res.PaymentID)
		}
		declined, err := p.Initiate(ctx, api.InitiateCommand{Amount: "5.00", Currency: "EUR", PaymentMethod: card("4000000000000002")})
		if err != nil || declined.Type != api.ResultFailed || declined.ErrorCode != "card_declined" || declined.SpecCode != "CARD_DECLINED" {
			t.Fatalf("declined: %+v %v", declined, err)
		}
		if _, err := p.Initiate(ctx, api.InitiateCommand{Amount: "5.00", Currency: "EUR", GatewayID: "paypal", PaymentMethod: card("4242424242424242")}); !errors.Is(err, api.ErrGatewayNotFound) {
			t.Fatalf("disabled gateway: %v", err)
		}
		got, err := p.Get(ctx, res.PaymentID)
		if err != nil || got.Status != api.StatusSucceeded || !got.Amount.Equal(decimal.RequireFromString("99.95")) || got.OrderID != "1001" || got.CustomerID != aliceID {
			t.Fatalf("get: %+v %v", got, err)
		}
		if _, err := p.Get(ctx, "pay_missing"); !errors.Is(err, api.ErrPaymentNotFound) {
			t.Fatalf("get missing: %v", err)
		}
		r, err := p.Refund(ctx, api.RefundCommand{PaymentID: res.PaymentID, Amount: "9.95", Reason: "requested_by_customer"})
		if err != nil || r.Status != "succeeded" || !r.Amount.Equal(decimal.RequireFromString("9.95")) {
			t.Fatalf("refund: %+v %v", r, err)
		}
		if _, err := p.Refund(ctx, api.RefundCommand{PaymentID: res.PaymentID, Amount: "90.01"}); !errors.Is(err, api.ErrRefundAmountInvalid) {
			t.Fatalf("over-refund: %v", err)
		}
		if _, err := p.Capture(ctx, api.CaptureCommand{PaymentID: res.PaymentID}); !errors.Is(err, api.ErrAlreadyCaptured) {
			t.Fatalf("capture captured: %v", err)
		}
		// A customer's saved card charged by another module (subscriptions) for that customer.
		saved := s.do(http.MethodPost, "/api/v1/payments/saved-methods", "alice", map[string]any{"payment_method_data": map[string]any{
			"type": "card", "card": map[string]any{"number": "4242424242424242", "exp_month": 1, "exp_year": 2031}}})
		tok := saved.Body["token"].(string)
		res, err = p.Initiate(ctx, api.InitiateCommand{Amount: "9.00", Currency: "USD", CustomerID: aliceID,
			PaymentMethod: api.PaymentMethodInput{Type: "saved_card", Token: tok}})
		if err != nil || res.Type != api.ResultSuccess {
			t.Fatalf("saved card: %+v %v", res, err)
		}
		action, err := p.Initiate(ctx, api.InitiateCommand{Amount: "9.00", Currency: "USD", PaymentMethod: card("4000002500003155")})
		if err != nil || action.Type != api.ResultRequiresAction || action.Action == nil {
			t.Fatalf("requires_action: %+v %v", action, err)
		}
		c, err := p.Cancel(ctx, action.PaymentID)
		if err != nil || c.Status != api.StatusCanceled {
			t.Fatalf("cancel: %+v %v", c, err)
		}
	})
}
