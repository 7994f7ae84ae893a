package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/gocommerce/commerce/modules/webhooks/domain"
	"github.com/gocommerce/commerce/modules/webhooks/ports"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/ids"
)

// EndpointRepository implements ports.EndpointRepository on webhook_endpoints.
type EndpointRepository struct{ db *db.DB }

// DeliveryRepository implements ports.DeliveryRepository on webhook_deliveries and
// webhook_delivery_attempts.
type DeliveryRepository struct{ db *db.DB }

var (
	_ ports.EndpointRepository = (*EndpointRepository)(nil)
	_ ports.DeliveryRepository = (*DeliveryRepository)(nil)
)

// NewEndpointRepository builds the endpoint repository.
func NewEndpointRepository(d *db.DB) *EndpointRepository { return &EndpointRepository{db: d} }

// NewDeliveryRepository builds the delivery repository.
func NewDeliveryRepository(d *db.DB) *DeliveryRepository { return &DeliveryRepository{db: d} }

// Create inserts an endpoint.
func (r *EndpointRepository) Create(ctx context.Context, e *domain.Endpoint) error {
	row := fromEndpoint(e)
	return db.Insert(r.db.Conn(ctx), &row, nil, "webhooks: insert endpoint")
}

// Get loads an endpoint.
func (r *EndpointRepository) Get(ctx context.Context, id string) (*domain.Endpoint, error) {
	if !ids.Valid(id) {
		return nil, domain.ErrEndpointNotFound
	}
	row, err := db.First[endpointRow](r.db.Conn(ctx).Where("id = ?", id), domain.ErrEndpointNotFound, "webhooks: select endpoint")
	if err != nil {
		return nil, err
	}
	return row.toDomain()
}

// List pages the endpoints, oldest first.
func (r *EndpointRepository) List(ctx context.Context, offset, limit int) ([]*domain.Endpoint, int64, error) {
	q := r.db.Conn(ctx).Model(&endpointRow{}).Session(&gorm.Session{})
	rows, total, err := db.Page[endpointRow](q, "created_at, id", offset, limit, "webhooks: count endpoints", "webhooks: select endpoints")
	if err != nil {
		return nil, 0, err
	}
	list, err := db.MapErr(rows, endpointRow.toDomain)
	return list, total, err
}

// Enabled lists the enabled endpoints.
func (r *EndpointRepository) Enabled(ctx context.Context) ([]*domain.Endpoint, error) {
	rows, err := db.Find[endpointRow](r.db.Conn(ctx).Where("enabled = ?", true).Order("created_at, id"), "webhooks: select enabled endpoints")
	if err != nil {
		return nil, err
	}
	return db.MapErr(rows, endpointRow.toDomain)
}

// Update writes the mutable columns.
func (r *EndpointRepository) Update(ctx context.Context, e *domain.Endpoint) error {
	row := fromEndpoint(e)
	res := r.db.Conn(ctx).Model(&endpointRow{}).Where("id = ?", e.ID).UpdateColumns(map[string]any{
		"url": row.URL, "description": row.Description, "events": row.Events, "secret": row.Secret, "enabled": row.Enabled,
		"failure_streak": row.FailureStreak, "disabled_at": row.DisabledAt, "disabled_reason": row.DisabledReason, "updated_at": row.UpdatedAt,
	})
	return db.One(res, domain.ErrEndpointNotFound, "webhooks: update endpoint")
}

// Delete removes the endpoint; its deliveries and attempts go with it (ON DELETE
// CASCADE).
func (r *EndpointRepository) Delete(ctx context.Context, id string) error {
	if !ids.Valid(id) {
		return domain.ErrEndpointNotFound
	}
	conn := r.db.Conn(ctx)
	// Explicitly too, so nothing depends on SQLite's foreign_keys pragma.
	if err := db.Done(conn.Where("endpoint_id = ?", id).Delete(&attemptRow{}), "webhooks: delete attempts"); err != nil {
		return err
	}
	if err := db.Done(conn.Where("endpoint_id = ?", id).Delete(&deliveryRow{}), "webhooks: delete deliveries"); err != nil {
		return err
	}
	return db.One(conn.Where("id = ?", id).Delete(&endpointRow{}), domain.ErrEndpointNotFound, "webhooks: delete endpoint")
}

