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

// RemindAbandonedCarts emails the customers whose cart with items has been idle for
// notifications.abandoned_cart_delay, once per idle spell, if they accept marketing.
// The candidates come from the carts module at sweep time (decision 0233), page by
// page; a cart already reminded for its current last change is skipped.
func (s *Service) RemindAbandonedCarts(ctx context.Context) (int64, error) {
	if s.settings.AbandonedCartDelay <= 0 {
		return 0, nil
	}
	now := s.clock.Now()
	before := now.Add(-s.settings.AbandonedCartDelay)
	var n int64
	var after ports.CartActivity
	for range maxReminderPages {
		carts, err := s.stores.IdleCarts.IdleCustomerCarts(ctx, before, after, reminderPage)
		if err != nil {
			return n, err
		}
		if len(carts) == 0 {
			return n, nil
		}
		ids := make([]string, len(carts))
		for i, c := range carts {
			ids[i] = c.CartID
		}
		reminded, err := s.stores.Carts.RemindedFor(ctx, ids)
		if err != nil {
			return n, err
		}
		for _, c := range carts {
			if last, ok := reminded[c.CartID]; ok && !last.Before(c.LastActiveAt.UTC().Truncate(time.Microsecond)) {
				continue
			}
			key := "abandoned_cart:" + c.CartID + ":" + strconv.FormatInt(c.LastActiveAt.Unix(), 10)
			if err := s.Notify(ctx, key, api.Message{CustomerID: c.CustomerID, TemplateID: TemplateAbandonedCart, Marketing: true,
				Priority: domain.PriorityLow, Metadata: map[string]any{"cart_id": c.CartID},
				Variables: map[string]any{"item_count": c.ItemCount, "total": c.Total, "currency": c.Currency,
					"cart_url": s.settings.ShopURL + "/cart"}}); err != nil {
				return n, err
			}
			if err := s.stores.Carts.Reminded(ctx, c, now); err != nil {
				return n, err
			}
			n++
		}
		if len(carts) < reminderPage {
			return n, nil
		}
		after = carts[len(carts)-1]
	}
	return n, nil
}

// A sweep reads idle carts reminderPage at a time, at most maxReminderPages pages a run
// (50,000 carts, the longest idle first).
const (
	reminderPage     = 500
	maxReminderPages = 100
)

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
