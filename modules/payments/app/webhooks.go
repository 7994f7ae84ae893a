package app

import (
	"context"
	"errors"
	"net/http"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/payments/api"
	"github.com/gocommerce/commerce/modules/payments/domain"
	"github.com/gocommerce/commerce/modules/payments/ports"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/ids"
)

// HandleWebhook verifies a provider's webhook request, stores its event once per
// (gateway, provider event id) and applies it to payments and refunds in the same
// transaction. A duplicate delivery is acknowledged without reprocessing; an unknown or
// disabled gateway is GATEWAY_NOT_FOUND; a bad signature is a 400.
func (s *Service) HandleWebhook(ctx context.Context, gatewayID string, headers http.Header, body []byte) error {
	g, ok := s.gateways.Get(gatewayID)
	if !ok {
		return domain.ErrGatewayNotFound.WithMessage("Payment gateway %q not found or not enabled", gatewayID)
	}
	ev, err := g.ParseWebhook(ctx, headers, body)
	if err != nil {
		if _, ok := apperr.As(err); ok {
			return err
		}
		return domain.ErrInvalidSignature.WithCause(err)
	}
	if ev.ID == "" {
		return apperr.Invalidf("Webhook event has no id")
	}
	return s.tx.InTx(ctx, func(ctx context.Context) error {
		created, err := s.webhooks.Record(ctx, ports.WebhookEventRecord{
			ID: ids.New(), Gateway: g.ID(), ProviderEventID: ev.ID, Type: ev.Type, Payload: ev.Payload, ReceivedAt: s.clock.Now(),
		})
		if err != nil || !created {
			return err
		}
		return s.applyEvent(ctx, g, ev)
	})
}

func (s *Service) findEventPayment(ctx context.Context, g ports.Gateway, ev ports.WebhookEvent) (*domain.Payment, error) {
	if ev.PaymentID != "" {
		p, err := s.payments.Get(ctx, ev.PaymentID)
		if err == nil && p.Gateway == g.ID() {
			return p, nil
		}
		if err != nil && !errors.Is(err, domain.ErrPaymentNotFound) {
			return nil, err
		}
	}
	for _, wr := range ev.Refunds { // a refund event may name only our refund
		if wr.RefundID == "" {
			continue
		}
		if r, err := s.refunds.Get(ctx, wr.RefundID); err == nil {
			if p, err := s.payments.Get(ctx, r.PaymentID); err == nil && p.Gateway == g.ID() {
				return p, nil
			}
		}
	}
	if ev.TransactionID == "" {
		return nil, nil
	}
	p, err := s.payments.FindByTransaction(ctx, g.ID(), ev.TransactionID)
	if errors.Is(err, domain.ErrPaymentNotFound) {
		return nil, nil
	}
	return p, err
}

func (s *Service) applyEvent(ctx context.Context, g ports.Gateway, ev ports.WebhookEvent) error {
	p, err := s.findEventPayment(ctx, g, ev)
	if err != nil {
		return err
	}
	switch ev.Kind {
	case ports.EventPaymentSucceeded, ports.EventPaymentFailed, ports.EventPaymentCanceled:
		if p == nil {
			return nil // not ours (or not yet recorded): nothing to map it onto
		}
		return s.applyPaymentEvent(ctx, p.ID, ev, nil)
	case ports.EventInvoicePaid, ports.EventInvoicePaymentFailed:
		if p == nil {
			if p, err = s.invoicePayment(ctx, g, ev); err != nil {
				return err
			}
		}
		return s.applyPaymentEvent(ctx, p.ID, ev, ev.Subscription)
	case ports.EventRefundUpdated:
		if p == nil {
			return nil
		}
		return s.applyRefundEvent(ctx, p.ID, ev)
	default:
		return nil
	}
}

// invoicePayment records the payment of a provider subscription invoice the service
// did not initiate (payment.created).
func (s *Service) invoicePayment(ctx context.Context, g ports.Gateway, ev ports.WebhookEvent) (*domain.Payment, error) {
	now := s.clock.Now()
	currency := ev.Currency
	if currency == "" {
		currency = "USD"
	}
	meta := map[string]any{}
	for k, v := range ev.Subscription {
		meta[k] = v
	}
	txn := ev.TransactionID
	if txn == "" {
		txn = ev.Subscription["invoice_id"]
	}
	p := &domain.Payment{
		ID: newPaymentID(), Gateway: g.ID(), TransactionID: txn, Status: domain.StatusPending, Amount: ev.Amount,
		AmountCaptured: decimal.Zero, AmountRefunded: decimal.Zero, Currency: currency, CaptureMethod: domain.CaptureAutomatic,
		CustomerEmail: ev.CustomerEmail, Owner: "webhook:" + g.ID(), Metadata: meta, MethodType: domain.MethodCard,
		CreatedAt: now, UpdatedAt: now,
	}
	if err := s.payments.Create(ctx, p); err != nil {
		return nil, err
	}
	return p, s.publishPayment(ctx, api.EventPaymentCreated, p, ev.Subscription)
}

