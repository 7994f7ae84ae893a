// Package paymentsapi implements the subscriptions module's ports.Payments on the
// payments module's api: a merchant-initiated charge of the customer's saved method.
package paymentsapi

import (
	"context"

	payments "github.com/gocommerce/commerce/modules/payments/api"
	"github.com/gocommerce/commerce/modules/subscriptions/ports"
	"github.com/gocommerce/commerce/platform/money"
)

// Adapter is ports.Payments over payments.Payments.
type Adapter struct{ payments payments.Payments }

var _ ports.Payments = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(p payments.Payments) *Adapter { return &Adapter{payments: p} }

// Charge initiates a payment with the saved method (a retry with the same idempotency
// key answers the first payment instead of charging again). Anything but an immediate
// success is a failed charge: a renewal cannot wait for the customer to authenticate.
func (a *Adapter) Charge(ctx context.Context, r ports.ChargeRequest) (ports.ChargeResult, error) {
	res, err := a.payments.Initiate(ctx, payments.InitiateCommand{
		GatewayID: r.Gateway, Amount: money.Format(r.Amount, r.Currency), Currency: r.Currency,
		PaymentMethod: payments.PaymentMethodInput{Type: "saved_card", Token: r.PaymentMethodID},
		OrderID:       r.OrderID, CustomerID: r.CustomerID, Description: r.Description, Metadata: r.Metadata, IdempotencyKey: r.IdempotencyKey,
	})
	if err != nil {
		return ports.ChargeResult{}, err
	}
	out := ports.ChargeResult{PaymentID: res.PaymentID, ErrorCode: res.ErrorCode, ErrorMessage: res.ErrorMessage}
	switch res.Type {
	case payments.ResultSuccess:
		out.Paid = true
	case payments.ResultRequiresAction:
		out.ErrorCode, out.ErrorMessage = "authentication_required", "The card requires authentication"
	default:
		if out.ErrorCode == "" {
			out.ErrorCode = "payment_failed"
		}
	}
	return out, nil
}

// OwnsMethod reports whether the customer saved the payment method.
func (a *Adapter) OwnsMethod(ctx context.Context, customerID, token string) (bool, error) {
	return a.payments.OwnsSavedMethod(ctx, customerID, token)
}
