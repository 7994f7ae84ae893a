package events_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/testdb"
)

var errBoom = errors.New("boom")

// row is the outbox row as stored.
type row = events.OutboxRow

func rows(t *testing.T, d *db.DB) []row {
	t.Helper()
	var out []row
	if err := d.Gorm().Table("outbox_events").Order("occurred_at, id").Find(&out).Error; err != nil {
		t.Fatalf("read outbox: %v", err)
	}
	return out
}

func rowOf(t *testing.T, d *db.DB, eventType string) row {
	t.Helper()
	var out []row
	if err := d.Gorm().Table("outbox_events").Where("type = ?", eventType).Find(&out).Error; err != nil || len(out) != 1 {
		t.Fatalf("outbox row %s: %d rows, %v", eventType, len(out), err)
	}
	return out[0]
}

func setColumn(t *testing.T, d *db.DB, eventType, column string, value any) {
	t.Helper()
	if err := d.Gorm().Table("outbox_events").Where("type = ?", eventType).Update(column, value).Error; err != nil {
		t.Fatalf("update %s: %v", column, err)
	}
}

// recorder is a subscriber that remembers what it received.
type recorder struct {
	mu     sync.Mutex
	events []event.Event
}

func (r *recorder) handle(_ context.Context, e event.Event) error {
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
	return nil
}

func (r *recorder) got() []event.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]event.Event(nil), r.events...)
}

func types(evs []event.Event) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.Type
	}
	return out
}

func TestPublishFollowsTransaction(t *testing.T) {
	onEngines(t, func(t *testing.T, f fixture) {
		engine, d, ob, ctx := f.engine, f.d, f.ob, context.Background()

		err := d.InTx(ctx, func(ctx context.Context) error {
			if err := ob.Publish(ctx, "cart.created", "c1", map[string]string{"id": "c1"}); err != nil {
				return err
			}
			// (SQLite has one connection, held by this transaction.)
			if engine == "postgres" {
				if n := len(rows(t, d)); n != 0 {
					t.Errorf("uncommitted event visible outside the transaction (%d rows)", n)
				}
			}
			return errBoom
		})
		if !errors.Is(err, errBoom) {
			t.Fatalf("InTx = %v", err)
		}
		if got := rows(t, d); len(got) != 0 {
			t.Fatalf("rolled-back publish left %d outbox rows", len(got))
		}

		// Nested InTx that fails takes the event with it.
		_ = d.InTx(ctx, func(ctx context.Context) error {
			if err := ob.Publish(ctx, "cart.created", "c1", nil); err != nil {
				return err
			}
			return d.InTx(ctx, func(context.Context) error { return errBoom })
		})
		if got := rows(t, d); len(got) != 0 {
			t.Fatalf("nested rollback left %d outbox rows", len(got))
		}

		before := time.Now().UTC().Add(-time.Second)
		if err := d.InTx(ctx, func(ctx context.Context) error {
			if err := ob.Publish(ctx, "cart.created", "c1", map[string]any{"id": "c1", "total": "12.50"}); err != nil {
				return err
			}
			return ob.Publish(ctx, "cart.updated", "c1", map[string]any{"id": "c1"})
		}); err != nil {
			t.Fatalf("commit: %v", err)
		}
		// Without a transaction the event is stored on its own.
		if err := ob.Publish(ctx, "cart.deleted", "c1", map[string]any{"id": "c1"}); err != nil {
			t.Fatalf("publish outside tx: %v", err)
		}
		got := rows(t, d)
		if len(got) != 3 {
			t.Fatalf("outbox has %d rows, want 3", len(got))
		}
		r := got[0]
		if r.Type != "cart.created" || r.AggregateID != "c1" || !ids.Valid(r.ID) || r.PublishedAt != nil || r.Attempts != 0 ||
			r.Claim != "" || r.LockedUntil != nil || r.OccurredAt.Before(before) || r.NextAttemptAt.After(time.Now().Add(time.Second)) {
			t.Fatalf("stored row = %+v", r)
		}
		var payload map[string]any
		if err := json.Unmarshal([]byte(r.Payload), &payload); err != nil || payload["total"] != "12.50" {
			t.Fatalf("payload = %q (%v)", r.Payload, err)
		}

		// Data that cannot be encoded is an error and stores nothing.
		if err := ob.Publish(ctx, "bad", "x", make(chan int)); err == nil || !strings.Contains(err.Error(), "bad") {
			t.Fatalf("unencodable data err = %v", err)
		}
		if n := len(rows(t, d)); n != 3 {
			t.Fatalf("failed publish stored a row (%d rows)", n)
		}
	})
}

