// Package events turns other modules' events into the store's own messages: order
// confirmation, shipped with tracking, cancelled, payment received and failed,
// refund, account invite, welcome, password reset, low stock and disabled webhook
// endpoints to staff (the abandoned-cart sweep reads the carts module instead of cart
// events: decision 0233). Each message is sent once per event (the
// event id, or the order or customer it concerns, is its dedupe key).
package events

import (
	"context"
	"fmt"

	"go.uber.org/zap"

	catalog "github.com/gocommerce/commerce/modules/catalog/api"
	checkout "github.com/gocommerce/commerce/modules/checkout/api"
	customers "github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/modules/notifications/api"
	"github.com/gocommerce/commerce/modules/notifications/app"
	"github.com/gocommerce/commerce/modules/notifications/domain"
	orders "github.com/gocommerce/commerce/modules/orders/api"
	payments "github.com/gocommerce/commerce/modules/payments/api"
	webhooks "github.com/gocommerce/commerce/modules/webhooks/api"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/modkit"
)

// Subscriber reacts to the events.
type Subscriber struct{ modkit.Reactor[*app.Service] }

// NewSubscriber builds the subscriber.
func NewSubscriber(svc *app.Service, log *zap.Logger) *Subscriber {
	return &Subscriber{modkit.NewReactor(svc, log, "notifications.events")}
}

// Subscribe registers the handlers.
func (s *Subscriber) Subscribe(sub event.Subscriber) {
	handlers := map[string]func(context.Context, event.Event) error{
		checkout.EventCheckoutCompleted:      s.checkoutCompleted,
		orders.EventOrderCreated:             s.orderCreated,
		orders.EventOrderCancelled:           s.orderCancelled,
		orders.EventOrderPaymentReceived:     s.paymentReceived,
		orders.EventOrderFulfillmentCreated:  s.fulfillmentCreated,
		orders.EventOrderRefundCreated:       s.refundCreated,
		payments.EventPaymentFailed:          s.paymentFailed,
		customers.EventCustomerCreated:       s.customerCreated,
		customers.EventCustomerEnabled:       s.customerEnabled,
		customers.EventCustomerInvited:       s.customerInvited,
		customers.EventCustomerPasswordReset: s.passwordReset,
		customers.EventCustomerDeleted:       s.forgetCustomer,
		customers.EventCustomerAnonymized:    s.forgetCustomer,
		catalog.EventProductLowStock:         s.lowStock,
		webhooks.EventEndpointDisabled:       s.webhookDisabled,
	}
	for t, h := range handlers {
		sub.Subscribe(t, s.decoded(h))
	}
}

// decoded wraps a handler: a payload that does not decode is logged and dropped (a
// retry would not fix it).
func (s *Subscriber) decoded(h func(context.Context, event.Event) error) event.Handler {
	return func(ctx context.Context, e event.Event) error {
		err := h(ctx, e)
		if de, ok := err.(decodeError); ok { //nolint:errorlint // decodeError is never wrapped
			s.Log.Warn("event payload dropped", zap.String("type", e.Type), zap.String("id", e.ID), zap.Error(de.err))
			return nil
		}
		return err
	}
}

type decodeError struct{ err error }

func (d decodeError) Error() string { return d.err.Error() }

