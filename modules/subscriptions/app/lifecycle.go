package app

import (
	"context"
	"errors"
	"slices"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/subscriptions/api"
	"github.com/gocommerce/commerce/modules/subscriptions/domain"
	"github.com/gocommerce/commerce/modules/subscriptions/ports"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/patch"
)

// Caller is who asks: a customer (CustomerID set) sees and changes only their own
// subscriptions; Admin (scope admin) may also cancel before min_cycles.
type Caller struct {
	CustomerID string
	Admin      bool
}

func (c Caller) owns(sub *domain.Subscription) bool {
	return c.CustomerID == "" || c.CustomerID == sub.CustomerID
}

// load reads a subscription the caller may see (another customer's is not found).
func (s *Service) load(ctx context.Context, c Caller, id string) (*domain.Subscription, error) {
	sub, err := s.repo.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if !c.owns(sub) {
		return nil, domain.ErrSubscriptionNotFound
	}
	return sub, nil
}

// Create validates and stores a subscription. Without trial days its first cycle is
// billed at once (after the commit: the charge never runs inside a transaction), and
// the answer shows the outcome (active and paid, or past_due in dunning).
func (s *Service) Create(ctx context.Context, c Caller, in domain.Input) (*domain.Subscription, error) {
	now := s.clock.Now()
	sub, err := domain.NewSubscription(s.newID(), in, now)
	if err != nil {
		return nil, err
	}
	if c.CustomerID != "" && sub.CustomerID != c.CustomerID {
		return nil, apperr.Validation(map[string]string{"customer_id": "must be your own customer id"})
	}
	owner, err := s.mods.Orders.CustomerOf(ctx, sub.OrderID)
	if err != nil {
		return nil, err
	}
	if c.CustomerID != "" && owner != c.CustomerID {
		return nil, apperr.Validation(map[string]string{"order_id": "must be one of your orders"})
	}
	if err := s.checkMethod(ctx, sub.CustomerID, sub.PaymentMethodID); err != nil {
		return nil, err
	}
	if sub.ProductName, err = s.mods.Catalog.ProductName(ctx, sub.ProductID); err != nil {
		return nil, err
	}
	if err := s.tx.InTx(ctx, func(ctx context.Context) error {
		if err := s.repo.Create(ctx, sub); err != nil {
			return err
		}
		return s.publishSub(ctx, api.EventSubscriptionCreated, sub)
	}); err != nil {
		return nil, err
	}
	if sub.Status == domain.StatusActive {
		if err := s.Renew(ctx, sub.ID); err != nil {
			s.log.Warn("first cycle billing failed; the sweep resumes it", zap.String("subscription_id", sub.ID), zap.Error(err))
		}
		return s.repo.Get(ctx, sub.ID)
	}
	return sub, nil
}

// Get returns a subscription the caller may see.
func (s *Service) Get(ctx context.Context, c Caller, id string) (*domain.Subscription, error) {
	return s.load(ctx, c, id)
}

// ListQuery is the list's filter: a customer caller lists their own; staff may name a
// customer_id.
type ListQuery struct {
	CustomerID, Status string
	Offset, Limit      int
}

// List returns a page of subscriptions.
func (s *Service) List(ctx context.Context, c Caller, q ListQuery) ([]domain.Subscription, int64, error) {
	if q.Status != "" && !slices.Contains(domain.Statuses, q.Status) {
		return nil, 0, apperr.Validation(map[string]string{"status": "must be one of: active, paused, cancelled, expired, past_due, trialing, pending"})
	}
	f := ports.Filter{CustomerID: q.CustomerID, Status: q.Status}
	if c.CustomerID != "" {
		f.CustomerID = c.CustomerID
	}
	return s.repo.List(ctx, f, q.Offset, q.Limit)
}

// Invoices lists the subscription's invoices, newest first.
func (s *Service) Invoices(ctx context.Context, c Caller, id string) ([]domain.Invoice, error) {
	if _, err := s.load(ctx, c, id); err != nil {
		return nil, err
	}
	return s.repo.Invoices(ctx, id)
}

// mutate loads the subscription, applies change and stores it with the event, in one
// transaction.
func (s *Service) mutate(ctx context.Context, c Caller, id string, change func(ctx context.Context, sub *domain.Subscription) (string, error)) (*domain.Subscription, error) {
	var out *domain.Subscription
	err := s.tx.InTx(ctx, func(ctx context.Context) error {
		sub, err := s.load(ctx, c, id)
		if err != nil {
			return err
		}
		ev, err := change(ctx, sub)
		if err != nil {
			return err
		}
		if err := s.repo.Update(ctx, sub); err != nil {
			return err
		}
		out = sub
		return s.publishSub(ctx, ev, sub)
	})
	return out, err
}

