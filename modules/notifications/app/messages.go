package app

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/notifications/api"
	"github.com/gocommerce/commerce/modules/notifications/domain"
	"github.com/gocommerce/commerce/modules/notifications/ports"
	"github.com/gocommerce/commerce/platform/apperr"
)

// The built-in templates the store's own messages use.
const (
	TemplateOrderConfirmation = "order_confirmation_html"
	TemplateOrderShipped      = "order_shipped_html"
	TemplateOrderCancelled    = "order_cancelled_html"
	TemplatePaymentSuccessful = "payment_successful_html"
	TemplatePaymentFailed     = "payment_failed_html"
	TemplateRefundProcessed   = "refund_processed_html"
	TemplateWelcome           = "welcome_html"
	TemplatePasswordReset     = "password_reset_html"
	TemplateAbandonedCart     = "abandoned_cart_html"
	TemplateLowStock          = "low_stock_alert"
	TemplateCustomerInvite    = "customer_invite_html"
)

// Notify sends one of the store's own messages once per key (an event redelivered
// sends nothing more). A message that cannot be built (no address, a deleted
// template) is logged and dropped: retrying the event would not change it.
func (s *Service) Notify(ctx context.Context, key string, m api.Message) error {
	if m.Recipient == "" && m.CustomerID != "" {
		c, err := s.customers.Customer(ctx, m.CustomerID)
		if err != nil {
			return s.drop(key, err)
		}
		m.Recipient = c.Email
		if m.Variables == nil {
			m.Variables = map[string]any{}
		}
		if _, ok := m.Variables["customer_name"]; !ok {
			m.Variables["customer_name"] = displayName(c)
		}
	}
	if m.Recipient == "" {
		s.log.Debug("store message without recipient dropped", zap.String("key", key))
		return nil
	}
	if _, err := s.send(ctx, m, key); err != nil {
		return s.drop(key, err)
	}
	return nil
}

// drop logs a message that cannot be sent and answers nil, unless err is one a retry
// may fix (a database or network error), which it returns.
func (s *Service) drop(key string, err error) error {
	var ae *apperr.Error
	if errors.As(err, &ae) && ae.Kind != apperr.Internal && ae.Kind != apperr.Unavailable {
		s.log.Warn("store message dropped", zap.String("key", key), zap.Error(err))
		return nil
	}
	return err
}

func displayName(c ports.Customer) string {
	switch {
	case c.FirstName != "" && c.LastName != "":
		return c.FirstName + " " + c.LastName
	case c.FirstName != "":
		return c.FirstName
	case c.LastName != "":
		return c.LastName
	}
	return "there"
}

// Welcome greets a customer whose account became usable (registration, or an invite
// accepted), once per customer.
func (s *Service) Welcome(ctx context.Context, customerID string) error {
	return s.Notify(ctx, "welcome:"+customerID, api.Message{CustomerID: customerID, TemplateID: TemplateWelcome})
}

// accountLink sends a template with the customer's current account link.
func (s *Service) accountLink(ctx context.Context, key, customerID, template, urlVar string,
	link func(ctx context.Context, id string) (ports.Link, error)) error {
	l, err := link(ctx, customerID)
	if err != nil {
		return s.drop(key, err)
	}
	return s.Notify(ctx, key, api.Message{CustomerID: customerID, TemplateID: template, Priority: domain.PriorityHigh,
		Variables: map[string]any{urlVar: l.URL, "expires_at": l.ExpiresAt.UTC().Format(time.RFC1123)}})
}

// Invite emails a customer's account invite with its activation link.
func (s *Service) Invite(ctx context.Context, key, customerID string) error {
	return s.accountLink(ctx, key, customerID, TemplateCustomerInvite, "activation_url", s.customers.ActivationLink)
}

// PasswordReset emails a customer's password reset link.
func (s *Service) PasswordReset(ctx context.Context, key, customerID string) error {
	return s.accountLink(ctx, key, customerID, TemplatePasswordReset, "reset_url", s.customers.PasswordResetLink)
}

// LowStock alerts every staff address of notifications.staff_emails.
func (s *Service) LowStock(ctx context.Context, key string, vars map[string]any) error {
	for _, to := range s.settings.StaffEmails {
		if err := s.Notify(ctx, key+":"+to, api.Message{Recipient: to, TemplateID: TemplateLowStock, Priority: domain.PriorityHigh,
			Variables: vars}); err != nil {
			return err
		}
	}
	return nil
}

