package app

import (
	"context"

	"github.com/gocommerce/commerce/modules/payments/api"
	"github.com/gocommerce/commerce/modules/payments/domain"
	"github.com/gocommerce/commerce/modules/payments/ports"
	"github.com/gocommerce/commerce/platform/apperr"
)

// CompleteCommand finishes a requires_action payment.
type CompleteCommand struct {
	PaymentID  string
	ActionType string
	ActionData map[string]string
}

// CompletePayment finishes a payment after its customer action. A payment that is
// already past its action answers its current result (completing twice is harmless);
// an expired action fails the payment.
func (s *Service) CompletePayment(ctx context.Context, c Caller, cmd CompleteCommand) (api.PaymentResult, error) {
	p, err := s.visible(ctx, c, cmd.PaymentID)
	if err != nil {
		return api.PaymentResult{}, err
	}
	if cmd.ActionType != domain.ActionThreeDSecure && cmd.ActionType != domain.ActionRedirect {
		return api.PaymentResult{}, apperr.Validation(map[string]string{"action_type": "must be one of: three_d_secure, redirect"})
	}
	switch p.Status {
	case domain.StatusRequiresAction, domain.StatusProcessing:
	case domain.StatusCanceled, domain.StatusPending:
		return api.PaymentResult{}, domain.ErrPaymentState.WithMessage("Payment in status %s cannot be completed", p.Status)
	default:
		return toResult(p), nil
	}
	if p.Action != nil && cmd.ActionType != p.Action.Type {
		return api.PaymentResult{}, apperr.Validation(map[string]string{"action_type": "must be " + p.Action.Type + " for this payment"})
	}
	if pi := cmd.ActionData["payment_intent"]; pi != "" && pi != p.TransactionID {
		return api.PaymentResult{}, apperr.Validation(map[string]string{"action_data.payment_intent": "does not match this payment"})
	} else if pi == "" && cmd.ActionType == domain.ActionThreeDSecure {
		return api.PaymentResult{}, apperr.Validation(map[string]string{"action_data.payment_intent": "is required"})
	}
	if p.Action != nil && !s.clock.Now().Before(p.Action.ExpiresAt) {
		return s.recordCharge(ctx, p.ID, nil, ports.ChargeResult{
			Status: domain.StatusFailed, DeclineCode: "authentication_expired",
			DeclineMessage: "The customer action expired before it was completed",
		}, true)
	}
	g, err := s.gateway(p.Gateway)
	if err != nil {
		return api.PaymentResult{}, err
	}
	res, gerr := g.Complete(ctx, ports.CompleteRequest{
		PaymentID: p.ID, TransactionID: p.TransactionID, ProviderReference: p.ProviderReference, Amount: p.Amount,
		Currency: p.Currency, Capture: p.CaptureMethod != domain.CaptureManual, ActionData: cmd.ActionData,
	})
	if gerr != nil {
		res = s.gatewayFailure(g.ID(), "complete", gerr)
	}
	return s.recordCharge(ctx, p.ID, nil, res, true)
}

// ActionTarget is where the hosted 3D Secure page of the test gateway sends the customer.
type ActionTarget struct {
	ReturnURL     string
	PaymentIntent string
	ClientSecret  string
}

// ActionPage serves the test gateway's hosted 3D Secure page: it exists only for a test
// payment waiting for its action (PAYMENT_NOT_FOUND otherwise).
func (s *Service) ActionPage(ctx context.Context, id string) (ActionTarget, error) {
	p, err := s.payments.Get(ctx, id)
	if err != nil {
		return ActionTarget{}, err
	}
	if p.Gateway != "test" || p.Status != domain.StatusRequiresAction || p.Action == nil {
		return ActionTarget{}, domain.ErrPaymentNotFound
	}
	secret, _ := p.Action.Data["payment_intent_client_secret"].(string)
	return ActionTarget{ReturnURL: p.ReturnURL, PaymentIntent: p.TransactionID, ClientSecret: secret}, nil
}