func decode[T any](e event.Event) (T, error) {
	var v T
	if err := e.Decode(&v); err != nil {
		return v, decodeError{fmt.Errorf("%s: %w", e.Type, err)}
	}
	return v, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func orderItems(o orders.Order) []map[string]any {
	items := make([]map[string]any, len(o.LineItems))
	for i, li := range o.LineItems {
		title := li.Title
		if li.VariantTitle != "" {
			title += " (" + li.VariantTitle + ")"
		}
		items[i] = map[string]any{"title": title, "quantity": li.Quantity, "price": li.Price, "total": li.Total}
	}
	return items
}

func (s *Subscriber) checkoutCompleted(ctx context.Context, e event.Event) error {
	c, err := decode[checkout.CheckoutCompleted](e)
	if err != nil {
		return err
	}
	return s.App.Notify(ctx, "order_confirmation:"+c.OrderID, api.Message{
		Recipient: c.Email, CustomerID: deref(c.CustomerID), TemplateID: app.TemplateOrderConfirmation, Priority: domain.PriorityHigh,
		Metadata: map[string]any{"order_id": c.OrderID, "event_id": e.ID},
		Variables: map[string]any{"customer_name": "there", "order_number": c.OrderNumber, "items": []map[string]any{},
			"subtotal": c.Subtotal, "shipping": c.ShippingTotal, "tax": c.TaxTotal, "total": c.Total, "currency": c.Currency},
	})
}

// orderVars are the variables every order template shares.
func orderVars(o orders.Order) map[string]any {
	name := "there"
	if a := o.BillingAddress; a != nil && a.FirstName != "" {
		name = a.FirstName
	} else if a := o.ShippingAddress; a != nil && a.FirstName != "" {
		name = a.FirstName
	}
	return map[string]any{"customer_name": name, "order_number": o.OrderNumber, "items": orderItems(o), "subtotal": o.SubtotalPrice,
		"shipping": o.TotalShipping, "tax": o.TotalTax, "total": o.TotalPrice, "currency": o.Currency}
}

func (s *Subscriber) orderCreated(ctx context.Context, e event.Event) error {
	o, err := decode[orders.OrderCreated](e)
	if err != nil || !o.SendReceipt {
		return err
	}
	return s.App.Notify(ctx, "order_confirmation:"+o.ID, api.Message{
		Recipient: o.Email, CustomerID: deref(o.CustomerID), TemplateID: app.TemplateOrderConfirmation, Priority: domain.PriorityHigh,
		Metadata: map[string]any{"order_id": o.ID, "event_id": e.ID}, Variables: orderVars(o.Order),
	})
}

func (s *Subscriber) orderCancelled(ctx context.Context, e event.Event) error {
	o, err := decode[orders.OrderCancelled](e)
	if err != nil || !o.NotifyCustomer {
		return err
	}
	vars := orderVars(o.Order)
	vars["reason"] = deref(o.CancelReason)
	if vars["reason"] == "" {
		vars["reason"] = "other"
	}
	return s.App.Notify(ctx, "order_cancelled:"+o.ID, api.Message{
		Recipient: o.Email, CustomerID: deref(o.CustomerID), TemplateID: app.TemplateOrderCancelled, Priority: domain.PriorityHigh,
		Metadata: map[string]any{"order_id": o.ID, "event_id": e.ID}, Variables: vars,
	})
}

func (s *Subscriber) paymentReceived(ctx context.Context, e event.Event) error {
	o, err := decode[orders.Order](e)
	if err != nil {
		return err
	}
	vars := orderVars(o)
	vars["amount"], vars["payment_method"] = o.TotalPrice, "card"
	return s.App.Notify(ctx, "payment_received:"+e.ID, api.Message{
		Recipient: o.Email, CustomerID: deref(o.CustomerID), TemplateID: app.TemplatePaymentSuccessful,
		Metadata: map[string]any{"order_id": o.ID, "event_id": e.ID}, Variables: vars,
	})
}

func (s *Subscriber) fulfillmentCreated(ctx context.Context, e event.Event) error {
	f, err := decode[orders.FulfillmentEvent](e)
	if err != nil || !f.NotifyCustomer || f.TrackingNumber == "" {
		return err
	}
	return s.App.Notify(ctx, "order_shipped:"+f.ID, api.Message{
		Recipient: f.Email, CustomerID: deref(f.CustomerID), TemplateID: app.TemplateOrderShipped,
		Metadata: map[string]any{"order_id": f.OrderID, "fulfillment_id": f.ID, "event_id": e.ID},
		Variables: map[string]any{"customer_name": "there", "order_number": f.OrderNumber, "carrier": f.TrackingCompany,
			"tracking_number": f.TrackingNumber, "tracking_url": f.TrackingURL},
	})
}

func (s *Subscriber) refundCreated(ctx context.Context, e event.Event) error {
	r, err := decode[orders.RefundEvent](e)
	if err != nil || !r.NotifyCustomer {
		return err
	}
	return s.App.Notify(ctx, "refund:"+r.ID, api.Message{
		Recipient: r.Email, CustomerID: deref(r.CustomerID), TemplateID: app.TemplateRefundProcessed,
		Metadata:  map[string]any{"order_id": r.OrderID, "refund_id": r.ID, "event_id": e.ID},
		Variables: map[string]any{"customer_name": "there", "order_number": r.OrderNumber, "amount": r.Amount, "currency": r.Currency},
	})
}

func (s *Subscriber) paymentFailed(ctx context.Context, e event.Event) error {
	p, err := decode[payments.PaymentEvent](e)
	if err != nil || p.CustomerEmail == "" {
		return err
	}
	msg := p.ErrorMessage
	if msg == "" {
		msg = p.ErrorCode
	}
	return s.App.Notify(ctx, "payment_failed:"+e.ID, api.Message{
		Recipient: p.CustomerEmail, CustomerID: p.CustomerID, TemplateID: app.TemplatePaymentFailed, Priority: domain.PriorityHigh,
		Metadata: map[string]any{"payment_id": p.PaymentID, "order_id": p.OrderID, "event_id": e.ID},
		Variables: map[string]any{"customer_name": "there", "amount": p.Amount, "currency": p.Currency,
			"error_message": msg},
	})
}

func (s *Subscriber) customerCreated(ctx context.Context, e event.Event) error {
	c, err := decode[customers.CustomerCreated](e)
	if err != nil || c.State != customers.StateEnabled {
		return err // an invited customer is welcomed when the invite is accepted
	}
	return s.App.Welcome(ctx, c.ID)
}

func (s *Subscriber) customerEnabled(ctx context.Context, e event.Event) error {
	return withCustomer(e, func(c customers.Customer) error { return s.App.Welcome(ctx, c.ID) })
}

func (s *Subscriber) customerInvited(ctx context.Context, e event.Event) error {
	return withCustomer(e, func(c customers.Customer) error { return s.App.Invite(ctx, "invite:"+e.ID, c.ID) })
}

func (s *Subscriber) passwordReset(ctx context.Context, e event.Event) error {
	return withCustomer(e, func(c customers.Customer) error {
		return s.App.PasswordReset(ctx, "password_reset:"+e.ID, c.ID)
	})
}

// withCustomer runs fn on the customer a customer event carries (its data is the
// customer, with an expiry beside it for an invitation or a password reset).
func withCustomer(e event.Event, fn func(customers.Customer) error) error {
	c, err := decode[customers.Customer](e)
	if err != nil {
		return err
	}
	return fn(c)
}

// forgetCustomer erases a deleted or anonymized customer's data (both events carry the
// customer's id).
func (s *Subscriber) forgetCustomer(ctx context.Context, e event.Event) error {
	c, err := decode[customers.CustomerDeleted](e)
	if err != nil || c.ID == "" {
		return err
	}
	return s.App.ForgetCustomer(ctx, c.ID)
}

func (s *Subscriber) lowStock(ctx context.Context, e event.Event) error {
	p, err := decode[catalog.ProductResource](e)
	if err != nil {
		return err
	}
	sku := ""
	if p.Variants != nil && len(*p.Variants) > 0 {
		sku = (*p.Variants)[0].SKU
	}
	return s.App.LowStock(ctx, "low_stock:"+e.ID, map[string]any{"product_title": p.Title, "product_id": p.ID, "sku": sku,
		"quantity": p.InventoryQuantity, "threshold": p.LowStockThreshold})
}

func (s *Subscriber) webhookDisabled(ctx context.Context, e event.Event) error {
	w, err := decode[webhooks.Endpoint](e)
	if err != nil {
		return err
	}
	reason := "consecutive delivery failures"
	if w.DisabledReason != nil && *w.DisabledReason != "" {
		reason = *w.DisabledReason
	}
	return s.App.WebhookDisabled(ctx, "webhook_disabled:"+e.ID, w.ID, w.URL, reason, w.FailureCount)
}
