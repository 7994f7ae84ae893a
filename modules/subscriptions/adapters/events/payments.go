// Package events subscribes the subscriptions module to the payments module's events:
// a provider's invoice event (invoice.paid / invoice.payment_failed, which payments
// records as payment.succeeded / payment.failed carrying subscription details) moves
// the matching invoice.
package events

import (
	"context"
	"fmt"

	"go.uber.org/zap"

	payments "github.com/gocommerce/commerce/modules/payments/api"
	"github.com/gocommerce/commerce/modules/subscriptions/app"
	"github.com/gocommerce/commerce/platform/event"
)

// Applier is the use case the subscriber calls.
type Applier interface {
	ApplyProviderInvoice(ctx context.Context, ev app.ProviderInvoice) error
}

// Subscriber turns provider invoice events into invoice moves.
type Subscriber struct {
	app Applier
	log *zap.Logger
}

// NewSubscriber builds the subscriber.
func NewSubscriber(a Applier, log *zap.Logger) *Subscriber {
	return &Subscriber{app: a, log: log.Named("subscriptions.events")}
}

// Subscribe registers the handlers.
func (s *Subscriber) Subscribe(bus event.Subscriber) {
	bus.Subscribe(payments.EventPaymentSucceeded, s.Handle)
	bus.Subscribe(payments.EventPaymentFailed, s.Handle)
}

// invoiceKeys are where a provider invoice names our invoice: its metadata, as the
// charge set it.
var invoiceKeys = []string{"metadata.subscription_invoice_id", "metadata.invoice_id"}

// Handle applies a provider invoice event; payment events without subscription
// details (the module's own charges among them, settled by the charge itself) are not
// for it.
func (s *Subscriber) Handle(ctx context.Context, e event.Event) error {
	var p payments.PaymentEvent
	if err := e.Decode(&p); err != nil {
		s.log.Warn("payment event dropped: bad payload", zap.String("event_id", e.ID), zap.Error(err))
		return nil
	}
	if len(p.Subscription) == 0 {
		return nil
	}
	ev := app.ProviderInvoice{PaymentID: p.PaymentID, Paid: e.Type == payments.EventPaymentSucceeded, ErrorCode: p.ErrorCode, ErrorMessage: p.ErrorMessage}
	for _, k := range invoiceKeys {
		if v := p.Subscription[k]; v != "" {
			ev.InvoiceID = v
			break
		}
	}
	if ev.InvoiceID == "" {
		if v, ok := p.Metadata["subscription_invoice_id"]; ok {
			ev.InvoiceID = fmt.Sprint(v)
		}
	}
	return s.app.ApplyProviderInvoice(ctx, ev)
}
