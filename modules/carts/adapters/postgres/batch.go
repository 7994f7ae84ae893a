package postgres

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

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
	carts, items, evts := batchJSON(batch)
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
	written := make(map[string]bool, len(batch))
	var id string
	err := k.db.ExecQuery(ctx, batchSQL, []any{carts, items, evts, cartIDs, orEmpty(itemIDs)}, []any{&id}, func() error {
		written[id] = true
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("carts: versioned write: %w", err)
	}
	return written, nil
}

// batchJSON renders a batch as the statement's three JSON arguments: the cart rows,
// the item rows (marked new or not) and the events (with their cart, for the join).
// The rows are written by hand, member by member, with the names of the statement's
// recordsets (the json tags of cartRow and itemRow); decimals travel as strings and the
// JSON columns (coupons, custom_attributes) as text cast in the statement. An event's
// payload is already JSON (events.Record). encoding/json's reflection over these rows
// was 5 % of an add's CPU (docs/performance.md, finding 12); TestBatchJSON compares
// the output with encoding/json's.
func batchJSON(batch []*pendingWrite) (carts, items, evts string) {
	buf := make([]byte, 0, 1024*len(batch))
	buf = append(buf, '[')
	for _, w := range batch {
		buf = appendCartRow(jsonw.Elem(buf), &w.cart)
	}
	carts, buf = string(append(buf, ']')), append(buf[:0], '[')
	for _, w := range batch {
		for j := range w.items {
			buf = appendItemRow(jsonw.Elem(buf), &w.items[j].itemRow, w.items[j].New)
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

func appendCartRow(b []byte, r *cartRow) []byte {
	b = append(b, '{')
	b = jsonw.String(jsonw.Key(b, "id"), r.ID)
	b = jsonw.StringPtr(jsonw.Key(b, "customer_id"), r.CustomerID)
	b = jsonw.StringPtr(jsonw.Key(b, "session_token_hash"), r.SessionTokenHash)
	b = jsonw.String(jsonw.Key(b, "currency"), r.Currency)
	b = jsonw.String(jsonw.Key(b, "status"), r.Status)
	b = jsonw.String(jsonw.Key(b, "email"), r.Email)
	b = jsonw.String(jsonw.Key(b, "shipping_method"), r.ShippingMethod)
	b = jsonw.String(jsonw.Key(b, "notes"), r.Notes)
	b = jsonw.String(jsonw.Key(b, "coupons"), r.Coupons)
	b = jsonw.Decimal(jsonw.Key(b, "subtotal"), r.Subtotal)
	b = jsonw.Decimal(jsonw.Key(b, "discount_total"), r.DiscountTotal)
	b = jsonw.Decimal(jsonw.Key(b, "shipping_before_discount"), r.ShippingBeforeDiscount)
	b = jsonw.Decimal(jsonw.Key(b, "shipping_total"), r.ShippingTotal)
	b = jsonw.Int(jsonw.Key(b, "item_count"), r.ItemCount)
	b = jsonw.StringPtr(jsonw.Key(b, "converted_order_id"), r.ConvertedOrderID)
	b = jsonw.StringPtr(jsonw.Key(b, "merged_into_id"), r.MergedIntoID)
	b = jsonw.Time(jsonw.Key(b, "expires_at"), r.ExpiresAt)
	b = jsonw.Time(jsonw.Key(b, "created_at"), r.CreatedAt)
	b = jsonw.Time(jsonw.Key(b, "updated_at"), r.UpdatedAt)
	b = strconv.AppendInt(jsonw.Key(b, "version"), r.Version, 10)
	b = jsonw.Time(jsonw.Key(b, "expiry_hour"), r.ExpiryHour)
	return append(b, '}')
}

func appendItemRow(b []byte, r *itemRow, isNew bool) []byte {
	b = append(b, '{')
	b = jsonw.String(jsonw.Key(b, "id"), r.ID)
	b = jsonw.String(jsonw.Key(b, "cart_id"), r.CartID)
	b = jsonw.String(jsonw.Key(b, "product_id"), r.ProductID)
	b = jsonw.String(jsonw.Key(b, "variant_id"), r.VariantID)
	b = jsonw.Int(jsonw.Key(b, "quantity"), r.Quantity)
	b = jsonw.Decimal(jsonw.Key(b, "unit_price"), r.UnitPrice)
	b = jsonw.Decimal(jsonw.Key(b, "original_price"), r.OriginalPrice)
	b = jsonw.Decimal(jsonw.Key(b, "discount_amount"), r.DiscountAmount)
	b = jsonw.String(jsonw.Key(b, "sku"), r.SKU)
	b = jsonw.String(jsonw.Key(b, "title"), r.Title)
	b = jsonw.String(jsonw.Key(b, "variant_title"), r.VariantTitle)
	b = jsonw.String(jsonw.Key(b, "image_url"), r.ImageURL)
	b = jsonw.Bool(jsonw.Key(b, "requires_shipping"), r.RequiresShipping)
	b = jsonw.Bool(jsonw.Key(b, "is_gift_card"), r.IsGiftCard)
	b = jsonw.String(jsonw.Key(b, "custom_attributes"), r.CustomAttributes)
	b = jsonw.String(jsonw.Key(b, "attributes_hash"), r.AttributesHash)
	b = jsonw.Time(jsonw.Key(b, "created_at"), r.CreatedAt)
	b = jsonw.Time(jsonw.Key(b, "updated_at"), r.UpdatedAt)
	b = jsonw.Bool(jsonw.Key(b, "new"), isNew)
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
		w.items = append(w.items, batchItem{itemRow: ch.row})
	}
	for _, a := range d.added {
		w.items = append(w.items, batchItem{itemRow: a, New: true})
	}
	return w
}
