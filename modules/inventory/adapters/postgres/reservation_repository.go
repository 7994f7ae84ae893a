package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/gocommerce/commerce/modules/inventory/domain"
	"github.com/gocommerce/commerce/modules/inventory/ports"
	"github.com/gocommerce/commerce/platform/db"
)

// activeOnly selects the active reservations with the predicate of the partial indexes
// on them (a literal: a bound parameter would keep the planner from using them).
const activeOnly = "status = '" + string(domain.ReservationActive) + "'"

// Create inserts reservations in one statement.
func (r *ReservationRepository) Create(ctx context.Context, rs ...*domain.Reservation) error {
	if len(rs) == 0 {
		return nil
	}
	// Queued in a transaction: it goes out with the next statement (decision 0240).
	if err := r.reservations.Insert(db.Later(ctx), db.Map(rs, fromReservation)); err != nil {
		return fmt.Errorf("inventory: %w", err)
	}
	return nil
}

// Get loads a reservation.
func (r *ReservationRepository) Get(ctx context.Context, id string) (*domain.Reservation, error) {
	var rows []reservationView
	if err := r.db.Conn(ctx).Table("inventory_reservations AS r").Select("r.*, NULL AS location_name").
		Where("r.id = ?", id).Limit(1).Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("inventory: select reservation: %w", err)
	}
	if len(rows) == 0 {
		return nil, domain.ErrReservationNotFound
	}
	return rows[0].toDomain(), nil
}

// MarkReleased releases the reservation only while it is active.
func (r *ReservationRepository) MarkReleased(ctx context.Context, id string, reason domain.ReleaseReason, at time.Time) (bool, error) {
	n, err := db.Affected(r.db.Conn(ctx).Model(&reservationRow{}).
		Where("id = ? AND status = ?", id, string(domain.ReservationActive)).
		Updates(map[string]any{"status": string(domain.ReservationReleased), "released_at": at.UTC(), "release_reason": string(reason)}),
		"inventory: release reservation")
	return n == 1, err
}

// GetAll loads the reservations among ids, in the order of ids.
func (r *ReservationRepository) GetAll(ctx context.Context, ids []string) ([]*domain.Reservation, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var rows []reservationView
	if err := r.db.Conn(ctx).Table("inventory_reservations AS r").Select("r.*, NULL AS location_name").
		Where("r.id IN ?", ids).Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("inventory: select reservations: %w", err)
	}
	found := make(map[string]*domain.Reservation, len(rows))
	for _, row := range rows {
		found[row.Row.ID] = row.toDomain()
	}
	out := make([]*domain.Reservation, 0, len(rows))
	for _, id := range ids {
		if res, ok := found[id]; ok {
			out = append(out, res)
			delete(found, id)
		}
	}
	return out, nil
}

// ReleaseActive releases the active reservations among ids in one conditional update
// and returns them as released (RETURNING: no read before or after).
func (r *ReservationRepository) ReleaseActive(ctx context.Context, ids []string, reason domain.ReleaseReason, at time.Time) ([]*domain.Reservation, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	// Plain SQL: in a transaction it carries the statements queued before it, in
	// one round trip (decision 0240). The status is a literal, as in every query of
	// the active reservations: with a parameter the generic plan's estimate was worse
	// than the custom plans', and PostgreSQL planned the statement again at every
	// third execution or so (130 µs each; decision 0246).
	query := r.db.Rebind("UPDATE inventory_reservations SET status = ?, released_at = ?, release_reason = ? WHERE id IN (" + db.Params(len(ids)) +
		") AND " + activeOnly + " RETURNING " + reservationColumns)
	args := append([]any{string(domain.ReservationReleased), at.UTC(), string(reason)}, anyOf(ids)...)
	var (
		row reservationRow
		out []*domain.Reservation
	)
	err := r.db.ExecQuery(ctx, query, args, row.dest(), func() error {
		out = append(out, reservationView{Row: row}.toDomain())
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("inventory: release reservations: %w", err)
	}
	return out, nil
}

// Active lists a product's active reservations, soonest expiry first.
func (r *ReservationRepository) Active(ctx context.Context, productID string) ([]*domain.Reservation, error) {
	var rows []reservationView
	err := r.db.Conn(ctx).Table("inventory_reservations AS r").
		Select("r.*, loc.name AS location_name").
		Joins("LEFT JOIN inventory_locations loc ON loc.id = r.location_id").
		Where("r.product_id = ? AND r."+activeOnly, productID).
		Order("r.expires_at ASC, r.id ASC").Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("inventory: active reservations: %w", err)
	}
	return db.Map(rows, reservationView.toDomain), nil
}

// ActiveIDs lists active reservation ids of an order, product or variant.
func (r *ReservationRepository) ActiveIDs(ctx context.Context, by ports.ReservationScope) ([]string, error) {
	q := r.db.Conn(ctx).Model(&reservationRow{}).Where(activeOnly)
	switch {
	case by.OrderID != "":
		q = q.Where("order_id = ?", by.OrderID)
	case by.ProductID != "":
		q = q.Where("product_id = ?", by.ProductID)
	case by.VariantID != "":
		q = q.Where("variant_id = ?", by.VariantID)
	default:
		return nil, nil
	}
	var out []string
	if err := q.Order("created_at ASC, id ASC").Pluck("id", &out).Error; err != nil {
		return nil, fmt.Errorf("inventory: active reservation ids: %w", err)
	}
	return out, nil
}

// Due lists active reservations whose time is up (served by the active reservations'
// expires_at index).
func (r *ReservationRepository) Due(ctx context.Context, now time.Time, limit int) ([]string, error) {
	var out []string
	err := r.db.Conn(ctx).Model(&reservationRow{}).
		Where(activeOnly+" AND expires_at <= ?", now.UTC()).
		Order("expires_at ASC, id ASC").Limit(limit).Pluck("id", &out).Error
	if err != nil {
		return nil, fmt.Errorf("inventory: due reservations: %w", err)
	}
	return out, nil
}

// ReservedSince lists the variants reserved at or after since, each once.
func (r *ReservationRepository) ReservedSince(ctx context.Context, since time.Time) ([]ports.Variant, error) {
	var rows []struct{ ProductID, VariantID string }
	err := r.db.Conn(ctx).Model(&reservationRow{}).Distinct("product_id", "variant_id").
		Where("created_at >= ?", since.UTC()).Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("inventory: reserved variants: %w", err)
	}
	out := make([]ports.Variant, len(rows))
	for i, row := range rows {
		out[i] = ports.Variant{ProductID: row.ProductID, VariantID: row.VariantID}
	}
	return out, nil
}

// MarkProcessed records the event; false when it was already there.
func (r *ProcessedEvents) MarkProcessed(ctx context.Context, eventID, handler string, at time.Time) (bool, error) {
	row := processedRow{EventID: eventID, Handler: handler, ProcessedAt: at.UTC()}
	return db.InsertNew(r.db.Conn(ctx), &row, "inventory: mark event processed")
}
