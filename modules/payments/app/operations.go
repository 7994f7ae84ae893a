package app

import (
	"context"
	"errors"
	"strings"

	"github.com/shopspring/decimal"
	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/payments/api"
	"github.com/gocommerce/commerce/modules/payments/domain"
	"github.com/gocommerce/commerce/modules/payments/ports"
	"github.com/gocommerce/commerce/platform/apperr"
)

// errMerchantOnly refuses capture and refund to customer tokens.
var errMerchantOnly = apperr.New(apperr.Forbidden, "", "Forbidden: Insufficient permissions. Required: payments:write (API key or staff)")

// Get is api.Payments.Get.
func (s *Service) Get(ctx context.Context, id string) (api.Payment, error) {
	return s.GetPayment(ctx, System, id)
}

// GetPayment returns the payment status record (a customer's own only).
func (s *Service) GetPayment(ctx context.Context, c Caller, id string) (api.Payment, error) {
	p, err := s.visible(ctx, c, id)
	if err != nil {
		return api.Payment{}, err
	}
	return ToAPIPayment(p), nil
}

// Capture is api.Payments.Capture.
func (s *Service) Capture(ctx context.Context, cmd api.CaptureCommand) (api.PaymentResult, error) {
	return s.CapturePayment(ctx, System, cmd)
}

// CapturePayment captures an authorized payment (payment.captured, payment.succeeded).
func (s *Service) CapturePayment(ctx context.Context, c Caller, cmd api.CaptureCommand) (api.PaymentResult, error) {
	if !c.Merchant {
		return api.PaymentResult{}, errMerchantOnly
	}
	p, err := s.visible(ctx, c, cmd.PaymentID)
	if err != nil {
		return api.PaymentResult{}, err
	}
	if err := p.CanCapture(); err != nil {
		return api.PaymentResult{}, err
	}
	amount := p.Amount
	if strings.TrimSpace(cmd.Amount) != "" {
		a, err := domain.ParseAmount(cmd.Amount, p.Currency)
		if err != nil || a.GreaterThan(p.Amount) {
			return api.PaymentResult{}, domain.ErrInvalidAmount.WithMessage("Capture amount must be positive and at most %s", domain.FormatAmount(p.Amount, p.Currency))
		}
		amount = a
	}
	g, err := s.gateway(p.Gateway)
	if err != nil {
		return api.PaymentResult{}, err
	}
	res, err := g.Capture(ctx, ports.CaptureRequest{
		PaymentID: p.ID, TransactionID: p.TransactionID, ProviderReference: p.ProviderReference, Amount: amount, Currency: p.Currency,
	})
	if err != nil {
		return api.PaymentResult{}, s.providerError("capture", g.ID(), err)
	}
	p, err = s.mutate(ctx, p.ID, func(ctx context.Context, p *domain.Payment) error {
		if err := p.Capture(amount, s.clock.Now()); err != nil {
			return err
		}
		if res.ProviderReference != "" {
			p.ProviderReference = res.ProviderReference
		}
		if err := s.publishPayment(ctx, api.EventPaymentCaptured, p, nil); err != nil {
			return err
		}
		return s.publishPayment(ctx, api.EventPaymentSucceeded, p, nil)
	})
	if err != nil {
		return api.PaymentResult{}, err
	}
	return toResult(p), nil
}

// providerError turns a failed provider call of an operation into PROCESSING_ERROR
// (402), keeping spec errors the adapter already chose.
func (s *Service) providerError(op, gateway string, err error) error {
	if _, ok := apperr.As(err); ok {
		return err
	}
	s.log.Warn("gateway call failed", zap.String("gateway", gateway), zap.String("op", op), zap.Error(err))
	return domain.ErrProcessingError.WithMessage("The gateway could not %s the payment; try again", op).WithCause(err)
}

