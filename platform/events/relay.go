package events

import (
	"context"
	"time"

	"go.uber.org/zap"
	"gorm.io/gorm"

	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/ids"
)

// Relay moves committed outbox rows to the bus. It is woken after every commit and
// also polls, so events written by other processes are delivered too. Rows are
// claimed with a lease (a conditional update, safe with several processes on both
// engines) and dispatched outside any transaction. A failing handler leaves the event
// pending; it is retried with exponential backoff up to MaxAttempts.
type Relay struct {
	db          *db.DB
	bus         *Bus
	log         *zap.Logger
	wake        chan struct{}
	Interval    time.Duration
	Batch       int
	MaxAttempts int
	Lease       time.Duration
}

// NewRelay builds the relay and hooks it to commits.
func NewRelay(d *db.DB, bus *Bus, log *zap.Logger) *Relay {
	r := &Relay{db: d, bus: bus, log: log.Named("outbox"), wake: make(chan struct{}, 1),
		Interval: time.Second, Batch: 100, MaxAttempts: 10, Lease: time.Minute}
	d.OnCommit(r.Notify)
	return r
}

// Notify wakes the relay without blocking.
func (r *Relay) Notify() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// Run delivers events until ctx ends.
func (r *Relay) Run(ctx context.Context) {
	t := time.NewTicker(r.Interval)
	defer t.Stop()
	for {
		if _, err := r.Drain(ctx); err != nil && ctx.Err() == nil {
			r.log.Warn("outbox drain failed", zap.Error(err))
		}
		select {
		case <-ctx.Done():
			return
		case <-r.wake:
		case <-t.C:
		}
	}
}

// Drain delivers every due pending event now and returns how many were published.
func (r *Relay) Drain(ctx context.Context) (int, error) {
	total := 0
	for {
		n, claimed, err := r.once(ctx)
		total += n
		if err != nil || claimed < r.Batch {
			return total, err
		}
	}
}

func (r *Relay) once(ctx context.Context) (published, claimed int, err error) {
	now := time.Now().UTC()
	conn := r.db.Conn(ctx)
	var candidates []string
	err = conn.Model(&outboxRow{}).
		Where("published_at IS NULL AND attempts < ? AND next_attempt_at <= ? AND (locked_until IS NULL OR locked_until < ?)", r.MaxAttempts, now, now).
		Order("occurred_at, id").Limit(r.Batch).Pluck("id", &candidates).Error
	if err != nil || len(candidates) == 0 {
		return 0, 0, err
	}
	claim := ids.New()
	lease := now.Add(r.Lease)
	// Re-check every condition: another process may have delivered or failed (and so
	// rescheduled) a candidate since it was selected.
	err = conn.Model(&outboxRow{}).
		Where("id IN ? AND published_at IS NULL AND attempts < ? AND next_attempt_at <= ? AND (locked_until IS NULL OR locked_until < ?)", candidates, r.MaxAttempts, now, now).
		Updates(map[string]any{"claim": claim, "locked_until": lease}).Error
	if err != nil {
		return 0, 0, err
	}
	var rows []outboxRow
	if err = conn.Where("claim = ?", claim).Order("occurred_at, id").Find(&rows).Error; err != nil {
		return 0, 0, err
	}
	for i := range rows {
		row := &rows[i]
		ev := Event{ID: "evt_" + row.ID, Type: row.Type, AggregateID: row.AggregateID, Data: []byte(row.Payload), CreatedAt: row.OccurredAt.UTC()}
		herr := r.bus.Dispatch(ctx, ev)
		upd := map[string]any{"attempts": gorm.Expr("attempts + 1"), "locked_until": nil, "claim": ""}
		if herr != nil {
			upd["last_error"] = truncate(herr.Error(), 1000)
			upd["next_attempt_at"] = time.Now().UTC().Add(backoff(row.Attempts + 1))
			r.log.Warn("event handler failed", zap.String("event_id", ev.ID), zap.String("type", ev.Type), zap.Error(herr))
		} else {
			upd["published_at"] = time.Now().UTC()
			published++
		}
		if err := conn.Model(&outboxRow{}).Where("id = ?", row.ID).Updates(upd).Error; err != nil {
			return published, len(rows), err
		}
	}
	return published, len(rows), nil
}

func backoff(attempts int) time.Duration {
	return time.Duration(1<<min(attempts, 12)) * time.Second
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// Prune deletes events published before cutoff (they have been delivered; webhook
// deliveries keep their own record) and returns how many were removed.
func (r *Relay) Prune(ctx context.Context, cutoff time.Time) (int64, error) {
	res := r.db.Conn(ctx).Where("published_at IS NOT NULL AND published_at < ?", cutoff).Delete(&outboxRow{})
	return res.RowsAffected, res.Error
}
