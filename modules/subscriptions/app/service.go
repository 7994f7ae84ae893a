// Package app holds the subscription use cases: the lifecycle (create, update, pause,
// resume, cancel), renewal billing (the sweep, the claim of an invoice's charge, the
// order of a paid cycle), dunning (retries on the schedule, emails, grace, recovery,
// failing out), the admin dunning views and the reaction to provider invoice events.
package app

import (
	"context"
	"fmt"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/subscriptions/api"
	"github.com/gocommerce/commerce/modules/subscriptions/domain"
	"github.com/gocommerce/commerce/modules/subscriptions/ports"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/jobs"
	"github.com/gocommerce/commerce/platform/money"
	"github.com/gocommerce/commerce/platform/tx"
)

// TaskRetry retries one invoice's charge when its next_retry_at comes (payload
// {"invoice_id"}); the dunning sweep finds any the queue lost.
const TaskRetry = "subscriptions:retry_invoice"

// Settings is the module's slice of the configuration.
type Settings struct {
	// BatchSize is how many renewals a sweep reads at once; SweepFor how long it goes on
	// reading full batches (the billing interval: the next sweep takes over then).
	BatchSize  int
	SweepFor   time.Duration
	ClaimLease time.Duration
	Dunning    domain.Dunning
	// ShopName and PublicURL fill the dunning emails.
	ShopName, PublicURL string
}

// SettingsFrom takes the settings from the configuration.
func SettingsFrom(cfg *config.Config) Settings {
	s := cfg.Subscriptions
	return Settings{BatchSize: s.BatchSize, SweepFor: s.BillingInterval, ClaimLease: s.ClaimLease, ShopName: cfg.Notifications.ShopName, PublicURL: cfg.HTTP.PublicURL,
		Dunning: domain.Dunning{Schedule: s.Dunning.RetrySchedule, MaxRetries: s.Dunning.MaxAttempts, Grace: s.Dunning.GracePeriod}}
}

// Modules are the other modules the service calls.
type Modules struct {
	Payments  ports.Payments
	Orders    ports.Orders
	Catalog   ports.Catalog
	Customers ports.Customers
	Notifier  ports.Notifier
}

// Service implements the module's use cases.
type Service struct {
	tx       tx.Manager
	repo     ports.Repository
	mods     Modules
	events   event.Publisher
	jobs     jobs.Enqueuer
	clock    clock.Clock
	settings Settings
	log      *zap.Logger
	newID    func() string
}

// NewService builds the service.
func NewService(tm tx.Manager, repo ports.Repository, mods Modules, pub event.Publisher, enq jobs.Enqueuer, clk clock.Clock,
	settings Settings, log *zap.Logger) *Service {
	if settings.BatchSize <= 0 {
		settings.BatchSize = 100
	}
	if settings.ClaimLease <= 0 {
		settings.ClaimLease = 5 * time.Minute
	}
	if len(settings.Dunning.Schedule) == 0 {
		settings.Dunning.Schedule = []time.Duration{24 * time.Hour, 72 * time.Hour, 168 * time.Hour}
	}
	if settings.Dunning.MaxRetries <= 0 || settings.Dunning.MaxRetries > len(settings.Dunning.Schedule) {
		settings.Dunning.MaxRetries = len(settings.Dunning.Schedule)
	}
	return &Service{tx: tm, repo: repo, mods: mods, events: pub, jobs: enq, clock: clk, settings: settings,
		log: log.Named("subscriptions"), newID: ids.New}
}

// Settings returns the effective settings.
func (s *Service) Settings() Settings { return s.settings }

func (s *Service) publishSub(ctx context.Context, eventType string, sub *domain.Subscription) error {
	if err := s.events.Publish(ctx, eventType, sub.ID, ToResource(sub)); err != nil {
		return fmt.Errorf("subscriptions: %w", err)
	}
	return nil
}

func (s *Service) publishInvoice(ctx context.Context, eventType string, inv *domain.Invoice) error {
	if err := s.events.Publish(ctx, eventType, inv.ID, ToInvoice(inv)); err != nil {
		return fmt.Errorf("subscriptions: %w", err)
	}
	return nil
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// ToResource is the subscription's resource.
func ToResource(s *domain.Subscription) api.Subscription {
	return api.Subscription{
		ID: s.ID, CustomerID: s.CustomerID, OrderID: s.OrderID, ProductID: s.ProductID, VariantID: optional(s.VariantID),
		Status: string(s.Status), Interval: s.BillingInterval, IntervalCount: s.IntervalCount, Currency: s.Currency,
		Amount: money.Format(s.Amount, s.Currency), SetupFee: money.Format(s.SetupFee, s.Currency), TrialDays: s.TrialDays,
		TrialEndsAt: s.TrialEndsAt, CurrentCycle: s.CurrentCycle, MinCycles: s.MinCycles, MaxCycles: s.MaxCycles, StartsAt: s.StartsAt,
		NextBillingAt: s.NextBillingAt, LastBillingAt: s.LastBillingAt, EndsAt: s.EndsAt, CancelledAt: s.CancelledAt,
		CancellationReason: optional(s.CancellationReason), PaymentMethodID: s.PaymentMethodID, Gateway: s.Gateway, Notes: s.Notes,
		CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt,
	}
}

// ToInvoice is the invoice's resource.
func ToInvoice(i *domain.Invoice) api.Invoice {
	return api.Invoice{
		ID: i.ID, SubscriptionID: i.SubscriptionID, OrderID: optional(i.OrderID), CycleNumber: i.CycleNumber, PeriodStart: i.PeriodStart,
		PeriodEnd: i.PeriodEnd, Subtotal: money.Format(i.Subtotal, i.Currency), TaxTotal: money.Format(i.TaxTotal, i.Currency),
		Total: money.Format(i.Total, i.Currency), Status: string(i.Status), PaidAt: i.PaidAt, PaymentID: optional(i.PaymentID),
		FailedAttempts: i.FailedAttempts, LastFailedAt: i.LastFailedAt, FailureReason: optional(i.FailureReason),
		NextRetryAt: i.NextRetryAt, RetryCount: i.RetryCount, CreatedAt: i.CreatedAt, UpdatedAt: i.UpdatedAt,
	}
}

// enqueueRetry queues the invoice's retry for when it is due (after the commit); the
// dunning sweep is the backstop when the queue loses it.
func (s *Service) enqueueRetry(ctx context.Context, inv *domain.Invoice) {
	if inv.NextRetryAt == nil || s.jobs == nil {
		return
	}
	id, delay, key := inv.ID, inv.NextRetryAt.Sub(s.clock.Now()), fmt.Sprintf("subscriptions:retry:%s:%d", inv.ID, inv.FailedAttempts)
	s.tx.AfterCommit(ctx, func() {
		opts := []jobs.Option{jobs.Unique(key)}
		if delay > 0 {
			opts = append(opts, jobs.Delay(delay))
		}
		if err := s.jobs.Enqueue(context.Background(), TaskRetry, map[string]string{"invoice_id": id}, opts...); err != nil {
			s.log.Warn("enqueue retry failed; the sweep will retry it", zap.String("invoice_id", id), zap.Error(err))
		}
	})
}