// Cancel is api.Payments.Cancel.
func (s *Service) Cancel(ctx context.Context, id string) (api.Payment, error) {
	return s.CancelPayment(ctx, System, id)
}

// CancelPayment voids a payment that was not captured (payment.canceled). Customers
// may cancel their own.
func (s *Service) CancelPayment(ctx context.Context, c Caller, id string) (api.Payment, error) {
	p, err := s.visible(ctx, c, id)
	if err != nil {
		return api.Payment{}, err
	}
	if p.Status == domain.StatusCanceled {
		return ToAPIPayment(p), nil
	}
	if err := p.CanCancel(); err != nil {
		return api.Payment{}, err
	}
	g, err := s.gateway(p.Gateway)
	if err != nil {
		return api.Payment{}, err
	}
	if err := g.Cancel(ctx, ports.CancelRequest{PaymentID: p.ID, TransactionID: p.TransactionID, ProviderReference: p.ProviderReference, Status: p.Status}); err != nil {
		return api.Payment{}, s.providerError("cancel", g.ID(), err)
	}
	p, err = s.mutate(ctx, p.ID, func(ctx context.Context, p *domain.Payment) error {
		if p.Status == domain.StatusCanceled {
			return nil
		}
		if err := p.Cancel(s.clock.Now()); err != nil {
			return err
		}
		return s.publishPayment(ctx, api.EventPaymentCanceled, p, nil)
	})
	if err != nil {
		return api.Payment{}, err
	}
	return ToAPIPayment(p), nil
}

// Refund is api.Payments.Refund.
func (s *Service) Refund(ctx context.Context, cmd api.RefundCommand) (api.Refund, error) {
	return s.RefundPayment(ctx, System, cmd)
}

// RefundPayment refunds all (Amount empty) or part of a captured payment. The amount is
// reserved on the payment with an optimistic update first, so concurrent refunds can
// never exceed the captured amount; a refund the gateway refuses gives it back.
func (s *Service) RefundPayment(ctx context.Context, c Caller, cmd api.RefundCommand) (api.Refund, error) {
	if !c.Merchant {
		return api.Refund{}, errMerchantOnly
	}
	if cmd.Reason != "" && !domain.RefundReasons[cmd.Reason] {
		return api.Refund{}, apperr.Validation(map[string]string{"reason": "must be one of: duplicate, fraudulent, requested_by_customer"})
	}
	key := strings.TrimSpace(cmd.IdempotencyKey)
	if err := domain.CheckIdempotencyKey(key); err != nil {
		return api.Refund{}, err
	}
	p, err := s.visible(ctx, c, cmd.PaymentID)
	if err != nil {
		return api.Refund{}, err
	}
	var amount decimal.Decimal
	if strings.TrimSpace(cmd.Amount) != "" {
		a, err := domain.ParseAmount(cmd.Amount, p.Currency)
		if err != nil {
			return api.Refund{}, domain.ErrRefundAmountInvalid.WithMessage("Refund amount must be a positive decimal string in %s", p.Currency)
		}
		amount = a
	}
	g, err := s.gateway(p.Gateway)
	if err != nil {
		return api.Refund{}, err
	}
	now := s.clock.Now()
	r := &domain.Refund{
		ID: newRefundID(), PaymentID: p.ID, Currency: p.Currency, Status: domain.RefundPending, Reason: cmd.Reason,
		Metadata: cmd.Metadata, CreatedAt: now, UpdatedAt: now,
	}
	hash := refundHash(p, amount, cmd)
	p, err = s.mutate(ctx, p.ID, func(ctx context.Context, p *domain.Payment) error {
		if key != "" {
			// The key is taken with the reservation, atomically: a retry finds it
			// before it could reserve the amount again.
			created, err := s.idem.Insert(ctx, ports.IdempotencyRecord{Scope: c.Scope, Key: key, RequestHash: hash, PaymentID: r.ID, CreatedAt: now})
			if err != nil {
				return err
			}
			if !created {
				return errKeyTaken
			}
		}
		r.Amount = amount
		if amount.IsZero() {
			r.Amount = p.Refundable()
			if !r.Amount.IsPositive() && p.Status.Paid() {
				return domain.ErrAlreadyRefunded
			}
		}
		if err := p.ReserveRefund(r.Amount, now); err != nil {
			return err
		}
		if err := s.refunds.Create(ctx, r); err != nil {
			return err
		}
		return s.publishRefund(ctx, api.EventRefundCreated, r)
	})
	if errors.Is(err, errKeyTaken) {
		return api.Refund{}, s.keyReused(ctx, c.Scope, key, hash)
	}
	if err != nil {
		return api.Refund{}, err
	}
	res, gerr := g.Refund(ctx, ports.RefundRequest{
		RefundID: r.ID, PaymentID: p.ID, TransactionID: p.TransactionID, ProviderReference: p.ProviderReference,
		Amount: r.Amount, PaymentAmount: p.AmountCaptured, Currency: p.Currency, Reason: r.Reason,
		NotifyURL: s.baseURL(c) + "/api/v2/webhooks/" + g.ID(),
	})
	if gerr != nil {
		s.log.Warn("gateway refund failed", zap.String("gateway", g.ID()), zap.Error(gerr))
		res = ports.RefundResult{Status: domain.RefundFailed, FailureReason: "The gateway could not process the refund"}
	}
	if err := s.settleRefund(ctx, r.ID, res); err != nil {
		return api.Refund{}, err
	}
	r, err = s.refunds.Get(ctx, r.ID)
	if err != nil {
		return api.Refund{}, err
	}
	if r.Status == domain.RefundFailed {
		return api.Refund{}, domain.ErrProcessingError.WithMessage("The refund failed: %s", r.FailureReason).WithExtra("refund_id", r.ID)
	}
	return ToAPIRefund(r), nil
}