// WebhookDisabled tells every staff address of notifications.staff_emails that an
// outbound webhook endpoint was disabled after its streak of failures (issue 22).
func (s *Service) WebhookDisabled(ctx context.Context, key, endpointID, url, reason string, failures int) error {
	subject := "Webhook endpoint disabled: " + url
	body := fmt.Sprintf("The webhook endpoint %s (%s) was disabled after %d failed deliveries in a row: %s.\n\n"+
		"Its pending deliveries were marked failed. Fix the receiver, then enable the endpoint again with "+
		"PATCH /api/v1/webhooks/%s {\"enabled\": true} and redeliver the events it missed from its deliveries list.",
		url, endpointID, failures, reason, endpointID)
	for _, to := range s.settings.StaffEmails {
		if err := s.Notify(ctx, key+":"+to, api.Message{Recipient: to, Subject: subject, Body: body, Priority: domain.PriorityHigh,
			Metadata: map[string]any{"webhook_endpoint_id": endpointID}}); err != nil {
			return err
		}
	}
	return nil
}

// TouchCart records a cart's state (cart events with the cart resource).
func (s *Service) TouchCart(ctx context.Context, c ports.CartActivity) error {
	return s.stores.Carts.Touch(ctx, c)
}

// CartActivity records item activity on a cart.
func (s *Service) CartActivity(ctx context.Context, cartID, total string, at time.Time) error {
	return s.stores.Carts.Activity(ctx, cartID, total, !zeroTotal(total), at)
}

// CartActivities records item activity on several carts, in the order seen: the last
// (latest) activity of each cart is the one recorded, in one write.
func (s *Service) CartActivities(ctx context.Context, as []ports.ItemActivity) error {
	latest := make(map[string]int, len(as))
	out := make([]ports.ItemActivity, 0, len(as))
	for _, a := range as {
		a.HasItems = !zeroTotal(a.Total)
		i, seen := latest[a.CartID]
		switch {
		case !seen:
			latest[a.CartID] = len(out)
			out = append(out, a)
		case !a.At.Before(out[i].At):
			out[i] = a
		}
	}
	return s.stores.Carts.Activities(ctx, out)
}

func zeroTotal(total string) bool { return total == "" || total == "0" || total == "0.00" }

// ForgetCart stops watching a cart (it became an order).
func (s *Service) ForgetCart(ctx context.Context, cartID string) error {
	return s.stores.Carts.Forget(ctx, cartID)
}

// RemindAbandonedCarts emails the customers whose cart with items has been idle for
// notifications.abandoned_cart_delay, once per idle spell, if they accept marketing.
func (s *Service) RemindAbandonedCarts(ctx context.Context) (int64, error) {
	if s.settings.AbandonedCartDelay <= 0 {
		return 0, nil
	}
	now := s.clock.Now()
	carts, err := s.stores.Carts.Abandoned(ctx, now.Add(-s.settings.AbandonedCartDelay), sweepLimit)
	if err != nil {
		return 0, err
	}
	var n int64
	for _, c := range carts {
		key := "abandoned_cart:" + c.CartID + ":" + strconv.FormatInt(c.LastActiveAt.Unix(), 10)
		if err := s.Notify(ctx, key, api.Message{CustomerID: c.CustomerID, TemplateID: TemplateAbandonedCart, Marketing: true,
			Priority: domain.PriorityLow, Metadata: map[string]any{"cart_id": c.CartID},
			Variables: map[string]any{"item_count": c.ItemCount, "total": c.Total, "currency": c.Currency,
				"cart_url": s.settings.ShopURL + "/cart"}}); err != nil {
			return n, err
		}
		if err := s.stores.Carts.Reminded(ctx, c.CartID, now); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// ForgetCustomer erases what the module keeps of a deleted or anonymized customer:
// their notifications keep their status, channel and times (statistics) but lose the
// recipient, texts and metadata; those not sent yet are cancelled; their carts are no
// longer watched.
func (s *Service) ForgetCustomer(ctx context.Context, customerID string) error {
	return s.tx.InTx(ctx, func(ctx context.Context) error {
		if _, err := s.stores.Notifications.ForgetCustomer(ctx, customerID, s.clock.Now()); err != nil {
			return err
		}
		return s.stores.Carts.ForgetCustomer(ctx, customerID)
	})
}
