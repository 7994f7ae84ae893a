package app

import (
	"github.com/gocommerce/commerce/modules/payments/api"
	"github.com/gocommerce/commerce/modules/payments/domain"
	"github.com/gocommerce/commerce/platform/clock"
)

func methodSummary(p *domain.Payment) api.MethodSummary {
	return api.MethodSummary{MethodType: p.MethodType, LastFour: p.Card.LastFour, CardBrand: p.Card.Brand}
}

// ToAPIPayment maps a payment to the api record.
func ToAPIPayment(p *domain.Payment) api.Payment {
	return api.Payment{
		ID: p.ID, Status: string(p.Status), Amount: p.Amount, AmountCaptured: p.AmountCaptured, AmountRefunded: p.AmountRefunded,
		Currency: string(p.Currency), Gateway: p.Gateway, TransactionID: p.TransactionID, CaptureMethod: p.CaptureMethod,
		PaymentMethod: methodSummary(p), OrderID: p.OrderID, CustomerID: p.CustomerID, CustomerEmail: p.CustomerEmail,
		Metadata: p.Metadata, ErrorCode: p.ErrorCode, ErrorMessage: p.ErrorMessage,
		CreatedAt: p.CreatedAt.UTC(), CompletedAt: clock.UTCPtr(p.CompletedAt),
	}
}

func toPaymentEvent(p *domain.Payment, subscription map[string]string) api.PaymentEvent {
	e := api.PaymentEvent{
		PaymentID: p.ID, Status: string(p.Status), Amount: domain.FormatAmount(p.Amount, p.Currency),
		AmountRefunded: domain.FormatAmount(p.AmountRefunded, p.Currency), Currency: string(p.Currency), Gateway: p.Gateway,
		TransactionID: p.TransactionID, CaptureMethod: p.CaptureMethod, PaymentMethod: methodSummary(p), OrderID: p.OrderID,
		CustomerID: p.CustomerID, CustomerEmail: p.CustomerEmail, Metadata: p.Metadata, ErrorCode: p.ErrorCode,
		ErrorMessage: p.ErrorMessage, Subscription: subscription, CreatedAt: p.CreatedAt.UTC(), CompletedAt: clock.UTCPtr(p.CompletedAt),
	}
	if p.Action != nil {
		e.ActionType = p.Action.Type
	}
	return e
}

// ToAPIRefund maps a refund to the api record.
func ToAPIRefund(r *domain.Refund) api.Refund {
	return api.Refund{
		ID: r.ID, PaymentID: r.PaymentID, Amount: r.Amount, Currency: string(r.Currency), Status: string(r.Status),
		Reason: r.Reason, Metadata: r.Metadata, CreatedAt: r.CreatedAt.UTC(),
	}
}

func toRefundEvent(r *domain.Refund) api.RefundEvent {
	return api.RefundEvent{
		RefundID: r.ID, PaymentID: r.PaymentID, Amount: domain.FormatAmount(r.Amount, r.Currency), Currency: string(r.Currency),
		Status: string(r.Status), Reason: r.Reason, Metadata: r.Metadata, FailureReason: r.FailureReason, CreatedAt: r.CreatedAt.UTC(),
	}
}

// toResult builds the initiate/complete answer of a payment's current state.
func toResult(p *domain.Payment) api.PaymentResult {
	switch p.Status {
	case domain.StatusRequiresAction:
		r := api.PaymentResult{Type: api.ResultRequiresAction, PaymentID: p.ID}
		if p.Action != nil {
			r.Action = &api.Action{Type: p.Action.Type, Data: p.Action.Data, ExpiresAt: p.Action.ExpiresAt.UTC()}
		}
		return r
	case domain.StatusFailed, domain.StatusCanceled:
		code, msg := p.ErrorCode, p.ErrorMessage
		if p.Status == domain.StatusCanceled {
			code, msg = "payment_canceled", "The payment was canceled"
		}
		return api.PaymentResult{
			Type: api.ResultFailed, PaymentID: p.ID, ErrorCode: code, ErrorMessage: msg,
			RetryAllowed: domain.RetryAllowed(code), SpecCode: domain.DeclineError(code).Code,
		}
	default:
		var token *string
		if p.SavedMethodToken != "" {
			t := p.SavedMethodToken
			token = &t
		}
		return api.PaymentResult{
			Type: api.ResultSuccess, PaymentID: p.ID, TransactionID: p.TransactionID, PaymentStatus: string(p.Status),
			PaymentMethod: &api.MethodDetails{
				MethodType: p.MethodType, LastFour: p.Card.LastFour, CardBrand: p.Card.Brand, ExpMonth: p.Card.ExpMonth,
				ExpYear: p.Card.ExpYear, CardholderName: p.Card.Name, Token: token,
			},
			ReceiptURL: p.ReceiptURL,
		}
	}
}
