package postgres

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/jsonw"
)

// Versioned writes are combined (group commit). Concurrent unlocked changes of
// different carts are written by one statement, whose cost (a round trip, the
// executor's start, a commit) is then shared; on the benchmark machine a change costs
// PostgreSQL about half as much in a batch of three as alone. A change waits for no
// timer: a flusher takes whatever is queued when it is free, so a lone change is
// written at once, and under load the changes queued during one statement go in the
// next (docs/decisions/0089).
const (
	// maxFlushers is how many batch statements of one process may run at once. Their
	// carts never overlap, so they take no row lock another one holds.
	maxFlushers = 2
	// maxBatch bounds the changes of one statement.
	maxBatch = 64
	// flushTimeout bounds one statement (it runs for many requests, so on none of their
	// contexts).
	flushTimeout = 30 * time.Second
)

// pendingWrite is one change waiting for its batch: the cart as changed (its row,
// whose Version is the one the change was made from), the item rows changed (their
// ids in updated) or new, and the events to store with it.
type pendingWrite struct {
	cart    cartRow
	items   []itemRow
	updated []string
	events  []events.Record
	done    chan writeResult
}

type writeResult struct {
	written bool
	err     error
}

// combiner queues versioned writes and flushes them in batches.
type combiner struct {
	db      *db.DB
	sql     string // batchSQL
	mu      sync.Mutex
	queue   []*pendingWrite
	running int
	busy    map[string]bool // carts in a running batch
}

func newCombiner(d *db.DB) *combiner {
	return &combiner{db: d, sql: batchSQL(), busy: map[string]bool{}}
}

// writeAlone writes w in a statement of its own, at once (group commit off).
func (k *combiner) writeAlone(_ context.Context, w *pendingWrite) (bool, error) {
	written, err := k.flush([]*pendingWrite{w})
	return written[w.cart.ID], err
}

// write queues w and waits for its batch. It answers whether the cart was still at
// w.version (and so written, with its items and events), or the batch's error.
func (k *combiner) write(ctx context.Context, w *pendingWrite) (bool, error) {
	w.done = make(chan writeResult, 1)
	k.mu.Lock()
	k.queue = append(k.queue, w)
	if k.running < maxFlushers {
		k.running++
		go k.flushLoop()
	}
	k.mu.Unlock()
	select {
	case r := <-w.done:
		return r.written, r.err
	case <-ctx.Done():
		return false, ctx.Err()
	}
}

// flushLoop writes batches until nothing it may take is queued.
func (k *combiner) flushLoop() {
	for {
		k.mu.Lock()
		batch := k.take()
		if len(batch) == 0 {
			k.running--
			k.mu.Unlock()
			return
		}
		k.mu.Unlock()
		written, err := k.flush(batch)
		if err != nil && len(batch) > 1 {
			// One failing change must not fail the others: write each alone.
			for _, w := range batch {
				one, err := k.flush([]*pendingWrite{w})
				w.done <- writeResult{one[w.cart.ID], err}
			}
		} else {
			for _, w := range batch {
				w.done <- writeResult{written[w.cart.ID], err}
			}
		}
		k.mu.Lock()
		for _, w := range batch {
			delete(k.busy, w.cart.ID)
		}
		k.mu.Unlock()
	}
}

// take removes from the queue, in order, up to maxBatch writes of different carts
// that no running batch writes, and marks their carts busy. k.mu is held.
func (k *combiner) take() []*pendingWrite {
	var batch []*pendingWrite
	rest := k.queue[:0]
	for _, w := range k.queue {
		if len(batch) < maxBatch && !k.busy[w.cart.ID] {
			k.busy[w.cart.ID] = true
			batch = append(batch, w)
			continue
		}
		rest = append(rest, w)
	}
	for i := len(rest); i < len(k.queue); i++ {
		k.queue[i] = nil
	}
	k.queue = rest
	return batch
}

// batchSQL writes a batch in one statement. The carts, items and events come as three
// JSON arrays of rows (one fixed statement, prepared once per connection, whatever
// the batch), read as rows of the tables' own types (jsonb_populate_recordset), and
// their columns are the rows' fields (rows.go), as on the locked path. Each cart's
// UPDATE applies only at the version its change was made from; its items' and events'
// writes join the UPDATE's RETURNING, so a cart that moved on gets nothing written.
// The transaction commits synchronously (decision 0118). $4 and $5 are the ids of the carts and of the changed items: the planner
// cannot know how many rows a JSON array holds (it assumes 100), and for a small carts
// table it would then rather scan the whole table and hash than look up each row; as
// arrays it reads them as index lookups.
func batchSQL() string {
	var (
		cart cartRow
		item itemRow
	)
	set := func(fs []field, keep func(string) bool) string {
		return list(fs, keep, func(col string) string { return col + " = " + batchValue(col) })
	}
	all := func(string) bool { return true }
	return `WITH in_carts AS (SELECT * FROM jsonb_populate_recordset(NULL::carts, $1::jsonb)),
c AS (UPDATE carts SET ` + set(cart.fields(), cartUpdatable) + `, version = carts.version + 1
  FROM in_carts x WHERE carts.id = ANY($4::uuid[]) AND carts.id = x.id AND carts.version = x.version RETURNING carts.id),
in_items AS (SELECT * FROM jsonb_populate_recordset(NULL::cart_items, $2::jsonb)),
u AS (UPDATE cart_items SET ` + set(item.fields(), itemUpdatable) + `
  FROM in_items x JOIN c ON c.id = x.cart_id WHERE cart_items.id = ANY($5::uuid[]) AND cart_items.id = x.id),
i AS (INSERT INTO cart_items (` + list(item.fields(), all, func(col string) string { return col }) + `)
  SELECT ` + list(item.fields(), all, batchValue) + `
  FROM in_items x JOIN c ON c.id = x.cart_id WHERE x.id <> ALL($5::uuid[])),
e AS (INSERT INTO outbox_events (` + events.RecordColumns + `)
  SELECT x.id, x.type, x.aggregate_id, x.payload, x.occurred_at, x.occurred_at, x.published_at
  FROM jsonb_to_recordset($3::jsonb) AS x(cart_id uuid, id uuid, type text, aggregate_id text, payload json,
  occurred_at timestamptz, published_at timestamptz) JOIN c ON c.id = x.cart_id)
SELECT c.id::text FROM c`
}

