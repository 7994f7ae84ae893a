// Package ports declares what the shipping module needs, in its own words: the
// carriers, the shipment store, the label storage and the orders it links to.
package ports

import (
	"context"
	"errors"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/shipping/domain"
)

// Carrier is one carrier: a live adapter on the carrier's HTTP API, or the built-in
// rate table that serves a store without credentials.
type Carrier interface {
	// Code is the carrier code (ups, fedex, usps, dhl).
	Code() string
	// Live reports an adapter on the carrier's API (false: the built-in table).
	Live() bool
	// Rates prices the parcel with every service the carrier offers on the route (only
	// req.ServiceCode when set). Errors wrap domain.ErrCarrierRejected (the carrier
	// refused the request) or domain.ErrCarrierUnavailable (it failed or timed out).
	Rates(ctx context.Context, req domain.RateRequest) ([]domain.Rate, error)
	// CreateLabel buys the label of a shipment; domain.ErrInvalidServiceCode when the
	// carrier does not offer the service on the route.
	CreateLabel(ctx context.Context, req LabelRequest) (Label, error)
	// Track returns the carrier's events of a tracking number, oldest first.
	Track(ctx context.Context, trackingNumber string) ([]domain.TrackingEvent, error)
	// TrackingURL is the public page of a tracking number.
	TrackingURL(trackingNumber string) string
}

// TrackingPush is implemented by a carrier adapter whose API pushes tracking updates
// in the carrier's own format (UPS Track Alert).
type TrackingPush interface {
	// ParsePush reads a pushed body: the tracking number and its events.
	ParsePush(body []byte) (trackingNumber string, events []domain.TrackingEvent, err error)
}

// LabelRequest is a shipment to label.
type LabelRequest struct {
	Shipment *domain.Shipment
	Currency string
	ShipDate time.Time
}

// Label is the carrier's answer: the tracking numbers, the price and the label file.
type Label struct {
	TrackingNumber         string
	PackageTrackingNumbers []string // one per package, in order ("" falls back to TrackingNumber)
	ServiceName            string
	Price                  decimal.Decimal
	Currency               string
	Image                  []byte
	ContentType            string // application/pdf, image/png, image/gif, application/zpl
	EstimatedDelivery      *time.Time
}

// LabelStorage keeps label files and answers their public URL: the same storage port
// (and adapter) product images use.
type LabelStorage interface {
	Put(ctx context.Context, key, contentType string, data []byte) (url string, err error)
}

// Order is an order as shipping sees it: its id and, for include=order, the order
// resource as the orders module shows it.
type Order struct {
	ID         string
	CustomerID string // "" for a guest order
	Resource   any
}

// Orders reads orders (shipment links and include=order).
type Orders interface {
	// Order returns an order by id, or an error matching the orders module's
	// ORDER_NOT_FOUND.
	Order(ctx context.Context, id string) (Order, error)
}

// ErrVersion is returned by Update when the shipment changed since it was read.
var ErrVersion = errors.New("shipping: shipment changed concurrently")

// ShipmentRepository stores shipments and their tracking history.
type ShipmentRepository interface {
	Create(ctx context.Context, s *domain.Shipment) error
	// Get returns domain.ErrShipmentNotFound for an unknown id.
	Get(ctx context.Context, id string) (*domain.Shipment, error)
	// GetByTracking finds a shipment by carrier and tracking number (its own or a
	// package's), or domain.ErrShipmentNotFound.
	GetByTracking(ctx context.Context, carrier, trackingNumber string) (*domain.Shipment, error)
	// Update writes the shipment when its version is still s.Version (then increments
	// it), else ErrVersion.
	Update(ctx context.Context, s *domain.Shipment) error
	// AddEvents stores the events a shipment does not have yet (same status, code,
	// description and time) and returns those it stored.
	AddEvents(ctx context.Context, events []domain.TrackingEvent) ([]domain.TrackingEvent, error)
	// Events returns a shipment's tracking history, oldest first.
	Events(ctx context.Context, shipmentID string) ([]domain.TrackingEvent, error)
	// DueForTracking returns up to limit shipments whose next_track_at has passed.
	DueForTracking(ctx context.Context, now time.Time, limit int) ([]*domain.Shipment, error)
}
