// Package app holds the shipping use cases: rates from every asked carrier
// concurrently within a deadline, shipments labelled by their carrier (labels kept in
// the label storage), and tracking updates (the periodic sweep and the carrier
// webhook) moving the status machine, each in one transaction with its events.
package app

import (
	"context"
	"fmt"
	"time"

	"github.com/gocommerce/commerce/modules/shipping/api"
	"github.com/gocommerce/commerce/modules/shipping/domain"
	"github.com/gocommerce/commerce/modules/shipping/ports"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/tx"
)

// Settings is shipping's slice of the configuration.
type Settings struct {
	// RatesTimeout bounds each carrier's rate answer (shipping.rates_timeout).
	RatesTimeout time.Duration
	// LabelTimeout bounds a label purchase (shipping.label_timeout).
	LabelTimeout time.Duration
	// TrackingInterval is how long the sweep waits between two polls of a shipment
	// (shipping.tracking_interval).
	TrackingInterval time.Duration
	// WebhookSecret signs the carrier webhooks (shipping.webhook_secret; "" refuses them).
	WebhookSecret string
}

// SettingsFrom takes shipping's settings from the configuration.
func SettingsFrom(cfg *config.Config) Settings {
	s := cfg.Shipping
	return Settings{RatesTimeout: s.RatesTimeout, LabelTimeout: s.LabelTimeout, TrackingInterval: s.TrackingInterval,
		WebhookSecret: s.WebhookSecret}
}

// Carriers is the set of carriers, one per code (live adapter or built-in table).
type Carriers []ports.Carrier

func (cs Carriers) get(code string) (ports.Carrier, bool) {
	for _, c := range cs {
		if c.Code() == code {
			return c, true
		}
	}
	return nil, false
}

// Service implements api.Shipping and the module's other use cases.
type Service struct {
	tx       tx.Manager
	repo     ports.ShipmentRepository
	carriers Carriers
	labels   ports.LabelStorage
	orders   ports.Orders
	events   event.Publisher
	clock    clock.Clock
	settings Settings
	exchange *domain.Exchange
	newID    func() string
}

var _ api.Shipping = (*Service)(nil)

// NewService builds the shipping service.
func NewService(tm tx.Manager, repo ports.ShipmentRepository, carriers Carriers, labels ports.LabelStorage, orders ports.Orders,
	pub event.Publisher, clk clock.Clock, settings Settings) *Service {
	if settings.RatesTimeout <= 0 {
		settings.RatesTimeout = 10 * time.Second
	}
	if settings.LabelTimeout <= 0 {
		settings.LabelTimeout = 30 * time.Second
	}
	if settings.TrackingInterval <= 0 {
		settings.TrackingInterval = time.Hour
	}
	return &Service{tx: tm, repo: repo, carriers: carriers, labels: labels, orders: orders, events: pub, clock: clk,
		settings: settings, exchange: domain.NewExchange(nil), newID: ids.New}
}

// Settings returns the effective settings.
func (s *Service) Settings() Settings { return s.settings }

func (s *Service) publish(ctx context.Context, eventType string, sh *domain.Shipment, previous domain.Status) error {
	data := api.ShipmentEvent{Shipment: ToResource(sh), PreviousStatus: string(previous)}
	if err := s.events.Publish(ctx, eventType, sh.ID, data); err != nil {
		return fmt.Errorf("shipping: %w", err)
	}
	return nil
}
