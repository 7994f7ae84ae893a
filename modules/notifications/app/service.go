// Package app holds the notifications use cases: sending (one message, a template,
// a bulk batch), the delivery attempts through the channels with the retry rule of
// CONTRACT §7, retry and cancel, templates and their preview, statistics, the
// inbound delivery-status webhook, and the store's own messages raised by other
// modules' events. Each change is one transaction; deliveries run through the jobs
// port after commit and never hold a transaction across a provider call.
package app

import (
	"context"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/notifications/api"
	"github.com/gocommerce/commerce/modules/notifications/domain"
	"github.com/gocommerce/commerce/modules/notifications/ports"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/jobs"
	"github.com/gocommerce/commerce/platform/tx"
)

// Task types of the jobs port.
const (
	// TaskSend delivers one notification (payload {"id"}).
	TaskSend = "notifications:send"
	// TaskSendBatch delivers the notifications of a bulk batch (payload {"batch_id"}).
	TaskSendBatch = "notifications:send_batch"
)

// Settings is the module's slice of the configuration.
type Settings struct {
	// RetryBackoff is the wait before each automatic retry (notifications.retry_backoff).
	RetryBackoff []time.Duration
	// MaxAttempts is a new notification's max_attempts (notifications.max_attempts).
	MaxAttempts int
	// ShopName and ShopURL fill the templates' shop_name and shop_url.
	ShopName, ShopURL string
	// StaffEmails receive the low-stock alerts (notifications.staff_emails).
	StaffEmails []string
	// AbandonedCartDelay is how long a cart stays idle before its reminder
	// (notifications.abandoned_cart_delay; 0 sends none).
	AbandonedCartDelay time.Duration
	// WebhookSecret signs the inbound delivery webhook (notifications.webhook_secret).
	WebhookSecret string
	// ClaimTimeout bounds one attempt: a claim older than this is free again.
	ClaimTimeout time.Duration
	// Concurrency is how many sends of a batch run at once.
	Concurrency int
}

// SettingsFrom takes the module's settings from the configuration.
func SettingsFrom(cfg *config.Config) Settings {
	n := cfg.Notifications
	shopURL := strings.TrimRight(cfg.HTTP.PublicURL, "/")
	if shopURL == "" { // development: the address the API listens on
		host := cfg.HTTP.Addr
		if strings.HasPrefix(host, ":") {
			host = "localhost" + host
		}
		shopURL = "http://" + host
	}
	return Settings{RetryBackoff: n.RetryBackoff, MaxAttempts: n.MaxAttempts, ShopName: n.ShopName, ShopURL: shopURL,
		StaffEmails: n.StaffEmails, AbandonedCartDelay: n.AbandonedCartDelay, WebhookSecret: n.WebhookSecret,
		ClaimTimeout: 2 * time.Minute, Concurrency: n.Concurrency}
}

// Channels are the channels messages leave by, one per name.
type Channels []ports.Channel

// Stores are the module's repositories.
type Stores struct {
	Notifications ports.NotificationRepository
	Templates     ports.TemplateRepository
	Carts         ports.CartRepository
	IdleCarts     ports.IdleCarts // the carts module's idle customer carts
}

// Service implements api.Notifications and the module's use cases.
type Service struct {
	tx        tx.Manager
	stores    Stores
	channels  map[string]ports.Channel
	customers ports.Customers
	jobs      jobs.Enqueuer
	clock     clock.Clock
	settings  Settings
	log       *zap.Logger
	newID     func() string
	templates templateCache
}

var _ api.Notifications = (*Service)(nil)

// NewService builds the service.
func NewService(tm tx.Manager, stores Stores, channels Channels, customers ports.Customers, enq jobs.Enqueuer, clk clock.Clock,
	settings Settings, log *zap.Logger) *Service {
	if settings.MaxAttempts <= 0 {
		settings.MaxAttempts = 3
	}
	if settings.ClaimTimeout <= 0 {
		settings.ClaimTimeout = 2 * time.Minute
	}
	if settings.Concurrency <= 0 {
		settings.Concurrency = 8
	}
	if settings.ShopName == "" {
		settings.ShopName = "Our store"
	}
	m := map[string]ports.Channel{}
	for _, c := range channels {
		m[c.Name()] = c
	}
	if log == nil {
		log = zap.NewNop()
	}
	return &Service{tx: tm, stores: stores, channels: m, customers: customers, jobs: enq, clock: clk, settings: settings,
		log: log.Named("notifications"), newID: ids.New}
}

// Settings returns the effective settings.
func (s *Service) Settings() Settings { return s.settings }

// enqueue queues the delivery of a notification once ctx's transaction commits
// (at once without one); a queueing error is logged: the sweep picks the row up.
func (s *Service) enqueue(ctx context.Context, n *domain.Notification) {
	var delay time.Duration
	if n.NextAttemptAt != nil {
		delay = n.NextAttemptAt.Sub(s.clock.Now())
	}
	id := n.ID
	s.tx.AfterCommit(ctx, func() {
		s.enqueueNow(TaskSend, map[string]string{"id": id}, delay)
	})
}

func (s *Service) enqueueNow(task string, payload any, delay time.Duration) {
	opts := []jobs.Option{jobs.MaxRetry(-1)} // the notification's own retry rule decides
	if delay > 0 {
		opts = append(opts, jobs.Delay(delay))
	}
	if err := s.jobs.Enqueue(context.Background(), task, payload, opts...); err != nil {
		s.log.Warn("notifications: enqueue failed; the sweep will send it", zap.String("task", task), zap.Error(err))
	}
}