// applyPaymentEvent moves a payment to what the provider reports, raising the event of
// the new state; a payment already there is left alone.
func (s *Service) applyPaymentEvent(ctx context.Context, id string, ev ports.WebhookEvent, subscription map[string]string) error {
	_, err := s.mutate(ctx, id, func(ctx context.Context, p *domain.Payment) error {
		now := s.clock.Now()
		var evs []string
		switch ev.Kind {
		case ports.EventPaymentSucceeded, ports.EventInvoicePaid:
			if p.Status.Paid() || p.Status == domain.StatusCanceled {
				return nil
			}
			if p.Status == domain.StatusRequiresAction {
				evs = append(evs, api.EventPaymentActionCompleted)
			}
			p.Succeed(now)
			evs = append(evs, api.EventPaymentSucceeded)
		case ports.EventPaymentFailed, ports.EventInvoicePaymentFailed:
			if p.Status.Paid() || p.Status == domain.StatusFailed || p.Status == domain.StatusCanceled {
				return nil
			}
			p.Decline(ev.DeclineCode, ev.DeclineMessage, now)
			evs = append(evs, api.EventPaymentFailed)
		case ports.EventPaymentCanceled:
			if p.CanCancel() != nil {
				return nil
			}
			_ = p.Cancel(now)
			evs = append(evs, api.EventPaymentCanceled)
		default:
			return nil
		}
		for _, e := range evs {
			if err := s.publishPayment(ctx, e, p, subscription); err != nil {
				return err
			}
		}
		return nil
	})
	return err
}

// applyRefundEvent settles the refunds a provider reports: pending refunds of ours
// succeed or fail; refunds made elsewhere (the provider's dashboard) are recorded.
func (s *Service) applyRefundEvent(ctx context.Context, paymentID string, ev ports.WebhookEvent) error {
	known, err := s.refunds.ListByPayment(ctx, paymentID)
	if err != nil {
		return err
	}
	match := func(wr ports.WebhookRefund) *domain.Refund {
		for _, r := range known {
			if (wr.RefundID != "" && r.ID == wr.RefundID) || (wr.ProviderRefundID != "" && r.ProviderRefundID == wr.ProviderRefundID) {
				return r
			}
		}
		return nil
	}
	refunds := ev.Refunds
	if len(refunds) == 0 && ev.AmountRefunded.IsPositive() {
		// Only a total: record what exceeds the refunds we know of.
		p, err := s.payments.Get(ctx, paymentID)
		if err != nil {
			return err
		}
		if extra := ev.AmountRefunded.Sub(p.AmountRefunded); extra.IsPositive() {
			refunds = []ports.WebhookRefund{{Amount: extra, Status: domain.RefundSucceeded}}
		}
	}
	for _, wr := range refunds {
		if r := match(wr); r != nil {
			if err := s.settleRefund(ctx, r.ID, ports.RefundResult{ProviderRefundID: wr.ProviderRefundID, Status: wr.Status}); err != nil {
				return err
			}
			continue
		}
		if wr.Status != domain.RefundSucceeded || !wr.Amount.IsPositive() {
			continue
		}
		if err := s.recordExternalRefund(ctx, paymentID, wr); err != nil {
			return err
		}
	}
	return nil
}

func (s *Service) recordExternalRefund(ctx context.Context, paymentID string, wr ports.WebhookRefund) error {
	now := s.clock.Now()
	var r *domain.Refund
	_, err := s.mutate(ctx, paymentID, func(ctx context.Context, p *domain.Payment) error {
		amount := wr.Amount
		if left := p.Refundable(); amount.GreaterThan(left) {
			amount = left
		}
		if !amount.IsPositive() {
			return nil
		}
		if err := p.ReserveRefund(amount, now); err != nil {
			return nil //nolint:nilerr // the provider is the authority; an unrefundable payment is left as it is
		}
		r = &domain.Refund{
			ID: newRefundID(), PaymentID: p.ID, Amount: amount, Currency: p.Currency, Status: domain.RefundSucceeded,
			Reason: "requested_by_customer", ProviderRefundID: wr.ProviderRefundID, CreatedAt: now, UpdatedAt: now,
		}
		if err := s.refunds.Create(ctx, r); err != nil {
			return err
		}
		if err := s.publishRefund(ctx, api.EventRefundCreated, r); err != nil {
			return err
		}
		return s.publishRefund(ctx, api.EventRefundSucceeded, r)
	})
	return err
}
