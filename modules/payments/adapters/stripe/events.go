package stripe

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/payments/adapters/internal/gatewaykit"
	"github.com/gocommerce/commerce/modules/payments/domain"
	"github.com/gocommerce/commerce/modules/payments/ports"
)

// envelope is the part of a Stripe event this service reads. Unknown members and any
// api_version are accepted.
type envelope struct {
	ID      string `json:"id"`
	Type    string `json:"type"`
	Created int64  `json:"created"`
	Data    struct {
		Object json.RawMessage `json:"object"`
	} `json:"data"`
}

type lastError struct {
	Code        string `json:"code"`
	DeclineCode string `json:"decline_code"`
	Message     string `json:"message"`
}

type object struct {
	ID               string            `json:"id"`
	Object           string            `json:"object"`
	Amount           int64             `json:"amount"`
	AmountRefunded   int64             `json:"amount_refunded"`
	AmountPaid       int64             `json:"amount_paid"`
	AmountDue        int64             `json:"amount_due"`
	Currency         string            `json:"currency"`
	Status           string            `json:"status"`
	Metadata         map[string]string `json:"metadata"`
	PaymentIntent    json.RawMessage   `json:"payment_intent"`
	Customer         json.RawMessage   `json:"customer"`
	CustomerEmail    string            `json:"customer_email"`
	Subscription     json.RawMessage   `json:"subscription"`
	LastPaymentError *lastError        `json:"last_payment_error"`
	FailureCode      string            `json:"failure_code"`
	FailureMessage   string            `json:"failure_message"`
	Refunds          *struct {
		Data []struct {
			ID       string            `json:"id"`
			Amount   int64             `json:"amount"`
			Status   string            `json:"status"`
			Metadata map[string]string `json:"metadata"`
		} `json:"data"`
	} `json:"refunds"`
	Parent *struct {
		SubscriptionDetails *struct {
			Subscription json.RawMessage   `json:"subscription"`
			Metadata     map[string]string `json:"metadata"`
		} `json:"subscription_details"`
	} `json:"parent"`
}

// idOf reads an expandable field: a string id or an object with an id.
func idOf(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var o struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(raw, &o) == nil {
		return o.ID
	}
	return ""
}

// refundStates are the final refund states.
var refundStates = gatewaykit.RefundStates{Succeeded: []string{"succeeded"}, Failed: []string{"failed", "canceled"}}

func refundStatus(s string) domain.RefundStatus { return refundStates.Of(s) }

// MapEvent reads a verified Stripe event (or the test gateway's events, which use the
// same shape) into neutral terms.
func MapEvent(payload []byte) (ports.WebhookEvent, error) {
	var env envelope
	if err := json.Unmarshal(payload, &env); err != nil {
		return ports.WebhookEvent{}, domain.ErrInvalidSignature.WithMessage("Webhook body is not a valid event")
	}
	ev := ports.WebhookEvent{ID: env.ID, Type: env.Type, Kind: ports.EventIgnored, Payload: payload}
	if env.Created > 0 {
		ev.OccurredAt = time.Unix(env.Created, 0).UTC()
	}
	var o object
	if len(env.Data.Object) > 0 {
		if err := json.Unmarshal(env.Data.Object, &o); err != nil {
			return ev, nil // an object we do not read: stored and ignored
		}
	}
	c := domain.Currency(strings.ToUpper(o.Currency))
	amount := func(minor int64) decimal.Decimal {
		if c == "" {
			return decimal.Zero
		}
		return domain.FromMinor(minor, c)
	}
	ev.Currency = c
	ev.PaymentID = o.Metadata["payment_id"]
	switch env.Type {
	case "payment_intent.succeeded", "payment_intent.payment_failed", "payment_intent.canceled":
		ev.TransactionID = o.ID
		ev.Amount = amount(o.Amount)
		switch env.Type {
		case "payment_intent.succeeded":
			ev.Kind = ports.EventPaymentSucceeded
		case "payment_intent.payment_failed":
			ev.Kind = ports.EventPaymentFailed
			if e := o.LastPaymentError; e != nil {
				ev.DeclineCode, ev.DeclineMessage = e.DeclineCode, e.Message
				if ev.DeclineCode == "" {
					ev.DeclineCode = e.Code
				}
			}
		default:
			ev.Kind = ports.EventPaymentCanceled
		}
	case "charge.refunded":
		ev.Kind = ports.EventRefundUpdated
		ev.TransactionID = idOf(o.PaymentIntent)
		ev.ProviderReference = o.ID
		ev.Amount = amount(o.Amount)
		ev.AmountRefunded = amount(o.AmountRefunded)
		if o.Refunds != nil {
			for _, r := range o.Refunds.Data {
				ev.Refunds = append(ev.Refunds, ports.WebhookRefund{
					ProviderRefundID: r.ID, RefundID: r.Metadata["refund_id"], Amount: amount(r.Amount), Status: refundStatus(r.Status),
				})
			}
		}
	case "invoice.paid", "invoice.payment_failed":
		ev.TransactionID = idOf(o.PaymentIntent)
		ev.CustomerEmail = o.CustomerEmail
		sub := idOf(o.Subscription)
		if sub == "" && o.Parent != nil && o.Parent.SubscriptionDetails != nil {
			sub = idOf(o.Parent.SubscriptionDetails.Subscription)
		}
		ev.Subscription = map[string]string{"invoice_id": o.ID, "subscription_id": sub, "customer": idOf(o.Customer)}
		for k, v := range o.Metadata {
			if k != "payment_id" {
				ev.Subscription["metadata."+k] = v
			}
		}
		if env.Type == "invoice.paid" {
			ev.Kind = ports.EventInvoicePaid
			ev.Amount = amount(o.AmountPaid)
		} else {
			ev.Kind = ports.EventInvoicePaymentFailed
			ev.Amount = amount(o.AmountDue)
			ev.DeclineCode = "card_declined"
			ev.DeclineMessage = "The subscription invoice payment failed"
		}
	}
	return ev, nil
}
