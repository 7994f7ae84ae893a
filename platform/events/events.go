// Package events is the in-process event bus with a transactional outbox: Publish
// stores events through the context's transaction, so an event exists if and only if
// the change that caused it was committed; the Relay delivers stored events to the
// subscribers after commit, at least once, in order of occurrence.
package events

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/ids"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Migrations returns the outbox table migrations.
func Migrations() db.MigrationSource {
	sub, _ := fs.Sub(migrations, "migrations")
	return db.MigrationSource{Module: "events", FS: sub}
}

// Event is a published fact. Data is the resource (the webhook body's data member).
type Event struct {
	ID          string          `json:"id"` // evt_<uuid>
	Type        string          `json:"type"`
	AggregateID string          `json:"-"`
	Data        json.RawMessage `json:"data"`
	CreatedAt   time.Time       `json:"created_at"`
}

// Decode unmarshals the event's data into v.
func (e Event) Decode(v any) error { return json.Unmarshal(e.Data, v) }

// Handler reacts to an event. Returning an error makes the relay retry the event.
type Handler func(ctx context.Context, e Event) error

// Publisher is what use cases depend on.
type Publisher interface {
	// Publish stores an event in the outbox inside ctx's transaction.
	Publish(ctx context.Context, eventType, aggregateID string, data any) error
}

// Subscriber registers reactions.
type Subscriber interface {
	Subscribe(eventType string, h Handler)
}

// Bus dispatches events to subscribers in process. "*" subscribes to every type.
type Bus struct {
	mu       sync.RWMutex
	handlers map[string][]Handler
}

// NewBus returns an empty bus.
func NewBus() *Bus { return &Bus{handlers: map[string][]Handler{}} }

// Subscribe adds a handler for eventType ("*" for all).
func (b *Bus) Subscribe(eventType string, h Handler) {
	b.mu.Lock()
	b.handlers[eventType] = append(b.handlers[eventType], h)
	b.mu.Unlock()
}

// Handles reports whether the bus has a handler for events of the type.
func (b *Bus) Handles(eventType string) bool {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return len(b.handlers[eventType]) > 0 || len(b.handlers["*"]) > 0
}

// Dispatch runs every handler of the event; errors are joined.
func (b *Bus) Dispatch(ctx context.Context, e Event) error {
	b.mu.RLock()
	hs := append(append([]Handler{}, b.handlers[e.Type]...), b.handlers["*"]...)
	b.mu.RUnlock()
	var errs []error
	for _, h := range hs {
		if err := call(ctx, h, e); err != nil {
			errs = append(errs, fmt.Errorf("%s handler: %w", e.Type, err))
		}
	}
	return errors.Join(errs...)
}

// call runs one handler, turning a panic into an error so a faulty subscriber is a
// failed (retried) delivery rather than a crashed relay.
func call(ctx context.Context, h Handler, e Event) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return h(ctx, e)
}

type outboxRow struct {
	ID            string `gorm:"primaryKey"`
	Type          string
	AggregateID   string
	Payload       string
	OccurredAt    time.Time
	PublishedAt   *time.Time
	NextAttemptAt time.Time
	Claim         string
	LockedUntil   *time.Time
	Attempts      int
	LastError     string
}

func (outboxRow) TableName() string { return "outbox_events" }

// Outbox implements Publisher on the outbox table.
type Outbox struct {
	db     *db.DB
	now    func() time.Time
	insert string // the INSERT, in the dialect's parameters
	bus    atomic.Pointer[Bus]
}

// NewOutbox builds the outbox publisher.
func NewOutbox(d *db.DB) *Outbox {
	return &Outbox{
		db: d, now: func() time.Time { return time.Now().UTC().Truncate(time.Microsecond) },
		insert: d.Rebind("INSERT INTO outbox_events (" + RecordColumns + ") VALUES (?, ?, ?, ?, ?, ?, ?)"),
	}
}

// Route tells the outbox which bus the relay delivers its events to. From then on an
// event of a type nobody subscribed to is stored already delivered: it exists, with
// its change, but the relay has nothing to do for it (as the relay would have marked
// it delivered to nobody). Until Route is called every event is stored pending.
func (o *Outbox) Route(b *Bus) { o.bus.Store(b) }

// Record renders an event for a repository that stores it in its own statement.
func (o *Outbox) Record(eventType, aggregateID string, data any) (Record, error) {
	r, err := newRecord(eventType, aggregateID, data, o.now())
	if err != nil {
		return Record{}, err
	}
	if b := o.bus.Load(); b != nil && !b.Handles(eventType) {
		r.Delivered = true
	}
	return r, nil
}

