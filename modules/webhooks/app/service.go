// Package app holds the webhooks use cases: endpoint management (the URL checked
// against the address policy), the fan-out of every committed event into one delivery
// per subscribed endpoint, and delivery: one task per endpoint that sends its due
// deliveries in turn under a lease, records every attempt, schedules retries with
// backoff and jitter, and disables an endpoint after a streak of failures.
package app

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/webhooks/api"
	"github.com/gocommerce/commerce/modules/webhooks/domain"
	"github.com/gocommerce/commerce/modules/webhooks/ports"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/jobs"
	"github.com/gocommerce/commerce/platform/tx"
)

// Task types of the module.
const (
	// TaskDeliver sends an endpoint's due deliveries (payload: DeliverTask).
	TaskDeliver = "webhooks:deliver"
	// TaskSweep finds endpoints with due deliveries no task is on (after a restart).
	TaskSweep = "webhooks:sweep"
)

// DeliverTask is TaskDeliver's payload.
type DeliverTask struct {
	EndpointID string `json:"endpoint_id"`
}

// Settings is the webhooks slice of the configuration.
type Settings struct {
	// Production makes the address policy strict (https, public addresses only).
	Production bool
	// AllowedHosts are host names, addresses and CIDR ranges exempt from the address
	// rule in production (webhooks.allowed_hosts).
	AllowedHosts []string
	// Timeout bounds one attempt, connection to the last byte read (webhooks.timeout).
	Timeout time.Duration
	// Retry is the schedule of failed attempts (webhooks.max_retries, retry_base,
	// retry_max).
	Retry domain.Retry
	// DisableAfter consecutive failed attempts disable an endpoint
	// (webhooks.disable_after; 0 never).
	DisableAfter int
	// SweepInterval is how often due deliveries nobody is sending are picked up
	// (webhooks.sweep_interval).
	SweepInterval time.Duration
	// Concurrency is how many requests an endpoint's task has in flight at most
	// (webhooks.endpoint_concurrency).
	Concurrency int
	// Lease is how long an endpoint's delivery task holds the endpoint without renewing
	// it: a killed worker's endpoints are taken over after it (2×Timeout+30s when zero).
	Lease time.Duration
}

// SettingsFrom takes the webhooks settings from the configuration.
func SettingsFrom(cfg *config.Config) Settings {
	w := cfg.Webhooks
	return Settings{Production: cfg.Production(), AllowedHosts: w.AllowedHosts, Timeout: w.Timeout,
		Retry:        domain.Retry{MaxRetries: w.MaxRetries, Base: w.RetryBase, Max: w.RetryMax},
		DisableAfter: w.DisableAfter, SweepInterval: w.SweepInterval, Concurrency: w.EndpointConcurrency}
}

// Service holds the use cases.
type Service struct {
	tx         tx.Manager
	endpoints  ports.EndpointRepository
	deliveries ports.DeliveryRepository
	sender     ports.Sender
	resolver   ports.Resolver
	jobs       jobs.Enqueuer
	events     event.Publisher
	clock      clock.Clock
	log        *zap.Logger
	settings   Settings
	policy     domain.Policy
	newID      func() string
	// routes is the enabled endpoints HandleEvent routes by; routesGen counts this
	// process's endpoint changes (a snapshot read across one is not kept).
	routes    atomic.Pointer[routes]
	routesGen atomic.Int64
	// refreshing is set while a background read of the endpoints (Wants) runs.
	refreshing atomic.Bool
}

// NewService builds the service; the allow-list was validated with the configuration.
func NewService(tm tx.Manager, endpoints ports.EndpointRepository, deliveries ports.DeliveryRepository, sender ports.Sender,
	resolver ports.Resolver, enq jobs.Enqueuer, pub event.Publisher, clk clock.Clock, log *zap.Logger, settings Settings) (*Service, error) {
	if settings.Timeout <= 0 {
		settings.Timeout = 10 * time.Second
	}
	if settings.Retry.Base <= 0 {
		settings.Retry.Base = 30 * time.Second
	}
	if settings.Retry.Max <= 0 {
		settings.Retry.Max = time.Hour
	}
	if settings.Concurrency <= 0 {
		settings.Concurrency = 4
	}
	if settings.SweepInterval <= 0 {
		settings.SweepInterval = 15 * time.Second
	}
	policy, err := NewPolicy(settings)
	if err != nil {
		return nil, err
	}
	return &Service{tx: tm, endpoints: endpoints, deliveries: deliveries, sender: sender, resolver: resolver, jobs: enq,
		events: pub, clock: clk, log: log.Named("webhooks"), settings: settings, policy: policy, newID: ids.New}, nil
}

// NewPolicy is the address policy of the settings.
func NewPolicy(s Settings) (domain.Policy, error) {
	return domain.NewPolicy(s.Production, s.AllowedHosts)
}

// Settings returns the effective settings.
func (s *Service) Settings() Settings { return s.settings }

// lease is how long an endpoint's delivery task holds it without renewal: longer than
// any attempt.
func (s *Service) lease() time.Duration {
	if s.settings.Lease > 0 {
		return s.settings.Lease
	}
	return 2*s.settings.Timeout + 30*time.Second
}

// enqueue queues the endpoint's delivery task (after delay); a failure is logged, the
// sweep picks the deliveries up.
func (s *Service) enqueue(ctx context.Context, endpointID string, delay time.Duration, unique string) {
	opts := []jobs.Option{jobs.MaxRetry(3)}
	if delay > 0 {
		opts = append(opts, jobs.Delay(delay))
	}
	if unique != "" {
		opts = append(opts, jobs.Unique(unique))
	}
	if err := s.jobs.Enqueue(ctx, TaskDeliver, DeliverTask{EndpointID: endpointID}, opts...); err != nil {
		s.log.Warn("webhook delivery task not queued; the sweep will pick it up", zap.String("endpoint_id", endpointID), zap.Error(err))
	}
}

func (s *Service) publishDisabled(ctx context.Context, e *domain.Endpoint) error {
	if err := s.events.Publish(ctx, api.EventEndpointDisabled, e.ID, ToEndpoint(e, false)); err != nil {
		return fmt.Errorf("webhooks: %w", err)
	}
	return nil
}