// Claim takes (or renews) the lease of an enabled endpoint: a conditional update.
func (r *EndpointRepository) Claim(ctx context.Context, id, token string, now, until time.Time) (bool, error) {
	n, err := db.Affected(r.db.Conn(ctx).Model(&endpointRow{}).
		Where("id = ? AND enabled = ? AND (locked_until IS NULL OR locked_until < ? OR lease_token = ?)", id, true, now.UTC(), token).
		UpdateColumns(map[string]any{"lease_token": token, "locked_until": until.UTC()}), "webhooks: claim endpoint")
	return n == 1, err
}

// Release ends token's lease.
func (r *EndpointRepository) Release(ctx context.Context, id, token string) error {
	return db.Done(r.db.Conn(ctx).Model(&endpointRow{}).Where("id = ? AND lease_token = ?", id, token).
		UpdateColumns(map[string]any{"lease_token": "", "locked_until": nil}), "webhooks: release endpoint")
}

// RecordOutcome moves the failure streak with conditional updates (safe with
// concurrent writers on both engines) and disables the endpoint at the limit.
func (r *EndpointRepository) RecordOutcome(ctx context.Context, id string, ok bool, disableAfter int, now time.Time) (*domain.Endpoint, error) {
	conn := r.db.Conn(ctx)
	if ok {
		return nil, db.Done(conn.Model(&endpointRow{}).Where("id = ? AND failure_streak <> 0", id).
			UpdateColumn("failure_streak", 0), "webhooks: reset failure streak")
	}
	// A disabled endpoint's count stays where it stopped (attempts in flight then).
	if err := db.Done(conn.Model(&endpointRow{}).Where("id = ? AND enabled = ?", id, true).
		UpdateColumn("failure_streak", gorm.Expr("failure_streak + 1")), "webhooks: count failure"); err != nil {
		return nil, err
	}
	if disableAfter <= 0 {
		return nil, nil
	}
	n, err := db.Affected(conn.Model(&endpointRow{}).Where("id = ? AND enabled = ? AND failure_streak >= ?", id, true, disableAfter).
		UpdateColumns(map[string]any{"enabled": false, "disabled_at": now.UTC(), "updated_at": now.UTC(),
			"disabled_reason": domain.DisabledReason(disableAfter)}), "webhooks: disable endpoint")
	if err != nil || n == 0 {
		return nil, err
	}
	return r.Get(ctx, id)
}

// Add inserts the deliveries whose dedupe key is new and whose endpoint is enabled, in
// one transaction: the endpoints are read with a share lock (PostgreSQL), so an
// endpoint disabled meanwhile either is seen disabled (its deliveries are not added)
// or waits for this insert, and then fails the added ones with its other pending
// deliveries. Without it a delivery routed by a stale read of the enabled endpoints
// stayed pending for good.
func (r *DeliveryRepository) Add(ctx context.Context, ds ...*domain.Delivery) error {
	if len(ds) == 0 {
		return nil
	}
	eps := make([]string, len(ds))
	for i, d := range ds {
		eps[i] = d.EndpointID
	}
	slices.Sort(eps)
	eps = slices.Compact(eps)
	return r.db.InTx(ctx, func(ctx context.Context) error {
		q := r.db.Conn(ctx).Model(&endpointRow{}).Where("id IN ? AND enabled = ?", eps, true).Order("id")
		if r.db.Dialect() == db.Postgres {
			q = q.Clauses(clause.Locking{Strength: "SHARE"})
		}
		var live []string
		if err := q.Pluck("id", &live).Error; err != nil {
			return fmt.Errorf("webhooks: lock endpoints: %w", err)
		}
		rows := make([]deliveryRow, 0, len(ds))
		for _, d := range ds {
			if slices.Contains(live, d.EndpointID) {
				rows = append(rows, fromDelivery(d))
			}
		}
		if len(rows) == 0 {
			return nil
		}
		_, err := db.InsertNew(r.db.Conn(ctx), &rows, "webhooks: insert deliveries")
		return err
	})
}

// Get loads an endpoint's delivery.
func (r *DeliveryRepository) Get(ctx context.Context, endpointID, id string) (*domain.Delivery, error) {
	if !ids.Valid(id) || !ids.Valid(endpointID) {
		return nil, domain.ErrDeliveryNotFound
	}
	return db.FirstAs(r.db.Conn(ctx).Where("id = ? AND endpoint_id = ?", id, endpointID), deliveryRow.toDomain,
		domain.ErrDeliveryNotFound, "webhooks: select delivery")
}

