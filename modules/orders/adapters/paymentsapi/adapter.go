// Package paymentsapi implements the orders module's ports.Payments on top of the
// payments module's api.
package paymentsapi

import (
	"context"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/orders/domain"
	"github.com/gocommerce/commerce/modules/orders/ports"
	payments "github.com/gocommerce/commerce/modules/payments/api"
)

// Adapter is ports.Payments over payments/api.Payments.
type Adapter struct {
	payments payments.Payments
}

var _ ports.Payments = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(p payments.Payments) *Adapter { return &Adapter{payments: p} }

// Metadata keys the orders module puts on its refunds (echoed in refund events).
const (
	MetaOrderID       = "order_id"
	MetaTransactionID = "order_transaction_id"
)

// RefundReason is the reason of refunds made from orders.
const RefundReason = "requested_by_customer"

func toPayment(p payments.Payment) ports.Payment {
	amount := p.Amount
	if p.AmountCaptured.IsPositive() {
		amount = p.AmountCaptured
	}
	return ports.Payment{ID: p.ID, Status: p.Status, Amount: amount, Currency: p.Currency, Gateway: p.Gateway, OrderID: p.OrderID}
}

// Get returns a payment.
func (a *Adapter) Get(ctx context.Context, paymentID string) (ports.Payment, error) {
	p, err := a.payments.Get(ctx, paymentID)
	if err != nil {
		return ports.Payment{}, err
	}
	return toPayment(p), nil
}

// Refund refunds part of a payment, tagging it with the order's transaction.
func (a *Adapter) Refund(ctx context.Context, r ports.RefundRequest) (ports.RefundResult, error) {
	res, err := a.payments.Refund(ctx, payments.RefundCommand{
		PaymentID: r.PaymentID, Amount: domain.FormatMoney(r.Amount, r.Currency), Reason: RefundReason,
		Metadata: map[string]any{MetaOrderID: r.OrderID, MetaTransactionID: r.TransactionID},
	})
	if err != nil {
		return ports.RefundResult{}, err
	}
	return ports.RefundResult{ID: res.ID, Status: res.Status}, nil
}

// Capture captures an authorization (all of it when amount is zero).
func (a *Adapter) Capture(ctx context.Context, paymentID string, amount decimal.Decimal) (ports.Payment, error) {
	cmd := payments.CaptureCommand{PaymentID: paymentID}
	if amount.IsPositive() {
		cmd.Amount = amount.String()
	}
	if _, err := a.payments.Capture(ctx, cmd); err != nil {
		return ports.Payment{}, err
	}
	return a.Get(ctx, paymentID)
}

// Void cancels an authorization.
func (a *Adapter) Void(ctx context.Context, paymentID string) (ports.Payment, error) {
	p, err := a.payments.Cancel(ctx, paymentID)
	if err != nil {
		return ports.Payment{}, err
	}
	return toPayment(p), nil
}