// batchValue is a column's value in a batch row x. The JSON columns travel as JSON
// strings (the rows hold them as text), whose text is the column's value.
func batchValue(column string) string {
	if column == "coupons" || column == "custom_attributes" {
		return "(x." + column + " #>> '{}')::jsonb"
	}
	return "x." + column
}

// flush runs one batch statement and answers which carts it wrote.
func (k *combiner) flush(batch []*pendingWrite) (map[string]bool, error) {
	carts, items, evts := batchJSON(batch)
	cartIDs := make([]string, len(batch))
	var itemIDs []string
	for i, w := range batch {
		cartIDs[i] = w.cart.ID
		itemIDs = append(itemIDs, w.updated...)
	}
	ctx, cancel := context.WithTimeout(context.Background(), flushTimeout)
	defer cancel()
	written := make(map[string]bool, len(batch))
	var id string
	err := k.db.ExecQuery(ctx, k.sql, []any{carts, items, evts, cartIDs, orEmpty(itemIDs)}, []any{&id}, func() error {
		written[id] = true
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("carts: versioned write: %w", err)
	}
	return written, nil
}

// batchJSON renders a batch as the statement's three JSON arguments: the cart rows,
// the item rows and the events (with their cart, for the join). The rows are written
// field by field (appendRow), named by their columns; decimals travel as strings and
// the JSON columns (coupons, custom_attributes) as strings too (batchValue). An
// event's payload is already JSON (events.Record). encoding/json's reflection over
// these rows was 5 % of an add's CPU (docs/performance.md, finding 12); TestBatchJSON
// compares the output with encoding/json's (the rows' json tags are their columns).
func batchJSON(batch []*pendingWrite) (carts, items, evts string) {
	buf := make([]byte, 0, 1024*len(batch))
	buf = append(buf, '[')
	for _, w := range batch {
		buf = appendRow(jsonw.Elem(buf), w.cart.fields())
	}
	carts, buf = string(append(buf, ']')), append(buf[:0], '[')
	for _, w := range batch {
		for j := range w.items {
			buf = appendRow(jsonw.Elem(buf), w.items[j].fields())
		}
	}
	items, buf = string(append(buf, ']')), append(buf[:0], '[')
	for _, w := range batch {
		for _, rec := range w.events {
			buf = appendEvent(jsonw.Elem(buf), w.cart.ID, rec)
		}
	}
	return carts, items, string(append(buf, ']'))
}

// appendRow writes a row as a JSON object of its fields, named by their columns.
func appendRow(b []byte, fs []field) []byte {
	b = append(b, '{')
	for _, f := range fs {
		b = jsonw.Key(b, f.column)
		switch p := f.ptr.(type) {
		case *string:
			b = jsonw.String(b, *p)
		case **string:
			b = jsonw.StringPtr(b, *p)
		case *int:
			b = jsonw.Int(b, *p)
		case *int64:
			b = strconv.AppendInt(b, *p, 10)
		case *bool:
			b = jsonw.Bool(b, *p)
		case *decimal.Decimal:
			b = jsonw.Decimal(b, *p)
		case *time.Time:
			b = jsonw.Time(b, *p)
		default:
			panic(fmt.Sprintf("carts: unsupported field type %T", f.ptr))
		}
	}
	return append(b, '}')
}

// appendEvent writes an event row: its payload is JSON already (events.Record), and
// published_at is set for an event nobody subscribed to.
func appendEvent(b []byte, cartID string, rec events.Record) []byte {
	b = append(b, '{')
	b = jsonw.String(jsonw.Key(b, "cart_id"), cartID)
	b = jsonw.String(jsonw.Key(b, "id"), rec.ID)
	b = jsonw.String(jsonw.Key(b, "type"), rec.Type)
	b = jsonw.String(jsonw.Key(b, "aggregate_id"), rec.AggregateID)
	b = append(jsonw.Key(b, "payload"), rec.Payload...)
	b = jsonw.Time(jsonw.Key(b, "occurred_at"), rec.At)
	b = jsonw.Key(b, "published_at")
	if rec.Delivered {
		b = jsonw.Time(b, rec.At)
	} else {
		b = append(b, "null"...)
	}
	return append(b, '}')
}

// orEmpty makes a nil slice an empty array (pgx sends nil as NULL).
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// pendingOf is the write of a changed cart, with its events.
func pendingOf(d diff, recs []events.Record) *pendingWrite {
	w := &pendingWrite{cart: d.after, events: recs}
	for _, ch := range d.changed {
		w.items = append(w.items, ch.row)
		w.updated = append(w.updated, ch.id)
	}
	w.items = append(w.items, d.added...)
	return w
}