// Update applies an update body. A customer may change interval, interval_count and
// payment_method_id; the price, the schedule and notes are the merchant's.
func (s *Service) Update(ctx context.Context, c Caller, id string, in domain.Input) (*domain.Subscription, error) {
	if c.CustomerID != "" {
		if names := in.MerchantOnly(); len(names) > 0 {
			bad := patch.Problems{}
			for _, n := range names {
				bad.Add(n, "may be changed only by the merchant")
			}
			return nil, bad.Err()
		}
	}
	return s.mutate(ctx, c, id, func(ctx context.Context, sub *domain.Subscription) (string, error) {
		before := sub.PaymentMethodID
		if err := sub.Apply(in, s.clock.Now()); err != nil {
			return "", err
		}
		if sub.PaymentMethodID != before {
			if err := s.checkMethod(ctx, sub.CustomerID, sub.PaymentMethodID); err != nil {
				return "", err
			}
		}
		return api.EventSubscriptionUpdated, nil
	})
}

// checkMethod refuses a payment method the subscription's customer did not save: a
// token copied from someone else never pays for this subscription.
func (s *Service) checkMethod(ctx context.Context, customerID, token string) error {
	ok, err := s.mods.Payments.OwnsMethod(ctx, customerID, token)
	if err != nil {
		return err
	}
	if !ok {
		return apperr.Validation(map[string]string{"payment_method_id": "must be one of the customer's saved payment methods"})
	}
	return nil
}

// Pause suspends billing.
func (s *Service) Pause(ctx context.Context, c Caller, id string) (*domain.Subscription, error) {
	return s.mutate(ctx, c, id, func(ctx context.Context, sub *domain.Subscription) (string, error) {
		return api.EventSubscriptionPaused, sub.Pause(s.clock.Now())
	})
}

// Resume restarts billing.
func (s *Service) Resume(ctx context.Context, c Caller, id string) (*domain.Subscription, error) {
	return s.mutate(ctx, c, id, func(ctx context.Context, sub *domain.Subscription) (string, error) {
		return api.EventSubscriptionResumed, sub.Resume(s.clock.Now())
	})
}

// CancelInput is the cancel body.
type CancelInput struct {
	Reason, Details string
	AtEnd           bool
}

// Cancel ends the subscription now or at the end of the period (min_cycles respected
// unless the caller is an admin); an open invoice in dunning is cancelled with it.
func (s *Service) Cancel(ctx context.Context, c Caller, id string, in CancelInput) (*domain.Subscription, error) {
	if in.Reason == "" {
		in.Reason = domain.ReasonCustomerRequested
	}
	if !slices.Contains(domain.Reasons, in.Reason) {
		return nil, apperr.Validation(map[string]string{"reason": "must be one of: customer_requested, payment_failed, fraudulent, too_expensive, not_useful, other"})
	}
	if len(in.Details) > 5000 {
		return nil, apperr.Validation(map[string]string{"reason_details": "must be at most 5000 characters"})
	}
	return s.mutate(ctx, c, id, func(ctx context.Context, sub *domain.Subscription) (string, error) {
		now := s.clock.Now()
		err := sub.Cancel(domain.CancelCommand{Reason: in.Reason, Details: in.Details, AtEnd: in.AtEnd, EnforceMinCycles: !c.Admin}, now)
		if err != nil {
			return "", err
		}
		if sub.Status != domain.StatusCancelled {
			return api.EventSubscriptionUpdated, nil
		}
		return api.EventSubscriptionCancelled, s.voidOpen(ctx, sub.ID, now)
	})
}

// voidOpen cancels the subscription's invoice in dunning, if any.
func (s *Service) voidOpen(ctx context.Context, subscriptionID string, now time.Time) error {
	inv, err := s.repo.OpenInvoice(ctx, subscriptionID)
	if err != nil {
		if errors.Is(err, domain.ErrInvoiceNotFound) {
			return nil
		}
		return err
	}
	inv.Lose(now)
	ok, err := s.repo.Settle(ctx, inv, []domain.InvoiceStatus{domain.InvoiceFailed}, "")
	if err != nil || !ok {
		return err
	}
	return s.publishInvoice(ctx, api.EventInvoiceCancelled, inv)
}
