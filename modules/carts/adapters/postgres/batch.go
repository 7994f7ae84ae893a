package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/events"
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
// whose Version is the one the change was made from, and the items whose row changed
// or is new), and the events to store with it.
type pendingWrite struct {
	cart   cartRow
	items  []batchItem
	events []events.Record
	done   chan writeResult
}

// batchItem is an item row of the batch's JSON, marked new (inserted) or not (updated).
type batchItem struct {
	itemRow
	New bool `json:"new"`
}

type writeResult struct {
	written bool
	err     error
}

// combiner queues versioned writes and flushes them in batches.
type combiner struct {
	db      *db.DB
	mu      sync.Mutex
	queue   []*pendingWrite
	running int
	busy    map[string]bool // carts in a running batch
}

func newCombiner(d *db.DB) *combiner { return &combiner{db: d, busy: map[string]bool{}} }

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
// the batch). Each cart's UPDATE applies only at the version its change was made
// from; its items' and events' writes join the UPDATE's RETURNING, so a cart that
// moved on gets nothing written. The transaction commits asynchronously (decision
// 0089: a crash of the database server may lose the last fraction of a second of
// cart changes, never part of one).
const batchSQL = `WITH s AS (SELECT set_config('synchronous_commit', 'off', true)),
in_carts AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, version bigint, customer_id uuid, session_token_hash text,
  currency text, status text, email text, shipping_method text, notes text, coupons text, subtotal numeric, discount_total numeric,
  shipping_before_discount numeric, shipping_total numeric, item_count integer, converted_order_id text, merged_into_id uuid,
  expires_at timestamptz, expiry_hour timestamptz, updated_at timestamptz)),
c AS (UPDATE carts SET customer_id = x.customer_id, session_token_hash = x.session_token_hash, currency = x.currency,
  status = x.status, email = x.email, shipping_method = x.shipping_method, notes = x.notes, coupons = x.coupons::jsonb,
  subtotal = x.subtotal, discount_total = x.discount_total, shipping_before_discount = x.shipping_before_discount,
  shipping_total = x.shipping_total, item_count = x.item_count, converted_order_id = x.converted_order_id,
  merged_into_id = x.merged_into_id, expires_at = x.expires_at, expiry_hour = x.expiry_hour, updated_at = x.updated_at,
  version = carts.version + 1
  FROM in_carts x WHERE carts.id = ANY($4::uuid[]) AND carts.id = x.id AND carts.version = x.version RETURNING carts.id),
in_items AS (SELECT * FROM jsonb_to_recordset($2::jsonb) AS x(new boolean, id uuid, cart_id uuid, product_id text, variant_id text,
  quantity integer, unit_price numeric, original_price numeric, discount_amount numeric, sku text, title text, variant_title text,
  image_url text, requires_shipping boolean, is_gift_card boolean, custom_attributes text, attributes_hash text,
  created_at timestamptz, updated_at timestamptz)),
u AS (UPDATE cart_items SET product_id = x.product_id, variant_id = x.variant_id, quantity = x.quantity, unit_price = x.unit_price,
  original_price = x.original_price, discount_amount = x.discount_amount, sku = x.sku, title = x.title,
  variant_title = x.variant_title, image_url = x.image_url, requires_shipping = x.requires_shipping,
  is_gift_card = x.is_gift_card, custom_attributes = x.custom_attributes::jsonb, attributes_hash = x.attributes_hash,
  updated_at = x.updated_at
  FROM in_items x JOIN c ON c.id = x.cart_id WHERE NOT x.new AND cart_items.id = ANY($5::uuid[]) AND cart_items.id = x.id),
i AS (INSERT INTO cart_items (id, cart_id, product_id, variant_id, quantity, unit_price, original_price, discount_amount, sku, title,
  variant_title, image_url, requires_shipping, is_gift_card, custom_attributes, attributes_hash, created_at, updated_at)
  SELECT x.id, x.cart_id, x.product_id, x.variant_id, x.quantity, x.unit_price, x.original_price, x.discount_amount, x.sku, x.title,
  x.variant_title, x.image_url, x.requires_shipping, x.is_gift_card, x.custom_attributes::jsonb, x.attributes_hash, x.created_at, x.updated_at
  FROM in_items x JOIN c ON c.id = x.cart_id WHERE x.new),
e AS (INSERT INTO outbox_events (` + events.RecordColumns + `)
  SELECT x.id, x.type, x.aggregate_id, x.payload, x.occurred_at, x.occurred_at, x.published_at
  FROM jsonb_to_recordset($3::jsonb) AS x(cart_id uuid, id uuid, type text, aggregate_id text, payload jsonb,
  occurred_at timestamptz, published_at timestamptz) JOIN c ON c.id = x.cart_id)
SELECT c.id::text FROM c, s`

