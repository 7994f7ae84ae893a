package app

import (
	"context"
	"fmt"

	"github.com/gocommerce/commerce/modules/orders/api"
	"github.com/gocommerce/commerce/modules/orders/domain"
	"github.com/gocommerce/commerce/modules/orders/ports"
	"github.com/gocommerce/commerce/platform/apperr"
)

// errRefundFailed answers a refund every gateway refused.
var errRefundFailed = apperr.New(apperr.PaymentRequired, "PROCESSING_ERROR", "The refund failed at the payment gateway")

// RefundTransactionInput is a money part of a refund: an amount (decimal string) of a
// sale or capture transaction.
type RefundTransactionInput struct {
	ParentID string
	Amount   string
}

// RefundInput is a refund to calculate or create, with amounts as decimal strings in
// the order's currency. Transactions nil: refund the calculated amount over the
// order's payments.
type RefundInput struct {
	Lines          []domain.RefundLineRequest
	FullShipping   bool
	ShippingAmount *string
	Transactions   *[]RefundTransactionInput
	Note           string
	NotifyCustomer bool
}

func (in RefundInput) request(currency string) (domain.RefundRequest, error) {
	out := domain.RefundRequest{Lines: in.Lines, FullShipping: in.FullShipping, Note: in.Note, NotifyCustomer: in.NotifyCustomer}
	if in.ShippingAmount != nil {
		a, err := domain.ParseMoney(*in.ShippingAmount, currency, "shipping.amount")
		if err != nil {
			return out, err
		}
		out.ShippingAmount = &a
	}
	if in.Transactions != nil {
		out.Transactions = []domain.RefundTransactionRequest{}
		for i, t := range *in.Transactions {
			a, err := domain.ParseMoney(t.Amount, currency, fmt.Sprintf("transactions[%d].amount", i))
			if err != nil {
				return out, err
			}
			out.Transactions = append(out.Transactions, domain.RefundTransactionRequest{ParentID: t.ParentID, Amount: a})
		}
	}
	return out, nil
}

// CalculateRefund prices a refund without changing anything.
func (s *Service) CalculateRefund(ctx context.Context, a Actor, key string, in RefundInput) (api.RefundCalculation, error) {
	if err := a.write(); err != nil {
		return api.RefundCalculation{}, err
	}
	o, err := s.load(ctx, key)
	if err != nil {
		return api.RefundCalculation{}, err
	}
	req, err := in.request(o.Currency)
	if err != nil {
		return api.RefundCalculation{}, err
	}
	calc, err := o.CalculateRefund(req)
	if err != nil {
		return api.RefundCalculation{}, err
	}
	return ToRefundCalculation(o, calc), nil
}

// CreateRefund refunds an order (docs/decisions/0075): (1) in one transaction the
// refunded quantities are taken and each money part becomes a pending refund
// transaction; (2) outside any transaction each part is refunded at its gateway through
// the payments port (manual payments need no call); (3) in a second transaction the
// answers are recorded, the refund finishes (success, or failed with its quantities
// given back), restock goes back through inventory and order.refund_created and
// order.updated are written. A refund whose gateway settles later stays pending until
// the payments module reports it (RecordRefund).
func (s *Service) CreateRefund(ctx context.Context, a Actor, key string, in RefundInput) (api.Refund, error) {
	if err := a.write(); err != nil {
		return api.Refund{}, err
	}
	o, refundID, pending, err := s.startRefund(ctx, key, in)
	if err != nil {
		return api.Refund{}, err
	}
	if len(pending) == 0 {
		return ToRefund(o, o.FindRefund(refundID)), nil
	}
	outcomes, gatewayErr := s.refundAtGateways(ctx, o.ID, pending)
	if o, err = s.settleRefund(ctx, o.ID, refundID, outcomes); err != nil {
		return api.Refund{}, err
	}
	r := o.FindRefund(refundID)
	if r.Status == domain.RefundFailed {
		if gatewayErr != nil {
			return api.Refund{}, gatewayErr
		}
		return api.Refund{}, errRefundFailed
	}
	return ToRefund(o, r), nil
}

