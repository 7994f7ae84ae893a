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
	"sync"
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
}

// NewOutbox builds the outbox publisher.
func NewOutbox(d *db.DB) *Outbox {
	return &Outbox{
		db: d, now: func() time.Time { return time.Now().UTC().Truncate(time.Microsecond) },
		insert: d.Rebind("INSERT INTO outbox_events (id, type, aggregate_id, payload, occurred_at, next_attempt_at) VALUES (?, ?, ?, ?, ?, ?)"),
	}
}

// Publish stores the event with the ambient transaction (or alone when there is none).
func (o *Outbox) Publish(ctx context.Context, eventType, aggregateID string, data any) error {
	raw, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("event %s: %w", eventType, err)
	}
	// Every write use case publishes: the row is inserted without gorm's statement
	// building and reflection (one plain INSERT in ctx's transaction).
	now := o.now()
	if _, err := o.db.Querier(ctx).ExecContext(ctx, o.insert, ids.New(), eventType, aggregateID, string(raw), now, now); err != nil {
		return fmt.Errorf("event %s: outbox: %w", eventType, err)
	}
	if !db.InTransaction(ctx) {
		o.db.Committed() // autocommitted: wake the relay now
	}
	return nil
}