// refundHash identifies a refund request for its idempotency key: the payment, the
// amount asked for ("" for the rest of the payment), the reason and the metadata.
func refundHash(p *domain.Payment, amount decimal.Decimal, cmd api.RefundCommand) string {
	asked := ""
	if !amount.IsZero() {
		asked = domain.FormatAmount(amount, p.Currency)
	}
	return requestHash(map[string]any{
		"operation": "refund", "payment_id": p.ID, "amount": asked, "reason": cmd.Reason, "metadata": cmd.Metadata,
	})
}

// settleRefund records a refund's outcome: succeeded (refund.succeeded), failed (the
// reservation is given back; refund.failed), or still pending.
func (s *Service) settleRefund(ctx context.Context, refundID string, res ports.RefundResult) error {
	return s.tx.InTx(ctx, func(ctx context.Context) error {
		r, err := s.refunds.Get(ctx, refundID)
		if err != nil {
			return err
		}
		if r.Status != domain.RefundPending {
			return nil
		}
		if res.ProviderRefundID != "" {
			r.ProviderRefundID = res.ProviderRefundID
		}
		r.UpdatedAt = s.clock.Now()
		switch res.Status {
		case domain.RefundSucceeded:
			r.Status = domain.RefundSucceeded
			if err := s.refunds.Update(ctx, r); err != nil {
				return err
			}
			return s.publishRefund(ctx, api.EventRefundSucceeded, r)
		case domain.RefundFailed:
			r.Status = domain.RefundFailed
			r.FailureReason = res.FailureReason
			if err := s.refunds.Update(ctx, r); err != nil {
				return err
			}
			if _, err := s.mutate(ctx, r.PaymentID, func(_ context.Context, p *domain.Payment) error {
				p.ReleaseRefund(r.Amount, s.clock.Now())
				return nil
			}); err != nil {
				return err
			}
			return s.publishRefund(ctx, api.EventRefundFailed, r)
		default:
			return s.refunds.Update(ctx, r)
		}
	})
}