func TestDrainDelivers(t *testing.T) {
	onEngines(t, func(t *testing.T, f fixture) {
		d, ob, bus, relay, ctx := f.d, f.ob, f.bus, f.relay, context.Background()
		var products, all, orders recorder
		bus.Subscribe("product.created", products.handle)
		bus.Subscribe("*", all.handle)
		bus.Subscribe("order.paid", orders.handle)

		type product struct {
			ID    string `json:"id"`
			Price string `json:"price"`
		}
		before := time.Now().UTC().Add(-time.Second)
		if err := d.InTx(ctx, func(ctx context.Context) error {
			if err := ob.Publish(ctx, "product.created", "p1", product{ID: "p1", Price: "12.50"}); err != nil {
				return err
			}
			if err := ob.Publish(ctx, "order.paid", "o1", map[string]any{"id": "o1"}); err != nil {
				return err
			}
			return ob.Publish(ctx, "product.created", "p2", product{ID: "p2", Price: "0.99"})
		}); err != nil {
			t.Fatal(err)
		}

		n, err := relay.Drain(ctx)
		if err != nil || n != 3 {
			t.Fatalf("Drain = %d, %v; want 3", n, err)
		}
		stored := rows(t, d)
		gotProducts := products.got()
		if len(gotProducts) != 2 {
			t.Fatalf("product subscriber got %d events, want 2", len(gotProducts))
		}
		for i, want := range []product{{"p1", "12.50"}, {"p2", "0.99"}} {
			e := gotProducts[i]
			var p product
			if err := e.Decode(&p); err != nil || p != want {
				t.Fatalf("event %d data = %s (%v), want %+v", i, e.Data, err, want)
			}
			if e.Type != "product.created" || e.AggregateID != want.ID {
				t.Fatalf("event %d = %+v", i, e)
			}
			id, ok := strings.CutPrefix(e.ID, "evt_")
			if !ok || !ids.Valid(id) {
				t.Fatalf("event id %q is not evt_<uuid>", e.ID)
			}
			if e.CreatedAt.Location() != time.UTC || e.CreatedAt.Before(before) || e.CreatedAt.After(time.Now().Add(time.Second)) {
				t.Fatalf("event created_at = %v", e.CreatedAt)
			}
		}
		if gotProducts[0].ID != "evt_"+stored[0].ID || gotProducts[1].ID != "evt_"+stored[2].ID {
			t.Fatalf("event ids %q %q do not name the outbox rows", gotProducts[0].ID, gotProducts[1].ID)
		}
		if got := types(all.got()); !reflect.DeepEqual(got, []string{"product.created", "order.paid", "product.created"}) {
			t.Fatalf("* subscriber got %v, want every event in order", got)
		}
		if got := orders.got(); len(got) != 1 || got[0].Type != "order.paid" || got[0].AggregateID != "o1" {
			t.Fatalf("order subscriber got %+v", got)
		}

		// The webhook body shape: id, type, data, created_at; no aggregate id.
		raw, err := json.Marshal(gotProducts[0])
		if err != nil {
			t.Fatal(err)
		}
		var body map[string]json.RawMessage
		_ = json.Unmarshal(raw, &body)
		if len(body) != 4 || body["id"] == nil || body["type"] == nil || body["data"] == nil || body["created_at"] == nil {
			t.Fatalf("event JSON = %s", raw)
		}

		for _, r := range stored {
			if r.PublishedAt == nil || r.Attempts != 1 || r.Claim != "" || r.LockedUntil != nil || r.LastError != "" {
				t.Fatalf("delivered row = %+v", r)
			}
		}

		// Nothing is delivered twice.
		if n, err := relay.Drain(ctx); err != nil || n != 0 {
			t.Fatalf("second Drain = %d, %v; want 0", n, err)
		}
		if len(all.got()) != 3 || len(products.got()) != 2 || len(orders.got()) != 1 {
			t.Fatal("second Drain redelivered events")
		}

		// An event without subscribers is published too.
		if err := ob.Publish(ctx, "nobody.listens", "", nil); err != nil {
			t.Fatal(err)
		}
		if n, err := relay.Drain(ctx); err != nil || n != 1 {
			t.Fatalf("Drain unsubscribed = %d, %v", n, err)
		}
		if len(all.got()) != 4 {
			t.Fatal("* subscriber missed an event without specific subscribers")
		}
	})
}

