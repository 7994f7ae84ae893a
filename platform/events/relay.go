package events

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"
	"gorm.io/gorm"

	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/ids"
)

// Relay moves committed outbox rows to the bus. It is woken after every commit and
// also polls, so events written by other processes are delivered too. Rows are
// claimed with a short lease (a conditional update, safe with several processes on
// both engines) that the relay renews while it is still delivering them, and
// dispatched outside any transaction: the rows of a relay whose process died are
// taken over once their lease runs out, about Lease after its last renewal
// (docs/decisions/0006). A failing handler leaves the event pending; it is retried
// with exponential backoff up to MaxAttempts.
type Relay struct {
	db          *db.DB
	bus         *Bus
	log         *zap.Logger
	wake        chan struct{}
	Interval    time.Duration
	Batch       int
	MaxAttempts int
	// Lease is how long claimed rows stay out of other relays' reach without a renewal.
	Lease time.Duration
	// Renew is how often a relay still delivering a batch extends its lease (Lease/3
	// when zero or negative).
	Renew time.Duration
	// Clock dates claims, leases and retries (the system clock; tests set a fake one).
	Clock clock.Clock
	// Coalesce is how long a commit's wake-up waits, so that the commits of a busy
	// moment are delivered in one batch (two statements) instead of one each.
	Coalesce time.Duration
}

// DefaultLease is the relay's lease: deliveries of a killed process's batch resume
// within about this long (plus the one-second poll).
const DefaultLease = 10 * time.Second

// NewRelay builds the relay and hooks it to commits.
func NewRelay(d *db.DB, bus *Bus, log *zap.Logger) *Relay {
	r := &Relay{db: d, bus: bus, log: log.Named("outbox"), wake: make(chan struct{}, 1),
		Interval: time.Second, Batch: 100, MaxAttempts: 10, Lease: DefaultLease, Clock: clock.New(), Coalesce: 10 * time.Millisecond}
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
			select {
			case <-ctx.Done():
				return
			case <-time.After(r.Coalesce):
			}
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
	now := r.Clock.Now().UTC()
	claim := ids.New()
	conn := r.db.Conn(ctx)
	// Claim a batch in one statement: choose the due rows, lease them and return them.
	// On PostgreSQL, FOR UPDATE SKIP LOCKED lets several relays claim disjoint batches,
	// and a row another relay has just claimed or failed is re-checked against the
	// conditions once its lock is released; SQLite runs the statement as one write.
	lock := ""
	if r.db.Dialect() == db.Postgres {
		lock = " FOR UPDATE SKIP LOCKED"
	}
	var rows []outboxRow
	err = conn.Raw(`UPDATE outbox_events SET claim = ?, locked_until = ?
WHERE id IN (SELECT id FROM outbox_events
  WHERE published_at IS NULL AND attempts < ? AND next_attempt_at <= ? AND (locked_until IS NULL OR locked_until < ?)
  ORDER BY occurred_at, id LIMIT ?`+lock+`)
RETURNING id, type, aggregate_id, payload, occurred_at, attempts`,
		claim, now.Add(r.Lease), r.MaxAttempts, now, now, r.Batch).Scan(&rows).Error
	if err != nil || len(rows) == 0 {
		return 0, 0, err
	}
	slices.SortFunc(rows, func(a, b outboxRow) int {
		if c := a.OccurredAt.Compare(b.OccurredAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	rowIDs := make([]string, len(rows))
	for i := range rows {
		rowIDs[i] = rows[i].ID
	}
	stopRenewing := r.renewLease(ctx, claim, rowIDs)
	defer stopRenewing()
	delivered := make([]string, 0, len(rows))
	for i := range rows {
		row := &rows[i]
		ev := Event{ID: "evt_" + row.ID, Type: row.Type, AggregateID: row.AggregateID, Data: []byte(row.Payload), CreatedAt: row.OccurredAt.UTC()}
		herr := r.bus.Dispatch(ctx, ev)
		if herr == nil {
			delivered = append(delivered, row.ID)
			continue
		}
		r.log.Warn("event handler failed", zap.String("event_id", ev.ID), zap.String("type", ev.Type), zap.Error(herr))
		err := conn.Model(&outboxRow{}).Where("id = ?", row.ID).Updates(map[string]any{
			"attempts": gorm.Expr("attempts + 1"), "locked_until": nil, "claim": "",
			"last_error": truncate(herr.Error(), 1000), "next_attempt_at": r.Clock.Now().UTC().Add(backoff(row.Attempts + 1)),
		}).Error
		if err != nil {
			return 0, len(rows), err
		}
	}
	stopRenewing()
	// The delivered ones in one statement.
	if len(delivered) > 0 {
		err = conn.Model(&outboxRow{}).Where("id IN ?", delivered).Updates(map[string]any{
			"attempts": gorm.Expr("attempts + 1"), "locked_until": nil, "claim": "", "published_at": r.Clock.Now().UTC(),
		}).Error
		if err != nil {
			return 0, len(rows), err
		}
	}
	return len(delivered), len(rows), nil
}

// renewLease extends, every Renew until stopped, the lease of the batch's rows that
// still carry its claim: one conditional UPDATE per renewal, on the primary key, so it
// never touches a row another relay took over (or that this one already settled). The
// returned stop waits for a renewal in flight and may be called more than once.
func (r *Relay) renewLease(ctx context.Context, claim string, rowIDs []string) (stop func()) {
	every := r.Renew
	if every <= 0 {
		every = r.Lease / 3
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			err := r.db.Conn(ctx).Model(&outboxRow{}).Where("id IN ? AND claim = ?", rowIDs, claim).
				Update("locked_until", r.Clock.Now().UTC().Add(r.Lease)).Error
			if err != nil && ctx.Err() == nil {
				r.log.Warn("outbox lease renewal failed", zap.String("claim", claim), zap.Error(err))
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { cancel(); <-done }) }
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
