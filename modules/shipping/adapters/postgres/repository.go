package postgres

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/gocommerce/commerce/modules/shipping/domain"
	"github.com/gocommerce/commerce/modules/shipping/ports"
	"github.com/gocommerce/commerce/platform/db"
)

// ShipmentRepository implements ports.ShipmentRepository on the shipping tables.
type ShipmentRepository struct {
	db *db.DB
}

var _ ports.ShipmentRepository = (*ShipmentRepository)(nil)

// NewShipmentRepository builds the repository.
func NewShipmentRepository(d *db.DB) *ShipmentRepository { return &ShipmentRepository{db: d} }

// Create inserts the shipment (version 1) and its tracking numbers.
func (r *ShipmentRepository) Create(ctx context.Context, s *domain.Shipment) error {
	s.Version = 1
	row := fromShipment(s)
	conn := r.db.Conn(ctx)
	if err := db.Insert(conn, &row, nil, "shipping: insert shipment"); err != nil {
		return err
	}
	numbers := []trackingNumberRow{}
	seen := map[string]bool{}
	for _, n := range append([]string{s.TrackingNumber}, packageNumbers(s)...) {
		if n != "" && !seen[n] {
			seen[n] = true
			numbers = append(numbers, trackingNumberRow{Carrier: s.Carrier, TrackingNumber: n, ShipmentID: s.ID})
		}
	}
	if len(numbers) == 0 {
		return nil
	}
	_, err := db.InsertNew(conn, &numbers, "shipping: insert tracking numbers")
	return err
}

func packageNumbers(s *domain.Shipment) []string {
	out := make([]string, len(s.Packages))
	for i, p := range s.Packages {
		out[i] = p.TrackingNumber
	}
	return out
}

// Get loads a shipment by id.
func (r *ShipmentRepository) Get(ctx context.Context, id string) (*domain.Shipment, error) {
	row, err := db.First[shipmentRow](r.db.Conn(ctx).Where("id = ?", id), domain.ErrShipmentNotFound, "shipping: select shipment")
	if err != nil {
		return nil, err
	}
	return row.toDomain()
}

// GetByTracking finds a shipment by one of its tracking numbers.
func (r *ShipmentRepository) GetByTracking(ctx context.Context, carrier, number string) (*domain.Shipment, error) {
	row, err := db.First[trackingNumberRow](r.db.Conn(ctx).Where("carrier = ? AND tracking_number = ?", carrier, number),
		domain.ErrShipmentNotFound, "shipping: select tracking number")
	if err != nil {
		return nil, err
	}
	return r.Get(ctx, row.ShipmentID)
}

// Update writes the mutable columns when the version matches, then increments it.
func (r *ShipmentRepository) Update(ctx context.Context, s *domain.Shipment) error {
	res := r.db.Conn(ctx).Model(&shipmentRow{}).Where("id = ? AND version = ?", s.ID, s.Version).Updates(map[string]any{
		"status": string(s.Status), "updated_at": s.UpdatedAt.UTC(), "shipped_at": db.UTCPtr(s.ShippedAt),
		"delivered_at": db.UTCPtr(s.DeliveredAt), "estimated_delivery": db.UTCPtr(s.EstimatedDelivery),
		"next_track_at": db.UTCPtr(s.NextTrackAt), "version": s.Version + 1,
	})
	if err := db.One(res, ports.ErrVersion, "shipping: update shipment"); err != nil {
		return err
	}
	s.Version++
	return nil
}

func fingerprint(e domain.TrackingEvent) string {
	sum := sha256.Sum256([]byte(string(e.Status) + "\x00" + e.Code + "\x00" + e.Description + "\x00" + e.Location + "\x00" +
		e.OccurredAt.UTC().Format(time.RFC3339Nano)))
	return hex.EncodeToString(sum[:16])
}

// AddEvents inserts the events not stored yet.
func (r *ShipmentRepository) AddEvents(ctx context.Context, events []domain.TrackingEvent) ([]domain.TrackingEvent, error) {
	var added []domain.TrackingEvent
	conn := r.db.Conn(ctx)
	now := time.Now().UTC()
	for _, e := range events {
		row := eventRow{ID: e.ID, ShipmentID: e.ShipmentID, Fingerprint: fingerprint(e), Status: string(e.Status), Code: e.Code,
			Description: e.Description, Location: e.Location, Source: e.Source, OccurredAt: e.OccurredAt.UTC(), CreatedAt: now}
		stored, err := db.InsertNew(conn, &row, "shipping: insert tracking event")
		if err != nil {
			return nil, err
		}
		if stored {
			added = append(added, e)
		}
	}
	return added, nil
}

// Events returns a shipment's history, oldest first.
func (r *ShipmentRepository) Events(ctx context.Context, shipmentID string) ([]domain.TrackingEvent, error) {
	return db.FindAs(r.db.Conn(ctx).Where("shipment_id = ?", shipmentID).Order("occurred_at, created_at, id"),
		func(e eventRow) domain.TrackingEvent {
			return domain.TrackingEvent{ID: e.ID, ShipmentID: e.ShipmentID, Status: domain.Status(e.Status), Code: e.Code,
				Description: e.Description, Location: e.Location, OccurredAt: e.OccurredAt.UTC(), Source: e.Source}
		}, "shipping: select tracking events")
}

// DueForTracking returns the shipments whose next poll is due, the most overdue first.
func (r *ShipmentRepository) DueForTracking(ctx context.Context, now time.Time, limit int) ([]*domain.Shipment, error) {
	rows, err := db.Find[shipmentRow](r.db.Conn(ctx).Where("next_track_at IS NOT NULL AND next_track_at <= ?", now.UTC()).
		Order("next_track_at, id").Limit(limit), "shipping: select due shipments")
	if err != nil {
		return nil, err
	}
	return db.MapErr(rows, shipmentRow.toDomain)
}