func TestDrainBatches(t *testing.T) {
	onEngines(t, func(t *testing.T, f fixture) {
		d, ob, bus, relay, ctx := f.d, f.ob, f.bus, f.relay, context.Background()
		var all recorder
		bus.Subscribe("*", all.handle)
		relay.Batch = 2
		var want []string
		if err := d.InTx(ctx, func(ctx context.Context) error {
			for i := range 7 {
				id := string(rune('a' + i))
				want = append(want, id)
				if err := ob.Publish(ctx, "seq", id, map[string]string{"id": id}); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if n, err := relay.Drain(ctx); err != nil || n != 7 {
			t.Fatalf("Drain = %d, %v; want 7 across batches", n, err)
		}
		var got []string
		for _, e := range all.got() {
			got = append(got, e.AggregateID)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("delivery order %v, want %v", got, want)
		}
	})
}

func TestDrainRetriesFailures(t *testing.T) {
	onEngines(t, func(t *testing.T, f fixture) {
		d, ob, bus, relay, ctx := f.d, f.ob, f.bus, f.relay, context.Background()
		var (
			mu    sync.Mutex
			fail  = true
			calls = map[string]int{}
		)
		flaky := func(_ context.Context, e event.Event) error {
			mu.Lock()
			defer mu.Unlock()
			calls[e.Type]++
			if fail {
				return errBoom
			}
			return nil
		}
		callsOf := func(typ string) int {
			mu.Lock()
			defer mu.Unlock()
			return calls[typ]
		}
		bus.Subscribe("flaky", flaky)
		bus.Subscribe("dead", flaky)
		var fine recorder
		bus.Subscribe("fine", fine.handle)
		relay.MaxAttempts = 2

		if err := d.InTx(ctx, func(ctx context.Context) error {
			for _, typ := range []string{"flaky", "fine", "dead"} {
				if err := ob.Publish(ctx, typ, "a1", map[string]string{"t": typ}); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}

		start := time.Now().UTC()
		n, err := relay.Drain(ctx)
		if err != nil || n != 1 {
			t.Fatalf("Drain = %d, %v; want 1 (a failing handler does not block others)", n, err)
		}
		if len(fine.got()) != 1 || callsOf("flaky") != 1 || callsOf("dead") != 1 {
			t.Fatalf("calls: fine %d, flaky %d, dead %d", len(fine.got()), callsOf("flaky"), callsOf("dead"))
		}
		r := rowOf(t, d, "flaky")
		if r.PublishedAt != nil || r.Attempts != 1 || r.Claim != "" || r.LockedUntil != nil ||
			!strings.Contains(r.LastError, "boom") || !strings.Contains(r.LastError, "flaky") {
			t.Fatalf("failed row = %+v", r)
		}
		// First retry after 2 s (2^1).
		if !r.NextAttemptAt.After(start.Add(time.Second)) || r.NextAttemptAt.After(time.Now().Add(3*time.Second)) {
			t.Fatalf("next_attempt_at = %v, want about %v", r.NextAttemptAt, start.Add(2*time.Second))
		}

		// An immediate Drain does not redeliver.
		if n, err := relay.Drain(ctx); err != nil || n != 0 || callsOf("flaky") != 1 || callsOf("dead") != 1 {
			t.Fatalf("immediate Drain = %d, %v; flaky calls %d", n, err, callsOf("flaky"))
		}

		// Due again and still failing: the backoff doubles.
		past := time.Now().UTC().Add(-time.Second)
		setColumn(t, d, "flaky", "next_attempt_at", past)
		setColumn(t, d, "dead", "next_attempt_at", past)
		start = time.Now().UTC()
		if n, err := relay.Drain(ctx); err != nil || n != 0 || callsOf("flaky") != 2 || callsOf("dead") != 2 {
			t.Fatalf("second attempt Drain = %d, %v; flaky %d dead %d", n, err, callsOf("flaky"), callsOf("dead"))
		}
		r = rowOf(t, d, "flaky")
		if r.Attempts != 2 || r.PublishedAt != nil || !r.NextAttemptAt.After(start.Add(3*time.Second)) || r.NextAttemptAt.After(time.Now().Add(5*time.Second)) {
			t.Fatalf("after second failure row = %+v", r)
		}

		// MaxAttempts (2) reached: never tried again, even when due and healthy.
		mu.Lock()
		fail = false
		mu.Unlock()
		setColumn(t, d, "flaky", "next_attempt_at", past)
		setColumn(t, d, "dead", "next_attempt_at", past)
		if n, err := relay.Drain(ctx); err != nil || n != 0 || callsOf("dead") != 2 || callsOf("flaky") != 2 {
			t.Fatalf("Drain past MaxAttempts = %d, %v; dead calls %d", n, err, callsOf("dead"))
		}

		// With room for another attempt, a later success marks the event published.
		relay.MaxAttempts = 10
		if n, err := relay.Drain(ctx); err != nil || n != 2 || callsOf("flaky") != 3 || callsOf("dead") != 3 {
			t.Fatalf("recovering Drain = %d, %v; flaky %d dead %d", n, err, callsOf("flaky"), callsOf("dead"))
		}
		r = rowOf(t, d, "flaky")
		if r.PublishedAt == nil || r.Attempts != 3 || r.Claim != "" || r.LockedUntil != nil {
			t.Fatalf("recovered row = %+v", r)
		}
		if n, err := relay.Drain(ctx); err != nil || n != 0 || callsOf("flaky") != 3 {
			t.Fatalf("Drain after success = %d, %v", n, err)
		}
	})
}

// TestDrainRecoversHandlerPanic: a panicking subscriber is a failed delivery, not a
// crashed relay (and so not a crash loop when the lease expires after a restart).
func TestDrainRecoversHandlerPanic(t *testing.T) {
	onEngines(t, func(t *testing.T, f fixture) {
		d, ob, bus, relay, ctx := f.d, f.ob, f.bus, f.relay, context.Background()
		var after recorder
		bus.Subscribe("poison", func(context.Context, event.Event) error { panic("nil map") })
		bus.Subscribe("poison", after.handle)
		if err := ob.Publish(ctx, "poison", "x", map[string]int{"n": 1}); err != nil {
			t.Fatal(err)
		}
		n, err := relay.Drain(ctx)
		if err != nil || n != 0 {
			t.Fatalf("Drain = %d, %v", n, err)
		}
		if len(after.got()) != 1 {
			t.Fatal("a panicking handler stopped the next handler")
		}
		r := rowOf(t, d, "poison")
		if r.PublishedAt != nil || r.Attempts != 1 || r.LockedUntil != nil || !strings.Contains(r.LastError, "panic") || !strings.Contains(r.LastError, "nil map") {
			t.Fatalf("row after panic = %+v", r)
		}
	})
}

func TestDrainRespectsLease(t *testing.T) {
	onEngines(t, func(t *testing.T, f fixture) {
		d, ob, bus, relay, ctx := f.d, f.ob, f.bus, f.relay, context.Background()
		var all recorder
		bus.Subscribe("*", all.handle)
		if err := ob.Publish(ctx, "leased", "x", nil); err != nil {
			t.Fatal(err)
		}
		// Another process holds the lease.
		setColumn(t, d, "leased", "claim", ids.New())
		setColumn(t, d, "leased", "locked_until", time.Now().UTC().Add(time.Minute))
		if n, err := relay.Drain(ctx); err != nil || n != 0 || len(all.got()) != 0 {
			t.Fatalf("Drain under a live lease = %d, %v (%d delivered)", n, err, len(all.got()))
		}
		// That process died: once the lease expires the event is delivered here.
		setColumn(t, d, "leased", "locked_until", time.Now().UTC().Add(-time.Second))
		if n, err := relay.Drain(ctx); err != nil || n != 1 || len(all.got()) != 1 {
			t.Fatalf("Drain after lease expiry = %d, %v", n, err)
		}
		if r := rowOf(t, d, "leased"); r.PublishedAt == nil || r.Claim != "" || r.LockedUntil != nil {
			t.Fatalf("row = %+v", r)
		}
	})
}

// Prune removes delivered events older than the cutoff and keeps pending ones.
func TestPrune(t *testing.T) {
	onEngines(t, func(t *testing.T, f fixture) {
		d, ob, bus, relay, ctx := f.d, f.ob, f.bus, f.relay, context.Background()
		failing := errors.New("not yet")
		bus.Subscribe("b", func(context.Context, event.Event) error { return failing })
		for _, typ := range []string{"a", "a", "b"} {
			if err := ob.Publish(ctx, typ, "x", map[string]any{}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := relay.Drain(ctx); err != nil {
			t.Fatal(err)
		}
		if n, err := relay.Prune(ctx, time.Now().UTC().Add(-time.Hour)); err != nil || n != 0 {
			t.Fatalf("prune of recent events = %d, %v", n, err)
		}
		n, err := relay.Prune(ctx, time.Now().UTC().Add(time.Hour))
		if err != nil || n != 2 {
			t.Fatalf("prune = %d, %v; want the 2 delivered", n, err)
		}
		if left := rows(t, d); len(left) != 1 || left[0].Type != "b" {
			t.Fatalf("left: %+v", left)
		}
	})
}

// TestRoutedOutboxStoresUnhandledEventsDelivered: once routed to a bus, the outbox still
// stores every event, but one of a type nobody subscribed to is stored delivered, so
// the relay has nothing to claim for it; subscribed types stay pending until delivered.
func TestRoutedOutboxStoresUnhandledEventsDelivered(t *testing.T) {
	onEngines(t, func(t *testing.T, f fixture) {
		d, ob, bus, relay, ctx := f.d, f.ob, f.bus, f.relay, context.Background()
		var orders recorder
		bus.Subscribe("order.paid", orders.handle)
		ob.Route(bus)
		if err := d.InTx(ctx, func(ctx context.Context) error {
			if err := ob.Publish(ctx, "cart.item_added", "c1", map[string]any{"id": "c1"}); err != nil {
				return err
			}
			return ob.Publish(ctx, "order.paid", "o1", map[string]any{"id": "o1"})
		}); err != nil {
			t.Fatal(err)
		}
		if r := rowOf(t, d, "cart.item_added"); r.PublishedAt == nil || !r.PublishedAt.Equal(r.OccurredAt) || r.Attempts != 0 {
			t.Errorf("unsubscribed event: published_at %v, occurred_at %v, attempts %d", r.PublishedAt, r.OccurredAt, r.Attempts)
		}
		if r := rowOf(t, d, "order.paid"); r.PublishedAt != nil {
			t.Errorf("subscribed event stored delivered before the relay ran: %v", r.PublishedAt)
		}
		if n, err := relay.Drain(ctx); err != nil || n != 1 {
			t.Fatalf("Drain = %d, %v; want 1 (the subscribed event only)", n, err)
		}
		if got := orders.got(); len(got) != 1 || got[0].Type != "order.paid" {
			t.Fatalf("order subscriber got %v", got)
		}
		if r := rowOf(t, d, "order.paid"); r.PublishedAt == nil {
			t.Error("subscribed event not marked delivered")
		}

		// A subscription to every type makes every event pending.
		bus.Subscribe("*", func(context.Context, event.Event) error { return nil })
		if err := ob.Publish(ctx, "cart.item_removed", "c1", map[string]any{"id": "c1"}); err != nil {
			t.Fatal(err)
		}
		if r := rowOf(t, d, "cart.item_removed"); r.PublishedAt != nil {
			t.Errorf("event with a catch-all subscriber stored delivered")
		}
	})
}

// In a transaction the events are inserted together just before the commit: in the
// order published, also those a before-commit function publishes, more than one INSERT
// holds, and none when the flush fails (the transaction rolls back with its change).
func TestPublishInTransactionStoresAtCommit(t *testing.T) {
	onEngines(t, func(t *testing.T, f fixture) {
		engine, d, ob, ctx := f.engine, f.d, f.ob, context.Background()

		const n = 1203 // more than one INSERT's rows
		if err := d.InTx(ctx, func(ctx context.Context) error {
			for i := range n {
				if err := ob.Publish(ctx, "item.added", "c1", map[string]int{"i": i}); err != nil {
					return err
				}
			}
			// A before-commit function registered now runs after the events' flush
			// and may publish: its event is stored too.
			d.BeforeCommit(ctx, func(ctx context.Context) error {
				return ob.Publish(ctx, "cart.checked", "c1", nil)
			})
			if engine == "postgres" && len(rows(t, d)) != 0 {
				t.Error("events visible before the commit")
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		got := rows(t, d)
		if len(got) != n+1 || got[n].Type != "cart.checked" {
			t.Fatalf("stored %d rows (last %+v), want %d", len(got), got[len(got)-1], n+1)
		}
		for i := range n {
			var p map[string]int
			if err := json.Unmarshal([]byte(got[i].Payload), &p); err != nil || p["i"] != i {
				t.Fatalf("row %d holds %s: events out of order", i, got[i].Payload)
			}
		}

		// A flush that fails fails the transaction: nothing of it is stored.
		dup := got[0].ID
		err := d.InTx(ctx, func(ctx context.Context) error {
			if err := ob.Publish(ctx, "ok", "c2", nil); err != nil {
				return err
			}
			return events.Store(ctx, d, events.Record{ID: ids.New(), Type: "raw", AggregateID: "c2", Payload: "{}", At: time.Now()})
		})
		if err != nil {
			t.Fatal(err)
		}
		err = d.InTx(ctx, func(ctx context.Context) error {
			if err := events.Store(ctx, d, events.Record{ID: ids.New(), Type: "raw2", AggregateID: "c3", Payload: "{}", At: time.Now()}); err != nil {
				return err
			}
			d.BeforeCommit(ctx, func(ctx context.Context) error {
				return events.Store(ctx, d, events.Record{ID: dup, Type: "dup", AggregateID: "c3", Payload: "{}", At: time.Now()})
			})
			return ob.Publish(ctx, "lost", "c3", nil)
		})
		if err == nil {
			t.Fatal("a failing before-commit insert committed")
		}
		if all := rows(t, d); len(all) != n+3 {
			t.Fatalf("after the failed commit: %d rows, want %d", len(all), n+3)
		}
	})
}

// fixture is one engine's fresh outbox database (e; d is e.DB) with an outbox, a bus
// and a relay on them.
type fixture struct {
	engine string
	e      *testdb.Engine
	d      *db.DB
	ob     *events.Outbox
	bus    *events.Bus
	relay  *events.Relay
}

// onEngines runs f on every engine, in parallel, each on a fresh fixture.
func onEngines(t *testing.T, f func(t *testing.T, f fixture)) {
	for _, engine := range testdb.Engines() {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			e := testdb.Open(t, engine, events.Migrations())
			bus := events.NewBus()
			f(t, fixture{engine: engine, e: e, d: e.DB, ob: events.NewOutbox(e.DB), bus: bus, relay: events.NewRelay(e.DB, bus, zap.NewNop())})
		})
	}
}
