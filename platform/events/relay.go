package events

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"
	"gorm.io/gorm"

	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/event"
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
//
// Delivery is recorded per consumer (a module: Bus.Consumer), and an event is marked
// delivered only when every consumer registered by any process has handled it, so
// processes of different versions, with different subscribers, share the outbox; the
// relay also answers the outbox which types anyone wants (Handles, decision 0109).
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
	// Refresh is how often Run registers the process's consumers again (their
	// heartbeat) and reloads every process's; the outbox trusts the registry for
	// 3×Refresh, then stores every event pending until the next load.
	Refresh time.Duration
	// ConsumerExpiry: a registered consumer no process has registered again for this
	// long is gone; events no longer wait for it.
	ConsumerExpiry time.Duration
	// CatchUp: a newly registered consumer receives the events of its types stored
	// delivered from CatchUp before its registration; its catch-up runs CatchUp after
	// it, once every process's registry knows it.
	CatchUp time.Duration

	registry atomic.Pointer[registryView]
	// settleSQL is settleStatement bound for the dialect once (PostgreSQL's settle).
	settleSQL string
}

// DefaultLease is the relay's lease: deliveries of a killed process's batch resume
// within about this long (plus the one-second poll).
const DefaultLease = 10 * time.Second

// Defaults of the consumer registry (decision 0109).
const (
	DefaultRefresh        = 10 * time.Second
	DefaultConsumerExpiry = 10 * time.Minute
	DefaultCatchUp        = 2 * time.Minute
)

