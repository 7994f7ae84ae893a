package paymentsapi_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/checkout/adapters/paymentsapi"
	"github.com/gocommerce/commerce/modules/checkout/ports"
	payments "github.com/gocommerce/commerce/modules/payments/api"
)

type fakePayments struct {
	payments.Payments
	status   string
	result   payments.PaymentResult
	cmd      payments.InitiateCommand
	canceled []string
	refunds  []payments.RefundCommand
}

func (f *fakePayments) Prepare(_ context.Context, cmd payments.InitiateCommand) (payments.Prepared, error) {
	f.cmd = cmd
	return payments.Prepared{PaymentID: f.result.PaymentID, Handle: &f.cmd}, nil
}

func (f *fakePayments) Ask(_ context.Context, p payments.Prepared) (payments.Answer, error) {
	if h, ok := p.Handle.(*payments.InitiateCommand); !ok || h != &f.cmd || p.PaymentID != f.result.PaymentID {
		return payments.Answer{}, errors.New("not the prepared payment")
	}
	return payments.Answer{Prepared: p, Declined: f.result.Type == payments.ResultFailed}, nil
}

func (f *fakePayments) Record(_ context.Context, a payments.Answer) (payments.PaymentResult, error) {
	if h, ok := a.Handle.(*payments.InitiateCommand); !ok || h != &f.cmd || a.Declined != (f.result.Type == payments.ResultFailed) {
		return payments.PaymentResult{}, errors.New("not the answer asked")
	}
	return f.result, nil
}

// charge is Prepare, Ask and Record, as checkout calls them.
func charge(a *paymentsapi.Adapter, c ports.Charge) (ports.PaymentResult, error) {
	p, err := a.Prepare(context.Background(), c)
	if err != nil {
		return ports.PaymentResult{}, err
	}
	ans, err := a.Ask(context.Background(), p)
	if err != nil {
		return ports.PaymentResult{}, err
	}
	if ans.Declined != (p.PaymentID == "pay_2") {
		return ports.PaymentResult{}, errors.New("declined answer expected for pay_2 only")
	}
	return a.Record(context.Background(), ans)
}

func (f *fakePayments) Get(_ context.Context, id string) (payments.Payment, error) {
	return payments.Payment{ID: id, Status: f.status}, nil
}

func (f *fakePayments) Cancel(_ context.Context, id string) (payments.Payment, error) {
	f.canceled = append(f.canceled, id)
	return payments.Payment{}, nil
}

func (f *fakePayments) Refund(_ context.Context, cmd payments.RefundCommand) (payments.Refund, error) {
	f.refunds = append(f.refunds, cmd)
	return payments.Refund{}, nil
}

func TestCharge(t *testing.T) {
	t.Parallel()
	exp := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	f := &fakePayments{result: payments.PaymentResult{Type: payments.ResultRequiresAction, PaymentID: "pay_1",
		Action: &payments.Action{Type: "three_d_secure", Data: map[string]any{"payment_intent": "pi"}, ExpiresAt: exp}}}
	a := paymentsapi.NewAdapter(f)
	r, err := charge(a, ports.Charge{Amount: decimal.RequireFromString("38.5"), Currency: "USD", OrderID: "o1", IdempotencyKey: "k",
		Method: ports.PaymentMethod{Type: "card", Card: &ports.Card{Number: "4000002500003155", ExpMonth: 12, ExpYear: 2030, CVC: "123"}}})
	if err != nil {
		t.Fatal(err)
	}
	if f.cmd.Amount != "38.50" || f.cmd.OrderID != "o1" || f.cmd.IdempotencyKey != "k" || f.cmd.PaymentMethod.Card == nil || f.cmd.PaymentMethod.Card.Number != "4000002500003155" {
		t.Errorf("initiate: %+v", f.cmd)
	}
	if r.Outcome != ports.PaymentRequiresAction || r.Action == nil || r.Action.Type != "three_d_secure" || !r.Action.ExpiresAt.Equal(exp) {
		t.Errorf("result: %+v", r)
	}
	f.result = payments.PaymentResult{Type: payments.ResultFailed, PaymentID: "pay_2", ErrorCode: "card_declined", SpecCode: "CARD_DECLINED"}
	if r, _ := charge(a, ports.Charge{Currency: "USD"}); r.Outcome != ports.PaymentFailed || r.SpecCode != "CARD_DECLINED" {
		t.Errorf("failed: %+v", r)
	}
	// The payment as recorded is passed on (the order records it without a read).
	f.result = payments.PaymentResult{Type: payments.ResultSuccess, PaymentID: "pay_3", PaymentStatus: payments.StatusSucceeded,
		Payment: &payments.Payment{ID: "pay_3", Status: payments.StatusSucceeded, Amount: decimal.RequireFromString("38.5"),
			AmountCaptured: decimal.RequireFromString("38.5"), Currency: "USD", Gateway: "test", OrderID: "o1"}}
	r, err = charge(a, ports.Charge{Currency: "USD"})
	if p := r.Recorded; err != nil || r.Outcome != ports.PaymentSucceeded || p == nil || p.ID != "pay_3" || p.Status != payments.StatusSucceeded ||
		!p.Amount.Equal(decimal.RequireFromString("38.5")) || !p.AmountCaptured.Equal(p.Amount) || p.Currency != "USD" || p.Gateway != "test" || p.OrderID != "o1" {
		t.Errorf("succeeded: %+v (%+v), %v", r, r.Recorded, err)
	}
}

func TestVoid(t *testing.T) {
	t.Parallel()
	for status, want := range map[string]string{
		payments.StatusRequiresAction: "cancel", payments.StatusRequiresCapture: "cancel", payments.StatusSucceeded: "refund",
		payments.StatusCanceled: "", payments.StatusFailed: "",
	} {
		f := &fakePayments{status: status}
		if err := paymentsapi.NewAdapter(f).Void(context.Background(), "pay_1"); err != nil {
			t.Fatal(err)
		}
		got := ""
		switch {
		case len(f.canceled) == 1 && len(f.refunds) == 0:
			got = "cancel"
		case len(f.refunds) == 1 && len(f.canceled) == 0:
			got = "refund"
			if f.refunds[0].IdempotencyKey == "" {
				t.Error("refund without an idempotency key")
			}
		case len(f.refunds)+len(f.canceled) > 0:
			got = "both"
		}
		if got != want {
			t.Errorf("void of a %s payment: %q, want %q", status, got, want)
		}
	}
}
