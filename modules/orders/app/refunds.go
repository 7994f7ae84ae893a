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
		if r.Status == domain.RefundSuccess {
			return s.restock(ctx, o, o.RestockRefund(r))
		}
		return nil
	}, func(ctx context.Context, o *domain.Order) error {
		if r := o.FindRefund(refundID); r != nil && r.Status == domain.RefundSuccess {
			return s.publishRefund(ctx, o, r)
		}
		return nil
	})
	if err != nil {
		return api.Refund{}, err
	}
	if len(pending) == 0 {
		return ToRefund(o, o.FindRefund(refundID)), nil
	}
	type outcome struct {
		txID, refID, message string
		final, succeeded     bool
	}
	outcomes := make([]outcome, 0, len(pending))
	var gatewayErr error
	for _, t := range pending {
		if t.PaymentID == "" || t.Gateway == domain.GatewayManual {
			outcomes = append(outcomes, outcome{txID: t.ID, final: true, succeeded: true})
			continue
		}
		res, err := s.payments.Refund(ctx, ports.RefundRequest{PaymentID: t.PaymentID, Amount: t.Amount, Currency: t.Currency, OrderID: o.ID, TransactionID: t.ID})
		switch {
		case err != nil:
			if gatewayErr == nil {
				gatewayErr = err
			}
			msg := err.Error()
			if ae, ok := apperr.As(err); ok {
				msg = ae.Message
			}
			outcomes = append(outcomes, outcome{txID: t.ID, final: true, message: msg})
		case res.Status == ports.RefundSucceeded:
			outcomes = append(outcomes, outcome{txID: t.ID, refID: res.ID, final: true, succeeded: true})
		case res.Status == ports.RefundFailed:
			outcomes = append(outcomes, outcome{txID: t.ID, refID: res.ID, final: true, message: "refused by the gateway"})
		default:
			outcomes = append(outcomes, outcome{txID: t.ID, refID: res.ID})
		}
	}
	finished := false
	o, err = s.change(ctx, o.ID, func(ctx context.Context, o *domain.Order) error {
		now := s.clock.Now()
		for _, oc := range outcomes {
			if oc.final {
				o.SettleRefundTransaction(oc.txID, oc.succeeded, oc.refID, oc.message, now)
			} else {
				o.NoteGatewayRefund(oc.txID, oc.refID)
			}
		}
		finished = o.FinishRefund(refundID, now)
		if r := o.FindRefund(refundID); finished && r.Status == domain.RefundSuccess {
			return s.restock(ctx, o, o.RestockRefund(r))
		}
		return nil
	}, func(ctx context.Context, o *domain.Order) error {
		if r := o.FindRefund(refundID); finished && r.Status == domain.RefundSuccess {
			return s.publishRefund(ctx, o, r)
		}
		return nil
	})
	if err != nil {
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

func (s *Service) publishRefund(ctx context.Context, o *domain.Order, r *domain.Refund) error {
	if err := s.publish(ctx, api.EventOrderRefundCreated, o.ID, api.RefundEvent{Refund: ToRefund(o, r), OrderRef: ref(o)}); err != nil {
		return err
	}
	return s.publishOrder(ctx, api.EventOrderUpdated, o)
}