// The planner cannot know how many rows jsonb_to_recordset returns (it assumes 100),
// and for a small carts table it would then rather scan the whole table and hash than
// look up each row: the UPDATEs also match the ids as arrays, which it reads as index
// lookups.

// flush runs one batch statement and answers which carts it wrote.
func (k *combiner) flush(batch []*pendingWrite) (map[string]bool, error) {
	carts, items, evts, err := batchJSON(batch)
	if err != nil {
		return nil, err
	}
	cartIDs := make([]string, len(batch))
	var itemIDs []string
	for i, w := range batch {
		cartIDs[i] = w.cart.ID
		for _, it := range w.items {
			if !it.New {
				itemIDs = append(itemIDs, it.ID)
			}
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), flushTimeout)
	defer cancel()
	rows, err := k.db.Querier(ctx).QueryContext(ctx, batchSQL, carts, items, evts, cartIDs, orEmpty(itemIDs))
	if err != nil {
		return nil, fmt.Errorf("carts: versioned write: %w", err)
	}
	defer func() { _ = rows.Close() }()
	written := make(map[string]bool, len(batch))
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("carts: versioned write: %w", err)
		}
		written[id] = true
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("carts: versioned write: %w", err)
	}
	return written, nil
}

// eventJSON is an event row of the batch's JSON (with its cart, for the join).
type eventJSON struct {
	CartID      string          `json:"cart_id"`
	ID          string          `json:"id"`
	Type        string          `json:"type"`
	AggregateID string          `json:"aggregate_id"`
	Payload     json.RawMessage `json:"payload"`
	OccurredAt  time.Time       `json:"occurred_at"`
	PublishedAt *time.Time      `json:"published_at"`
}

// batchJSON renders a batch as the statement's three arguments: the cart and item rows
// as they are (cartRow and itemRow carry the columns' json names; their JSON columns
// travel as text and are cast in the statement), and the events.
func batchJSON(batch []*pendingWrite) (carts, items, evts string, err error) {
	cs := make([]cartRow, 0, len(batch))
	var is []batchItem
	var es []eventJSON
	for _, w := range batch {
		cs = append(cs, w.cart)
		is = append(is, w.items...)
		for _, rec := range w.events {
			ej := eventJSON{CartID: w.cart.ID, ID: rec.ID, Type: rec.Type, AggregateID: rec.AggregateID, Payload: json.RawMessage(rec.Payload), OccurredAt: rec.At}
			if rec.Delivered {
				at := rec.At
				ej.PublishedAt = &at
			}
			es = append(es, ej)
		}
	}
	var raw [3][]byte
	for i, v := range []any{cs, orEmpty(is), orEmpty(es)} {
		if raw[i], err = json.Marshal(v); err != nil {
			return "", "", "", fmt.Errorf("carts: versioned write: %w", err)
		}
	}
	return string(raw[0]), string(raw[1]), string(raw[2]), nil
}

// orEmpty makes a nil slice marshal as [] (not null).
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
		w.items = append(w.items, batchItem{itemRow: ch.row})
	}
	for _, a := range d.added {
		w.items = append(w.items, batchItem{itemRow: a, New: true})
	}
	return w
}