// List pages an endpoint's deliveries, newest first, with their attempts.
func (r *DeliveryRepository) List(ctx context.Context, endpointID string, offset, limit int) ([]*domain.Delivery, map[string][]domain.Attempt, int64, error) {
	conn := r.db.Conn(ctx)
	q := conn.Model(&deliveryRow{}).Where("endpoint_id = ?", endpointID).Session(&gorm.Session{})
	rows, total, err := db.Page[deliveryRow](q, "created_at DESC, id DESC", offset, limit, "webhooks: count deliveries", "webhooks: select deliveries")
	if err != nil || len(rows) == 0 {
		return nil, nil, total, err
	}
	keys := make([]string, len(rows))
	for i, row := range rows {
		keys[i] = row.ID
	}
	attempts, err := db.FindAs(conn.Where("delivery_id IN ?", keys).Order("delivery_id, attempt"), attemptRow.toDomain, "webhooks: select attempts")
	if err != nil {
		return nil, nil, 0, err
	}
	by := map[string][]domain.Attempt{}
	for _, a := range attempts {
		by[a.DeliveryID] = append(by[a.DeliveryID], a)
	}
	return db.Map(rows, deliveryRow.toDomain), by, total, nil
}

// Due lists the endpoint's due pending deliveries, due first.
func (r *DeliveryRepository) Due(ctx context.Context, endpointID string, now time.Time, limit int) ([]*domain.Delivery, error) {
	return db.FindAs(r.db.Conn(ctx).Where("endpoint_id = ? AND status = ? AND next_attempt_at <= ?", endpointID, domain.StatusPending, now.UTC()).
		Order("next_attempt_at, created_at, id").Limit(limit), deliveryRow.toDomain, "webhooks: select due deliveries")
}

// NextRetry is when the endpoint's next pending delivery falls due.
func (r *DeliveryRepository) NextRetry(ctx context.Context, endpointID string) (*time.Time, error) {
	d, err := db.First[deliveryRow](r.db.Conn(ctx).Where("endpoint_id = ? AND status = ? AND next_attempt_at IS NOT NULL", endpointID, domain.StatusPending).
		Order("next_attempt_at"), domain.ErrDeliveryNotFound, "webhooks: select next retry")
	if errors.Is(err, domain.ErrDeliveryNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return db.UTCPtr(d.NextAttemptAt), nil
}

// Record inserts the attempt and writes the delivery's state.
func (r *DeliveryRepository) Record(ctx context.Context, d *domain.Delivery, a domain.Attempt) error {
	conn := r.db.Conn(ctx)
	row := fromAttempt(a)
	if err := db.Insert(conn, &row, nil, "webhooks: insert attempt"); err != nil {
		return err
	}
	return db.One(conn.Model(&deliveryRow{}).Where("id = ?", d.ID).UpdateColumns(map[string]any{
		"status": d.Status, "attempts": d.Attempts, "next_attempt_at": db.UTCPtr(d.NextAttemptAt), "last_status_code": d.LastStatusCode,
		"last_error": d.LastError, "updated_at": d.UpdatedAt.UTC(), "completed_at": db.UTCPtr(d.CompletedAt),
	}), domain.ErrDeliveryNotFound, "webhooks: update delivery")
}

// FailPending fails the endpoint's pending deliveries.
func (r *DeliveryRepository) FailPending(ctx context.Context, endpointID, reason string, now time.Time) error {
	return db.Done(r.db.Conn(ctx).Model(&deliveryRow{}).Where("endpoint_id = ? AND status = ?", endpointID, domain.StatusPending).
		UpdateColumns(map[string]any{"status": domain.StatusFailed, "next_attempt_at": nil, "last_error": reason,
			"updated_at": now.UTC(), "completed_at": now.UTC()}), "webhooks: fail pending deliveries")
}

// DueEndpoints lists enabled, unleased endpoints with a due delivery.
func (r *DeliveryRepository) DueEndpoints(ctx context.Context, now time.Time, limit int) ([]string, error) {
	var out []string
	res := r.db.Conn(ctx).Raw(`SELECT e.id FROM webhook_endpoints e
WHERE e.enabled = ? AND (e.locked_until IS NULL OR e.locked_until < ?)
  AND EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.status = ? AND d.next_attempt_at <= ?)
ORDER BY e.id LIMIT ?`, true, now.UTC(), domain.StatusPending, now.UTC(), limit).Scan(&out)
	return out, db.Done(res, "webhooks: select due endpoints")
}