// startRefund is CreateRefund's first transaction: the refund is taken from the order
// and its money parts become pending transactions (returned); a refund without any
// is finished at once (restocked and published).
func (s *Service) startRefund(ctx context.Context, key string, in RefundInput) (*domain.Order, string, []domain.Transaction, error) {
	var (
		refundID string
		pending  []domain.Transaction
	)
	o, err := s.change(ctx, key, func(ctx context.Context, o *domain.Order) error {
		req, err := in.request(o.Currency)
		if err != nil {
			return err
		}
		r, txs, err := o.StartRefund(s.newID(), req, s.newID, s.clock.Now())
		if err != nil {
			return err
		}
		refundID, pending = r.ID, nil
		for _, t := range txs {
			pending = append(pending, *t)
		}
		return s.restockRefund(ctx, o, o.SucceededRefund(r.ID))
	}, func(ctx context.Context, o *domain.Order) error {
		return s.publishRefund(ctx, o, o.SucceededRefund(refundID))
	})
	return o, refundID, pending, err
}

// refundAtGateways refunds each pending transaction at its gateway, outside any
// transaction, and returns the answers with the first gateway error.
func (s *Service) refundAtGateways(ctx context.Context, orderID string, pending []domain.Transaction) ([]domain.RefundOutcome, error) {
	outcomes := make([]domain.RefundOutcome, 0, len(pending))
	var gatewayErr error
	for _, t := range pending {
		oc, err := s.refundAtGateway(ctx, orderID, t)
		if err != nil && gatewayErr == nil {
			gatewayErr = err
		}
		outcomes = append(outcomes, oc)
	}
	return outcomes, gatewayErr
}

// refundAtGateway refunds one transaction through the payments port (manual money
// needs no call). A gateway error is a final failure, returned with the outcome.
func (s *Service) refundAtGateway(ctx context.Context, orderID string, t domain.Transaction) (domain.RefundOutcome, error) {
	if !t.NeedsGateway() {
		return domain.RefundOutcome{TransactionID: t.ID, Final: true, Succeeded: true}, nil
	}
	res, err := s.payments.Refund(ctx, ports.RefundRequest{PaymentID: t.PaymentID, Amount: t.Amount, Currency: t.Currency, OrderID: orderID, TransactionID: t.ID})
	if err != nil {
		msg := err.Error()
		if ae, ok := apperr.As(err); ok {
			msg = ae.Message
		}
		return domain.RefundOutcome{TransactionID: t.ID, Final: true, Message: msg}, err
	}
	oc := domain.RefundOutcome{TransactionID: t.ID, GatewayRefundID: res.ID}
	switch res.Status {
	case ports.RefundSucceeded:
		oc.Final, oc.Succeeded = true, true
	case ports.RefundFailed:
		oc.Final, oc.Message = true, "refused by the gateway"
	}
	return oc, nil
}

// settleRefund is CreateRefund's second transaction: the gateways' answers are
// recorded and a refund that finished with success is restocked and published.
func (s *Service) settleRefund(ctx context.Context, orderID, refundID string, outcomes []domain.RefundOutcome) (*domain.Order, error) {
	var done *domain.Refund
	return s.change(ctx, orderID, func(ctx context.Context, o *domain.Order) error {
		done = o.SettleRefund(refundID, outcomes, s.clock.Now())
		return s.restockRefund(ctx, o, done)
	}, func(ctx context.Context, o *domain.Order) error {
		if done == nil {
			return nil
		}
		return s.publishRefund(ctx, o, o.FindRefund(refundID))
	})
}

// restockRefund gives a succeeded refund's restocked units back (nothing for nil).
func (s *Service) restockRefund(ctx context.Context, o *domain.Order, r *domain.Refund) error {
	if r == nil {
		return nil
	}
	return s.restock(ctx, o, o.RestockRefund(r))
}

// publishRefund writes order.refund_created and order.updated for a succeeded refund
// (nothing for nil).
func (s *Service) publishRefund(ctx context.Context, o *domain.Order, r *domain.Refund) error {
	if r == nil {
		return nil
	}
	if err := s.publish(ctx, api.EventOrderRefundCreated, o.ID, api.RefundEvent{Refund: ToRefund(o, r), OrderRef: ref(o)}); err != nil {
		return err
	}
	return s.publishOrder(ctx, api.EventOrderUpdated, o)
}