// NewRelay builds the relay and hooks it to commits.
func NewRelay(d *db.DB, bus *Bus, log *zap.Logger) *Relay {
	r := &Relay{db: d, bus: bus, log: log.Named("outbox"), wake: make(chan struct{}, 1),
		Interval: time.Second, Batch: 100, MaxAttempts: 10, Lease: DefaultLease, Clock: clock.New(), Coalesce: 10 * time.Millisecond,
		Refresh: DefaultRefresh, ConsumerExpiry: DefaultConsumerExpiry, CatchUp: DefaultCatchUp,
		settleSQL: d.Rebind(settleStatement)}
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

// Run registers the process's consumers and delivers events until ctx ends. The
// registration is renewed every Refresh by a loop of its own, so a slow handler does
// not stop the heartbeat.
func (r *Relay) Run(ctx context.Context) {
	registered := make(chan struct{})
	go func() {
		defer close(registered)
		r.keepRegistered(ctx)
	}()
	defer func() { <-registered }()
	t := time.NewTicker(r.Interval)
	defer t.Stop()
	for {
		if err := r.drainGracefully(ctx); err != nil {
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

// keepRegistered runs Register now and every Refresh until ctx ends, logging failures
// (the outbox then stores every event pending, which is safe, until a registration
// succeeds).
func (r *Relay) keepRegistered(ctx context.Context) {
	register := func(ctx context.Context) {
		if err := r.Register(ctx); err != nil && ctx.Err() == nil {
			r.log.Warn("event consumers not registered", zap.Error(err))
		}
	}
	register(ctx)
	clock.Every(ctx, r.refresh(), register)
}

// drainGracefully drains until ctx ends. A batch in flight when ctx ends is finished:
// its handlers and the statement that records them run on a context ctx's
// cancellation reaches only Lease later, so a graceful stop (SIGTERM) leaves no event
// handled by a consumer but not recorded as handled (which another process would
// deliver to that consumer again once the lease ran out).
func (r *Relay) drainGracefully(ctx context.Context) error {
	work, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	stop := context.AfterFunc(ctx, func() {
		select {
		case <-time.After(r.Lease):
			cancel()
		case <-work.Done():
		}
	})
	defer stop()
	for ctx.Err() == nil {
		_, claimed, err := r.once(work)
		if err != nil || claimed < r.Batch {
			return err
		}
	}
	return nil
}

// Drain delivers every due pending event now and returns how many it handled: events
// every local consumer that wanted them now has (marked delivered unless a consumer of
// another process still waits for them).
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

// claimSettings are the claim transaction's planner settings (inClaimPlan).
const claimSettings = "SELECT set_config('enable_sort', 'off', true), set_config('plan_cache_mode', 'force_generic_plan', true)"

// claimStatement is the statement that claims a batch as claim and returns it. It
// walks the pending events in (occurred_at, id) order (idx_outbox_pending_order) and
// stops at the batch, however long the backlog (decision 0238).
func (r *Relay) claimStatement(subs []subscription, claim string, now time.Time) (string, []any) {
	lock := ""
	if r.db.Dialect() == db.Postgres {
		lock = " FOR UPDATE SKIP LOCKED"
	}
	local, localArgs := localWork(subs)
	args := append([]any{claim, now.Add(r.Lease), r.MaxAttempts, now, now}, localArgs...)
	args = append(args, r.liveSince(now), r.Batch)
	return `UPDATE outbox_events SET claim = ?, locked_until = ?
WHERE id IN (SELECT o.id FROM outbox_events o
  WHERE o.published_at IS NULL AND o.attempts < ? AND o.next_attempt_at <= ? AND (o.locked_until IS NULL OR o.locked_until < ?)
  AND (` + local + ` OR NOT EXISTS (` + waitingConsumer("o", "o.delivered_to") + `))
  ORDER BY o.occurred_at, o.id LIMIT ?` + lock + `)
RETURNING id, type, aggregate_id, payload, occurred_at, attempts, delivered_to`, args
}

// inClaimPlan runs fn, the claim statement, on PostgreSQL in a transaction whose
// planner may not sort: the claim then walks idx_outbox_pending_order and stops at its
// batch. Planned on statistics taken while the outbox was nearly empty (which is what
// a relay behind a burst of events has until autovacuum's next ANALYZE), the claim
// would otherwise read every pending event and sort them, the whole backlog on every
// claim: 38 ms a claim at 19,000 pending (decision 0238).
//
// The transaction also keeps the claim's generic plan: with no sort allowed the plan
// is the same walk whatever the parameters, and PostgreSQL, whose estimates for the
// custom plans came out cheaper, planned the claim again for almost every batch
// (480 µs a plan; decision 0247).
func (r *Relay) inClaimPlan(ctx context.Context, fn func(conn *gorm.DB) error) error {
	if r.db.Dialect() != db.Postgres {
		return fn(r.db.Conn(ctx))
	}
	return r.db.InTx(ctx, func(ctx context.Context) error {
		conn := r.db.Conn(ctx)
		if err := conn.Exec(claimSettings).Error; err != nil {
			return err
		}
		return fn(conn)
	})
}

func (r *Relay) once(ctx context.Context) (published, claimed int, err error) {
	now := r.Clock.Now().UTC()
	claim := ids.New()
	conn := r.db.Conn(ctx)
	subs := r.bus.subscriptions()
	// Claim a batch in one statement: choose the due rows this process has something to
	// do for (a local consumer that wants the type and has not handled the event yet),
	// or that no live registered consumer waits for any more (to mark them delivered),
	// lease them and return them. Rows only another process's consumers wait for stay
	// theirs. On PostgreSQL, FOR UPDATE SKIP LOCKED lets several relays claim disjoint
	// batches, and a row another relay has just claimed or failed is re-checked against
	// the conditions once its lock is released; SQLite runs the statement as one write.
	q, args := r.claimStatement(subs, claim, now)
	var rows []outboxRow
	err = r.inClaimPlan(ctx, func(conn *gorm.DB) error { return conn.Raw(q, args...).Scan(&rows).Error })
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
	// Each local consumer that wants an event and has not handled it yet: its per-event
	// handlers event by event, then its batch handlers once each with their events of
	// the batch (decision 0231).
	outcomes := make([]outcome, len(rows))
	evs := make([]event.Event, len(rows))
	for i := range rows {
		row := &rows[i]
		evs[i] = event.Event{ID: "evt_" + row.ID, Type: row.Type, AggregateID: row.AggregateID, Data: []byte(row.Payload), CreatedAt: row.OccurredAt.UTC()}
		for _, sub := range subs {
			if !sub.wants(row.Type) || listed(row.DeliveredTo, sub.consumer) {
				continue
			}
			outcomes[i].consumers = append(outcomes[i].consumers, sub.consumer)
			outcomes[i].errs = append(outcomes[i].errs, r.bus.dispatchEach(ctx, sub.consumer, evs[i]))
		}
	}
	for _, sub := range subs {
		for _, bs := range r.bus.batchesOf(sub.consumer) {
			r.runBatch(ctx, sub.consumer, bs, evs, outcomes)
		}
	}
	delivered := make([]handled, 0, len(rows))
	var failed []failure
	for i, o := range outcomes {
		var done []string
		var errs []error
		for j, c := range o.consumers {
			if o.errs[j] != nil {
				errs = append(errs, o.errs[j])
				continue
			}
			done = append(done, c)
		}
		if len(errs) == 0 {
			delivered = append(delivered, handled{id: rows[i].ID, added: list(done)})
			continue
		}
		herr := errors.Join(errs...)
		r.log.Warn("event handler failed", zap.String("event_id", evs[i].ID), zap.String("type", evs[i].Type), zap.Error(herr))
		failed = append(failed, failure{id: rows[i].ID, added: list(done), attempts: rows[i].Attempts, err: herr})
	}
	stopRenewing()
	// The handled ones in one statement: each records its consumers, and is marked
	// delivered unless a live registered consumer (of another process) still waits.
	// Then the failed ones, whose consumers that handled them are recorded too: a
	// retry runs only the others. One failing statement does not keep the others from
	// being recorded.
	var errs []error
	if len(delivered) > 0 {
		if err := r.settle(ctx, delivered); err != nil {
			errs = append(errs, err)
		}
	}
	for _, f := range failed {
		err := conn.Model(&outboxRow{}).Where("id = ?", f.id).Updates(map[string]any{
			"attempts": gorm.Expr("attempts + 1"), "locked_until": nil, "claim": "", "delivered_to": gorm.Expr("delivered_to || ?", f.added),
			"last_error": truncate(f.err.Error(), 1000), "next_attempt_at": r.Clock.Now().UTC().Add(backoff(f.attempts + 1)),
		}).Error
		if err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return 0, len(rows), err
	}
	return len(delivered), len(rows), nil
}

// outcome is what a batch's event met: the local consumers that had it to handle, and
// each one's error (nil: handled).
type outcome struct {
	consumers []string
	errs      []error
}

// runBatch calls the consumer's batch handler once with the batch's events it has to
// handle (those of its types the consumer has not handled before); an error is each
// of those events' error for the consumer.
func (r *Relay) runBatch(ctx context.Context, consumer string, bs batchSub, evs []event.Event, outcomes []outcome) {
	type ref struct{ event, consumer int }
	var refs []ref
	var batch []event.Event
	for i := range evs {
		if !bs.wants(evs[i].Type) {
			continue
		}
		if j := slices.Index(outcomes[i].consumers, consumer); j >= 0 {
			refs = append(refs, ref{i, j})
			batch = append(batch, evs[i])
		}
	}
	if len(batch) == 0 {
		return
	}
	err := callBatch(ctx, bs.h, batch)
	if err == nil {
		return
	}
	for _, rf := range refs {
		o := &outcomes[rf.event]
		o.errs[rf.consumer] = errors.Join(o.errs[rf.consumer], fmt.Errorf("%s batch handler of %s: %w", evs[rf.event].Type, consumer, err))
	}
}

// failure is a claimed event a local consumer failed to handle, with the consumers
// that did handle it in this delivery and the error.
type failure struct {
	id, added string
	attempts  int
	err       error
}

// handled is a claimed event every local consumer that wanted it has handled, with the
// consumers that handled it in this delivery (a list, "" for none).
type handled struct {
	id, added string
}

// settle releases the handled rows, appends their consumers to their lists and marks
// each delivered unless a live registered consumer has not handled it yet: one
// statement.
func (r *Relay) settle(ctx context.Context, rows []handled) error {
	now := r.Clock.Now().UTC()
	if r.db.Dialect() == db.Postgres {
		return r.settleJoined(ctx, rows, now)
	}
	var cases strings.Builder
	var caseArgs []any
	idArgs := make([]any, len(rows))
	for i, h := range rows {
		idArgs[i] = h.id
		if h.added != "" {
			cases.WriteString(" WHEN ? THEN ?")
			caseArgs = append(caseArgs, h.id, h.added)
		}
	}
	newList := func(table string) string {
		if len(caseArgs) == 0 {
			return table + "delivered_to"
		}
		return table + "delivered_to || CASE " + table + "id" + cases.String() + " ELSE '' END"
	}
	q := `UPDATE outbox_events SET attempts = attempts + 1, locked_until = NULL, claim = '',
  delivered_to = ` + newList("") + `,
  published_at = CASE WHEN EXISTS (` + waitingConsumer("outbox_events", newList("outbox_events.")) + `) THEN published_at ELSE ? END
WHERE id IN (?` + strings.Repeat(", ?", len(rows)-1) + `)`
	// The new lists, the check's cutoff and the new lists again (in the check), the
	// time of delivery, the ids.
	args := append(append([]any{}, caseArgs...), r.liveSince(now))
	args = append(append(args, caseArgs...), now)
	args = append(args, idArgs...)
	return r.db.Conn(ctx).Exec(q, args...).Error
}

// settleStatement is settle's statement on PostgreSQL: the batch's ids and the
// consumers each delivery added come as two arrays joined to the rows, so that the
// statement's text is the same for every batch (one prepared statement, one plan per
// connection) and each row finds its own list by the join. The statement SQLite runs
// names them in a CASE instead, which every row walks, and whose text changed with
// every batch (decision 0247).
var settleStatement = `UPDATE outbox_events o SET attempts = o.attempts + 1, locked_until = NULL, claim = '',
  delivered_to = o.delivered_to || v.added,
  published_at = CASE WHEN EXISTS (` + waitingConsumer("o", "o.delivered_to || v.added") + `) THEN o.published_at ELSE ? END
FROM unnest(CAST(? AS text[]), CAST(? AS text[])) AS v(id, added)
WHERE o.id = CAST(v.id AS uuid)`

// settleJoined is settle on PostgreSQL (settleStatement).
func (r *Relay) settleJoined(ctx context.Context, rows []handled, now time.Time) error {
	ids, added := make([]string, len(rows)), make([]string, len(rows))
	for i, h := range rows {
		ids[i], added[i] = h.id, h.added
	}
	_, err := r.db.Exec(ctx, r.settleSQL, r.liveSince(now), now, ids, added)
	return err
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
		clock.Every(ctx, every, func(ctx context.Context) {
			err := r.db.Conn(ctx).Model(&outboxRow{}).Where("id IN ? AND claim = ?", rowIDs, claim).
				Update("locked_until", r.Clock.Now().UTC().Add(r.Lease)).Error
			if err != nil && ctx.Err() == nil {
				r.log.Warn("outbox lease renewal failed", zap.String("claim", claim), zap.Error(err))
			}
		})
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
