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
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/ids"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Migrations returns the outbox table migrations.
func Migrations() db.MigrationSource {
	sub, _ := fs.Sub(migrations, "migrations")
	return db.MigrationSource{Module: "events", FS: sub}
}

// Router tells the outbox whether anyone wants events of a type (Outbox.Route): the
// Bus answers for its own process, the Relay for every process (decision 0109).
type Router interface {
	Handles(eventType string) bool
}

// DefaultConsumer names the handlers subscribed through Bus.Subscribe itself.
const DefaultConsumer = "default"

// validConsumer is a consumer name: it is stored in a comma-separated list and matched
// with LIKE, so it has no comma, '%' or '_'.
var validConsumer = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]{0,62}$`)

// Bus dispatches events to subscribers in process. "*" subscribes to every type.
// Handlers belong to named consumers (a module each: Consumer); the relay records
// delivery per consumer, so processes of different versions, subscribed to different
// types, share one outbox (decision 0109).
type Bus struct {
	mu        sync.RWMutex
	consumers []string                              // in subscription order
	handlers  map[string]map[string][]event.Handler // consumer → event type → handlers
	batches   map[string][]batchSub                 // consumer → batch handlers, in subscription order
	wanted    map[string]func(string) bool          // consumer → the filter of its "*" handlers (SubscribeFiltered)
}

// batchSub is a batch handler with its event types.
type batchSub struct {
	types []string
	h     event.BatchHandler
}

func (s batchSub) wants(eventType string) bool { return slices.Contains(s.types, eventType) }

// NewBus returns an empty bus.
func NewBus() *Bus {
	return &Bus{handlers: map[string]map[string][]event.Handler{}, batches: map[string][]batchSub{},
		wanted: map[string]func(string) bool{}}
}

// SubscribeBatch adds a batch handler for the event types to the default consumer.
func (b *Bus) SubscribeBatch(eventTypes []string, h event.BatchHandler) {
	b.subscribeBatch(DefaultConsumer, eventTypes, h)
}

// Subscribe adds a handler for eventType ("*" for all) to the default consumer.
func (b *Bus) Subscribe(eventType string, h event.Handler) {
	b.subscribe(DefaultConsumer, eventType, h)
}

// Consumer returns the Subscriber of a named consumer: its handlers' deliveries are
// recorded under that name (lower-case letters, digits, '.' and '-'; a module's name).
// It panics on an invalid name, a programming error.
func (b *Bus) Consumer(name string) event.BatchSubscriber {
	if !validConsumer.MatchString(name) {
		panic(fmt.Sprintf("events: invalid consumer name %q", name))
	}
	return consumerSubscriber{bus: b, name: name}
}

type consumerSubscriber struct {
	bus  *Bus
	name string
}

func (c consumerSubscriber) Subscribe(eventType string, h event.Handler) {
	c.bus.subscribe(c.name, eventType, h)
}

func (c consumerSubscriber) SubscribeBatch(eventTypes []string, h event.BatchHandler) {
	c.bus.subscribeBatch(c.name, eventTypes, h)
}

func (c consumerSubscriber) SubscribeFiltered(wants func(string) bool, h event.Handler) {
	c.bus.subscribeFiltered(c.name, wants, h)
}

// SubscribeFiltered adds a filtered handler of every event to the default consumer.
func (b *Bus) SubscribeFiltered(wants func(string) bool, h event.Handler) {
	b.subscribeFiltered(DefaultConsumer, wants, h)
}

// subscribeFiltered subscribes h to every event ("*") with the consumer's filter: the
// consumer's "*" handlers then want a type only when wants says so (Handles), and it
// is registered as filteredAll, which does not make other processes store every
// event pending (decision 0234).
func (b *Bus) subscribeFiltered(consumer string, wants func(string) bool, h event.Handler) {
	b.subscribe(consumer, "*", h)
	b.mu.Lock()
	defer b.mu.Unlock()
	b.wanted[consumer] = wants
}

func (b *Bus) subscribe(consumer, eventType string, h event.Handler) {
	b.mu.Lock()
	defer b.mu.Unlock()
	byType := b.consumerLocked(consumer)
	byType[eventType] = append(byType[eventType], h)
}

// subscribeBatch records the batch handler; its types are the consumer's too (with no
// per-event handler), so that the relay claims their events and the registry lists
// them.
func (b *Bus) subscribeBatch(consumer string, eventTypes []string, h event.BatchHandler) {
	if slices.Contains(eventTypes, "*") || len(eventTypes) == 0 {
		panic("events: a batch handler names its event types")
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	byType := b.consumerLocked(consumer)
	for _, t := range eventTypes {
		if _, ok := byType[t]; !ok {
			byType[t] = nil
		}
	}
	b.batches[consumer] = append(b.batches[consumer], batchSub{types: slices.Clone(eventTypes), h: h})
}

// consumerLocked returns the consumer's handlers by type, adding the consumer if new.
func (b *Bus) consumerLocked(consumer string) map[string][]event.Handler {
	byType, ok := b.handlers[consumer]
	if !ok {
		byType = map[string][]event.Handler{}
		b.handlers[consumer] = byType
		b.consumers = append(b.consumers, consumer)
	}
	return byType
}

// Handles reports whether the bus has a handler for events of the type.
func (b *Bus) Handles(eventType string) bool {
	b.mu.RLock()
	defer b.mu.RUnlock()
	for consumer, byType := range b.handlers {
		if _, ok := byType[eventType]; ok {
			return true
		}
		if len(byType["*"]) > 0 {
			if wants := b.wanted[consumer]; wants == nil || wants(eventType) {
				return true
			}
		}
	}
	return false
}

// subscriptions lists each consumer with the event types it subscribed to ("*" for
// all), consumers in subscription order and types sorted.
func (b *Bus) subscriptions() []subscription {
	b.mu.RLock()
	defer b.mu.RUnlock()
	out := make([]subscription, 0, len(b.consumers))
	for _, c := range b.consumers {
		s := subscription{consumer: c, filtered: b.wanted[c] != nil}
		for typ := range b.handlers[c] {
			s.types = append(s.types, typ)
		}
		slices.Sort(s.types)
		out = append(out, s)
	}
	return out
}

// subscription is one consumer's event types.
type subscription struct {
	consumer string
	types    []string
	filtered bool // its "*" is filtered (SubscribeFiltered): registered as filteredAll
}

// wants reports whether the consumer subscribed to events of the type.
func (s subscription) wants(eventType string) bool {
	return slices.Contains(s.types, "*") || slices.Contains(s.types, eventType)
}

// Dispatch runs every handler of the event, of every consumer; errors are joined.
func (b *Bus) Dispatch(ctx context.Context, e event.Event) error {
	b.mu.RLock()
	consumers := slices.Clone(b.consumers)
	b.mu.RUnlock()
	var errs []error
	for _, c := range consumers {
		if err := b.dispatchTo(ctx, c, e); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// dispatchTo runs the consumer's handlers of the event (its type's, then "*"'s, then
// its batch handlers of the type with the event alone); errors are joined.
func (b *Bus) dispatchTo(ctx context.Context, consumer string, e event.Event) error {
	err := b.dispatchEach(ctx, consumer, e)
	var errs []error
	for _, bs := range b.batchesOf(consumer) {
		if bs.wants(e.Type) {
			if berr := callBatch(ctx, bs.h, []event.Event{e}); berr != nil {
				errs = append(errs, fmt.Errorf("%s batch handler of %s: %w", e.Type, consumer, berr))
			}
		}
	}
	return errors.Join(append([]error{err}, errs...)...)
}

// dispatchEach runs the consumer's per-event handlers of the event (its type's, then
// "*"'s); errors are joined.
func (b *Bus) dispatchEach(ctx context.Context, consumer string, e event.Event) error {
	b.mu.RLock()
	byType := b.handlers[consumer]
	hs := append(append([]event.Handler{}, byType[e.Type]...), byType["*"]...)
	b.mu.RUnlock()
	var errs []error
	for _, h := range hs {
		if err := call(ctx, h, e); err != nil {
			errs = append(errs, fmt.Errorf("%s handler of %s: %w", e.Type, consumer, err))
		}
	}
	return errors.Join(errs...)
}

// batchesOf returns the consumer's batch handlers.
func (b *Bus) batchesOf(consumer string) []batchSub {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return slices.Clone(b.batches[consumer])
}

// call runs one handler, turning a panic into an error so a faulty subscriber is a
// failed (retried) delivery rather than a crashed relay.
func call(ctx context.Context, h event.Handler, e event.Event) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return h(ctx, e)
}

// callBatch is call for a batch handler.
func callBatch(ctx context.Context, h event.BatchHandler, es []event.Event) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return h(ctx, es)
}

type outboxRow struct {
	ID            string `gorm:"primaryKey"`
	Type          string
	DeliveredTo   string
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
	router atomic.Pointer[routed]
}

// routed holds the outbox's router (an interface cannot be stored in atomic.Pointer).
type routed struct{ r Router }

// NewOutbox builds the outbox publisher.
func NewOutbox(d *db.DB) *Outbox {
	return &Outbox{
		db: d, now: func() time.Time { return time.Now().UTC().Truncate(time.Microsecond) },
		insert: d.Rebind("INSERT INTO outbox_events (" + RecordColumns + ") VALUES (?, ?, ?, ?, ?, ?, ?)"),
	}
}

// Route tells the outbox who wants its events: the application passes its Relay, which
// answers for every process sharing the database (its registry of consumers, decision
// 0109); a single-process test may pass its Bus. From then on an event of a type nobody
// wants is stored already delivered: it exists, with its change, but no relay has
// anything to do for it. Until Route is called every event is stored pending.
func (o *Outbox) Route(r Router) { o.router.Store(&routed{r: r}) }

// Record renders an event for a repository that stores it in its own statement.
func (o *Outbox) Record(eventType, aggregateID string, data any) (Record, error) {
	r, err := newRecord(eventType, aggregateID, data, o.now())
	if err != nil {
		return Record{}, err
	}
	if rt := o.router.Load(); rt != nil && !rt.r.Handles(eventType) {
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
	if _, err := o.db.Exec(ctx, o.insert, rec.Args()...); err != nil {
		return fmt.Errorf("event %s: outbox: %w", eventType, err)
	}
	if !rec.Delivered {
		o.db.AfterCommit(ctx, o.db.Committed) // wake the relay
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
	// The commit follows: the insert goes out with it (decision 0240).
	ctx = db.Later(ctx)
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
// The writer wakes the relay once the statement commits: db.AfterCommit(ctx,
// d.Committed).
type Record struct {
	ID, Type, AggregateID, Payload string
	At                             time.Time
	// Delivered is set for an event nobody wants (Outbox.Route).
	Delivered bool
}

func newRecord(eventType, aggregateID string, data any, at time.Time) (Record, error) {
	raw, err := json.Marshal(data)
	if err != nil {
		return Record{}, fmt.Errorf("event %s: %w", eventType, err)
	}
	return Record{ID: ids.New(), Type: eventType, AggregateID: aggregateID, Payload: string(raw), At: at.UTC().Truncate(time.Microsecond)}, nil
}

// Store inserts records with ctx's transaction (or alone) and, when any is pending,
// wakes the relay once they are committed.
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
	if _, err := d.Exec(ctx, d.Rebind(q), args...); err != nil {
		return fmt.Errorf("events: outbox: %w", err)
	}
	if pending {
		d.AfterCommit(ctx, d.Committed)
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

// The implementations of the platform/event port.
var (
	_ event.Publisher          = (*Outbox)(nil)
	_ event.BatchSubscriber    = (*Bus)(nil)
	_ event.BatchSubscriber    = consumerSubscriber{}
	_ event.FilteredSubscriber = (*Bus)(nil)
	_ event.FilteredSubscriber = consumerSubscriber{}
)