// Publish stores the event with the ambient transaction (or alone when there is none).
// In a transaction the events are collected and inserted together just before it
// commits, in one statement however many the use case published (docs/performance.md,
// finding 12): the rows still commit, or roll back, with the change.
func (o *Outbox) Publish(ctx context.Context, eventType, aggregateID string, data any) error {
	rec, err := o.Record(eventType, aggregateID, data)
	if err != nil {
		return err
	}
	if v, _, ok := db.TxValue(ctx, pendingKey{o}, func() any { return &pendingEvents{} }); ok {
		v.(*pendingEvents).add(ctx, o.db, rec)
		return nil
	}
	// Autocommitted: the row is inserted without gorm's statement building and
	// reflection (one plain INSERT).
	if _, err := o.db.Querier(ctx).ExecContext(ctx, o.insert, rec.Args()...); err != nil {
		return fmt.Errorf("event %s: outbox: %w", eventType, err)
	}
	if !db.InTransaction(ctx) && !rec.Delivered {
		o.db.Committed() // autocommitted: wake the relay now
	}
	return nil
}

// pendingKey keys an outbox's events of one transaction (db.TxValue).
type pendingKey struct{ o *Outbox }

// pendingEvents are the events a transaction published and has not stored yet.
type pendingEvents struct {
	mu        sync.Mutex
	recs      []Record
	scheduled bool // a before-commit flush is registered
}

// add keeps rec for the transaction's flush, registering one when none is (also for an
// event published by another before-commit function, after a flush ran).
func (p *pendingEvents) add(ctx context.Context, d *db.DB, rec Record) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.recs = append(p.recs, rec)
	if !p.scheduled {
		p.scheduled = true
		d.BeforeCommit(ctx, func(ctx context.Context) error { return p.flush(ctx, d) })
	}
}

// storeBatch bounds the rows of one INSERT (7 parameters each, under PostgreSQL's 65,535).
const storeBatch = 1000

// flush stores the collected events, in the order they were published.
func (p *pendingEvents) flush(ctx context.Context, d *db.DB) error {
	p.mu.Lock()
	recs := p.recs
	p.recs, p.scheduled = nil, false
	p.mu.Unlock()
	for len(recs) > 0 {
		n := min(len(recs), storeBatch)
		if err := Store(ctx, d, recs[:n]...); err != nil {
			return err
		}
		recs = recs[n:]
	}
	return nil
}

// RecordColumns are the outbox columns a Record's Args fill, in order.
const RecordColumns = "id, type, aggregate_id, payload, occurred_at, next_attempt_at, published_at"

// Record is an event as the outbox stores it, for a repository that writes it in its
// own statement (a data-modifying CTE that also changes its aggregate) instead of
// through Publish: "INSERT INTO outbox_events (" + RecordColumns + ") ..." with Args.
// The writer calls db.Committed after its statement commits, to wake the relay.
type Record struct {
	ID, Type, AggregateID, Payload string
	At                             time.Time
	// Delivered is set for an event nobody subscribed to (Outbox.Route).
	Delivered bool
}

func newRecord(eventType, aggregateID string, data any, at time.Time) (Record, error) {
	raw, err := json.Marshal(data)
	if err != nil {
		return Record{}, fmt.Errorf("event %s: %w", eventType, err)
	}
	return Record{ID: ids.New(), Type: eventType, AggregateID: aggregateID, Payload: string(raw), At: at.UTC().Truncate(time.Microsecond)}, nil
}

// Store inserts records with ctx's transaction (or alone, then waking the relay for
// pending ones).
func Store(ctx context.Context, d *db.DB, recs ...Record) error {
	if len(recs) == 0 {
		return nil
	}
	q := "INSERT INTO outbox_events (" + RecordColumns + ") VALUES " + strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?, ?, ?, ?), ", len(recs)), ", ")
	args := make([]any, 0, 7*len(recs))
	pending := false
	for _, r := range recs {
		args = append(args, r.Args()...)
		pending = pending || !r.Delivered
	}
	if _, err := d.Querier(ctx).ExecContext(ctx, d.Rebind(q), args...); err != nil {
		return fmt.Errorf("events: outbox: %w", err)
	}
	if !db.InTransaction(ctx) && pending {
		d.Committed()
	}
	return nil
}

// Args are the record's values for RecordColumns.
func (r Record) Args() []any {
	var delivered *time.Time
	if r.Delivered {
		delivered = &r.At
	}
	return []any{r.ID, r.Type, r.AggregateID, r.Payload, r.At, r.At, delivered}
}
