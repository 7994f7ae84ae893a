// Package paymentsapi implements checkout's ports.Payments on the payments module's
// api.
package paymentsapi

import (
	"context"
	"errors"

	"github.com/gocommerce/commerce/modules/checkout/domain"
	"github.com/gocommerce/commerce/modules/checkout/ports"
	payments "github.com/gocommerce/commerce/modules/payments/api"
	"github.com/gocommerce/commerce/platform/money"
)

// Adapter is ports.Payments over payments.Payments.
type Adapter struct{ payments payments.Payments }

var _ ports.Payments = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(p payments.Payments) *Adapter { return &Adapter{payments: p} }

// Prepare stores the charge's payment pending (in ctx's transaction).
func (a *Adapter) Prepare(ctx context.Context, c ports.Charge) (ports.PreparedCharge, error) {
	m := payments.PaymentMethodInput{Type: c.Method.Type, Token: c.Method.Token, CVC: c.Method.CVC}
	if k := c.Method.Card; k != nil {
		m.Card = &payments.Card{Number: k.Number, ExpMonth: k.ExpMonth, ExpYear: k.ExpYear, CVC: k.CVC, Name: k.Name}
	}
	p, err := a.payments.Prepare(ctx, payments.InitiateCommand{
		GatewayID: c.Method.GatewayID, Amount: money.Format(c.Amount, c.Currency), Currency: c.Currency, PaymentMethod: m,
		OrderID: c.OrderID, CustomerEmail: c.Email, CustomerID: c.CustomerID, Description: "Checkout", Metadata: c.Metadata,
		ReturnURL: c.ReturnURL, IdempotencyKey: c.IdempotencyKey,
	})
	if err != nil {
		return ports.PreparedCharge{}, err
	}
	return ports.PreparedCharge{PaymentID: p.PaymentID, Handle: p.Handle}, nil
}

// Ask makes the prepared charge's gateway call.
func (a *Adapter) Ask(ctx context.Context, p ports.PreparedCharge) (ports.ChargeAnswer, error) {
	ans, err := a.payments.Ask(ctx, payments.Prepared{PaymentID: p.PaymentID, Handle: p.Handle})
	if err != nil {
		return ports.ChargeAnswer{}, err
	}
	return ports.ChargeAnswer{PreparedCharge: p, Declined: ans.Declined}, nil
}

// Record writes the gateway's answer.
func (a *Adapter) Record(ctx context.Context, ans ports.ChargeAnswer) (ports.PaymentResult, error) {
	r, err := a.payments.Record(ctx, payments.Answer{Prepared: payments.Prepared{PaymentID: ans.PaymentID, Handle: ans.Handle}, Declined: ans.Declined})
	if err != nil {
		return ports.PaymentResult{}, err
	}
	out := ports.PaymentResult{PaymentID: r.PaymentID, Status: r.PaymentStatus, TransactionID: r.TransactionID, ReceiptURL: r.ReceiptURL,
		ErrorCode: r.ErrorCode, ErrorMessage: r.ErrorMessage, SpecCode: r.SpecCode, RetryAllowed: r.RetryAllowed}
	switch r.Type {
	case payments.ResultSuccess:
		out.Outcome = ports.PaymentSucceeded
	case payments.ResultRequiresAction:
		out.Outcome = ports.PaymentRequiresAction
		if r.Action != nil {
			out.Action = &domain.Action{Type: r.Action.Type, Data: r.Action.Data, ExpiresAt: r.Action.ExpiresAt}
		}
	default:
		out.Outcome = ports.PaymentFailed
	}
	if p := r.Payment; p != nil {
		out.Recorded = &ports.RecordedPayment{ID: p.ID, Status: p.Status, Currency: p.Currency, Gateway: p.Gateway, OrderID: p.OrderID,
			Amount: p.Amount, AmountCaptured: p.AmountCaptured}
	}
	if pm := r.PaymentMethod; pm != nil {
		out.Method = map[string]any{"method_type": pm.MethodType, "last_four": pm.LastFour, "card_brand": pm.CardBrand,
			"exp_month": pm.ExpMonth, "exp_year": pm.ExpYear, "cardholder_name": pm.CardholderName, "token": pm.Token}
	}
	return out, nil
}

// Status returns a payment's status.
func (a *Adapter) Status(ctx context.Context, paymentID string) (string, error) {
	p, err := a.payments.Get(ctx, paymentID)
	if err != nil {
		return "", err
	}
	return p.Status, nil
}

// Void cancels the payment, or refunds it in full when it was captured.
func (a *Adapter) Void(ctx context.Context, paymentID string) error {
	p, err := a.payments.Get(ctx, paymentID)
	if err != nil {
		return err
	}
	switch p.Status {
	case payments.StatusCanceled, payments.StatusFailed, payments.StatusRefunded:
		return nil
	case payments.StatusSucceeded, payments.StatusPartiallyRefunded:
		_, err = a.payments.Refund(ctx, payments.RefundCommand{PaymentID: paymentID, Reason: "requested_by_customer", IdempotencyKey: "checkout_void_" + paymentID})
		return err
	}
	_, err = a.payments.Cancel(ctx, paymentID)
	if errors.Is(err, payments.ErrAlreadyCaptured) {
		_, err = a.payments.Refund(ctx, payments.RefundCommand{PaymentID: paymentID, Reason: "requested_by_customer", IdempotencyKey: "checkout_void_" + paymentID})
	}
	return err
}
