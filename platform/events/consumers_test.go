package events_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/events"
)

// counter counts the deliveries of each event to one consumer of one process.
type counter struct {
	mu  sync.Mutex
	got map[string]int // event id → deliveries
	typ map[string]string
}

func newCounter() *counter { return &counter{got: map[string]int{}, typ: map[string]string{}} }

func (c *counter) handle(_ context.Context, e event.Event) error {
	c.mu.Lock()
	c.got[e.ID]++
	c.typ[e.ID] = e.Type
	c.mu.Unlock()
	return nil
}

// of returns how many times the consumer got the event of the type (its only one).
func (c *counter) of(eventType string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for id, t := range c.typ {
		if t == eventType {
			n += c.got[id]
		}
	}
	return n
}

func (c *counter) total() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, k := range c.got {
		n += k
	}
	return n
}

// process is one process of the application: its own database handle, bus, outbox
// routed to its relay, and a clock.
type process struct {
	db     *db.DB
	bus    *events.Bus
	outbox *events.Outbox
	relay  *events.Relay
}

func newProcess(d *db.DB, clk clock.Clock, subscribe func(b *events.Bus)) *process {
	p := &process{db: d, bus: events.NewBus(), outbox: events.NewOutbox(d)}
	subscribe(p.bus)
	p.relay = events.NewRelay(d, p.bus, zap.NewNop())
	p.relay.Clock = clk
	p.outbox.Route(p.relay)
	return p
}

func (p *process) publish(t *testing.T, eventType, aggregate string) {
	t.Helper()
	if err := p.db.InTx(context.Background(), func(ctx context.Context) error {
		return p.outbox.Publish(ctx, eventType, aggregate, map[string]string{"id": aggregate})
	}); err != nil {
		t.Fatal(err)
	}
}

func (p *process) register(t *testing.T) {
	t.Helper()
	if err := p.relay.Register(context.Background()); err != nil {
		t.Fatalf("Register: %v", err)
	}
}

func (p *process) drain(t *testing.T) int {
	t.Helper()
	n, err := p.relay.Drain(context.Background())
	if err != nil {
		t.Fatalf("Drain: %v", err)
	}
	return n
}

// storedDelivered reports whether the event was stored already delivered (the cheap
// path: never claimed, never marked).
func storedDelivered(r row) bool {
	return r.PublishedAt != nil && r.PublishedAt.Equal(r.OccurredAt) && r.Attempts == 0 && r.Claim == ""
}

// A rolling deploy: an old process (customers only) and a new one that adds a webhooks
// consumer share the database. Events the old process writes of a type only webhooks
// wants are stored pending and reach webhooks; an event both want is handled once by
// each consumer and marked delivered only when both have; a type nobody anywhere wants
// is still stored delivered.
func TestNewSubscriberGetsTheOldProcessesEvents(t *testing.T) {
	onEngines(t, func(t *testing.T, f fixture) {
		e := f.e
		clk := clock.NewFake(time.Now().Add(10 * time.Second)) // ahead of the events' times: they are due
		oldCustomers, newCustomers, webhooks := newCounter(), newCounter(), newCounter()
		old := newProcess(e.DB, clk, func(b *events.Bus) {
			b.Consumer("customers").Subscribe("order.created", oldCustomers.handle)
		})
		cur := newProcess(secondProcess(t, e), clk, func(b *events.Bus) {
			b.Consumer("customers").Subscribe("order.created", newCustomers.handle)
			b.Consumer("webhooks").Subscribe("order.created", webhooks.handle)
			b.Consumer("webhooks").Subscribe("cart.item_added", webhooks.handle)
		})
		cur.register(t)
		old.register(t)

		old.publish(t, "order.created", "o1")
		old.publish(t, "cart.item_added", "c1")
		old.publish(t, "nobody.cares", "n1")
		if r := rowOf(t, e.DB, "cart.item_added"); r.PublishedAt != nil {
			t.Fatalf("an event the new process's webhooks want was stored delivered by the old process: %+v", r)
		}
		if r := rowOf(t, e.DB, "nobody.cares"); !storedDelivered(r) {
			t.Fatalf("an event nobody wants is not stored delivered: %+v", r)
		}

		// The old relay handles its part only and does not mark the event delivered.
		if n := old.drain(t); n != 1 || oldCustomers.of("order.created") != 1 || webhooks.total() != 0 {
			t.Fatalf("old relay: handled %d, customers %d, webhooks %d", n, oldCustomers.of("order.created"), webhooks.total())
		}
		if r := rowOf(t, e.DB, "order.created"); r.PublishedAt != nil || r.Claim != "" || r.LockedUntil != nil {
			t.Fatalf("the old relay marked an event delivered that webhooks has not had: %+v", r)
		}
		if n := old.drain(t); n != 0 || oldCustomers.of("order.created") != 1 {
			t.Fatalf("old relay again: handled %d, customers %d", n, oldCustomers.of("order.created"))
		}

		// The new relay delivers both to webhooks, and order.created not again to
		// customers (the old process's customers handled it).
		if n := cur.drain(t); n != 2 || webhooks.of("order.created") != 1 || webhooks.of("cart.item_added") != 1 || newCustomers.total() != 0 {
			t.Fatalf("new relay: handled %d, webhooks %d/%d, its customers %d", n,
				webhooks.of("order.created"), webhooks.of("cart.item_added"), newCustomers.total())
		}
		for _, typ := range []string{"order.created", "cart.item_added"} {
			if r := rowOf(t, e.DB, typ); r.PublishedAt == nil || r.Claim != "" || r.LockedUntil != nil {
				t.Fatalf("%s not marked delivered once every consumer had it: %+v", typ, r)
			}
		}

		// The new process writes too: its events reach each consumer once, whichever
		// relay runs first.
		cur.publish(t, "order.created", "o2")
		if n := cur.drain(t); n != 1 {
			t.Fatalf("new relay on its own event: %d", n)
		}
		if n := old.drain(t); n != 0 {
			t.Fatalf("old relay after the new one delivered everything: %d", n)
		}
		if got := oldCustomers.of("order.created") + newCustomers.of("order.created"); got != 2 || webhooks.of("order.created") != 2 {
			t.Fatalf("order.created deliveries: customers %d, webhooks %d; want 2 each", got, webhooks.of("order.created"))
		}
		for _, p := range []*process{old, cur} {
			if n := p.drain(t); n != 0 {
				t.Fatalf("a relay found more to do: %d", n)
			}
		}
		if oldCustomers.total()+newCustomers.total() != 2 || webhooks.total() != 3 {
			t.Fatalf("deliveries: customers %d, webhooks %d; want 2 and 3", oldCustomers.total()+newCustomers.total(), webhooks.total())
		}
	})
}

// Both processes' relays drain a stream of events at once: every consumer gets every
// event it wants exactly once, and every event ends delivered.
func TestMixedVersionsDeliverOncePerConsumer(t *testing.T) {
	onEngines(t, func(t *testing.T, f fixture) {
		e, ctx := f.e, context.Background()
		clk := clock.NewFake(time.Now().Add(10 * time.Second)) // ahead of the events' times: they are due
		customers, webhooks := newCounter(), newCounter()
		old := newProcess(e.DB, clk, func(b *events.Bus) {
			b.Consumer("customers").Subscribe("order.created", customers.handle)
		})
		cur := newProcess(secondProcess(t, e), clk, func(b *events.Bus) {
			b.Consumer("customers").Subscribe("order.created", customers.handle)
			b.Consumer("webhooks").Subscribe("*", webhooks.handle)
		})
		cur.register(t)
		old.register(t)
		const total = 120
		for i := range total {
			p, typ := old, "order.created"
			if i%2 == 1 {
				p = cur
			}
			if i%3 == 0 {
				typ = "cart.item_added"
			}
			if err := p.outbox.Publish(ctx, typ, fmt.Sprint(i), map[string]int{"i": i}); err != nil {
				t.Fatal(err)
			}
		}
		var wg sync.WaitGroup
		var failed atomic.Value
		deadline := time.Now().Add(20 * time.Second)
		old.relay.Batch, cur.relay.Batch = 7, 7
		for _, p := range []*process{old, cur, old, cur} { // two relay loops per process
			wg.Add(1)
			go func() {
				defer wg.Done()
				for webhooks.total() < total && time.Now().Before(deadline) {
					if _, err := p.relay.Drain(ctx); err != nil {
						failed.Store(err)
						return
					}
				}
			}()
		}
		wg.Wait()
		if err := failed.Load(); err != nil {
			t.Fatalf("Drain: %v", err)
		}
		wantCustomers := 0
		for i := range total {
			if i%3 != 0 {
				wantCustomers++
			}
		}
		for id, n := range webhooks.got {
			if n != 1 {
				t.Fatalf("webhooks got %s %d times", id, n)
			}
		}
		for id, n := range customers.got {
			if n != 1 {
				t.Fatalf("customers got %s %d times", id, n)
			}
		}
		if len(webhooks.got) != total || len(customers.got) != wantCustomers {
			t.Fatalf("webhooks got %d events (want %d), customers %d (want %d)", len(webhooks.got), total, len(customers.got), wantCustomers)
		}
		for _, r := range rows(t, e.DB) {
			if r.PublishedAt == nil || r.Claim != "" || r.LockedUntil != nil {
				t.Fatalf("row after both relays drained = %+v", r)
			}
		}
	})
}

// A process that loaded the registry before the new consumer registered stores the
// consumer's events delivered until its next load; CatchUp after the registration the
// new process re-opens them and the consumer receives them, and nobody else receives
// anything twice. A registry older than 3×Refresh is not trusted: events are stored
// pending until the next load.
func TestNewConsumerCatchesUpOnEventsStoredBeforeEveryoneKnewIt(t *testing.T) {
	onEngines(t, func(t *testing.T, f fixture) {
		e := f.e
		clk := clock.NewFake(time.Now().Add(10 * time.Second)) // ahead of the events' times: they are due
		customers, webhooks := newCounter(), newCounter()
		old := newProcess(e.DB, clk, func(b *events.Bus) {
			b.Consumer("customers").Subscribe("order.created", customers.handle)
		})
		old.register(t) // before webhooks exists anywhere
		cur := newProcess(secondProcess(t, e), clk, func(b *events.Bus) {
			b.Consumer("customers").Subscribe("order.created", customers.handle)
			b.Consumer("webhooks").Subscribe("cart.item_added", webhooks.handle)
			b.Consumer("webhooks").Subscribe("order.created", webhooks.handle)
		})
		cur.register(t)

		// The old process does not know webhooks yet.
		old.publish(t, "cart.item_added", "c1")
		if r := rowOf(t, e.DB, "cart.item_added"); !storedDelivered(r) {
			t.Fatalf("expected the stale registry to store the event delivered: %+v", r)
		}
		// Its relay still cannot mark order.created delivered without webhooks: the
		// marking statement reads the registry itself.
		old.publish(t, "order.created", "o1")
		if n := old.drain(t); n != 1 || customers.of("order.created") != 1 {
			t.Fatalf("old relay: %d, customers %d", n, customers.of("order.created"))
		}
		if r := rowOf(t, e.DB, "order.created"); r.PublishedAt != nil {
			t.Fatalf("the old relay marked order.created delivered before webhooks had it: %+v", r)
		}
		if n := cur.drain(t); n != 1 || webhooks.of("order.created") != 1 || webhooks.of("cart.item_added") != 0 {
			t.Fatalf("new relay: %d, webhooks order %d, cart %d", n, webhooks.of("order.created"), webhooks.of("cart.item_added"))
		}

		// Before CatchUp nothing is re-opened; after it, the new process re-opens the
		// event and its relay delivers it, once.
		clk.Advance(time.Minute)
		cur.register(t)
		if r := rowOf(t, e.DB, "cart.item_added"); r.PublishedAt == nil {
			t.Fatal("re-opened before CatchUp")
		}
		clk.Advance(events.DefaultCatchUp)
		old.register(t) // the old process learns about webhooks; only the new one catches up
		if r := rowOf(t, e.DB, "cart.item_added"); r.PublishedAt == nil {
			t.Fatal("a process without the consumer ran its catch-up")
		}
		cur.register(t)
		if r := rowOf(t, e.DB, "cart.item_added"); r.PublishedAt != nil {
			t.Fatalf("not re-opened for the new consumer: %+v", r)
		}
		if n := old.drain(t); n != 0 {
			t.Fatalf("the old relay took the re-opened event: %d", n)
		}
		if n := cur.drain(t); n != 1 || webhooks.of("cart.item_added") != 1 {
			t.Fatalf("after the catch-up: %d, webhooks cart %d", n, webhooks.of("cart.item_added"))
		}
		// The catch-up runs once; nothing is delivered twice.
		clk.Advance(events.DefaultCatchUp)
		cur.register(t)
		for _, p := range []*process{old, cur} {
			if n := p.drain(t); n != 0 {
				t.Fatalf("more deliveries after the catch-up: %d", n)
			}
		}
		if customers.total() != 1 || webhooks.total() != 2 {
			t.Fatalf("deliveries: customers %d, webhooks %d; want 1 and 2", customers.total(), webhooks.total())
		}
		for _, r := range rows(t, e.DB) {
			if r.PublishedAt == nil {
				t.Fatalf("row left pending: %+v", r)
			}
		}

		// Now both know webhooks. A registry older than 3×Refresh is not trusted.
		old.register(t)
		old.publish(t, "nobody.cares", "n1")
		if r := rowOf(t, e.DB, "nobody.cares"); !storedDelivered(r) {
			t.Fatalf("fresh registry, unwanted type: %+v", r)
		}
		clk.Advance(3*events.DefaultRefresh + time.Second)
		old.publish(t, "nobody.cares.either", "n2")
		if r := rowOf(t, e.DB, "nobody.cares.either"); r.PublishedAt != nil {
			t.Fatalf("a stale registry stored an event delivered: %+v", r)
		}
		// A relay settles it: nobody waits for it.
		if n := old.drain(t); n != 1 {
			t.Fatalf("settling the pending unwanted event: %d", n)
		}
		if r := rowOf(t, e.DB, "nobody.cares.either"); r.PublishedAt == nil || customers.total() != 1 || webhooks.total() != 2 {
			t.Fatalf("unwanted event after the drain: %+v", r)
		}
	})
}

// When every process with a consumer is gone for ConsumerExpiry, events no longer wait
// for it: a relay marks them delivered and writers store them delivered again.
func TestExpiredConsumerNoLongerHoldsEvents(t *testing.T) {
	onEngines(t, func(t *testing.T, f fixture) {
		e := f.e
		clk := clock.NewFake(time.Now().Add(10 * time.Second)) // ahead of the events' times: they are due
		webhooks := newCounter()
		gone := newProcess(secondProcess(t, e), clk, func(b *events.Bus) {
			b.Consumer("webhooks").Subscribe("cart.item_added", webhooks.handle)
		})
		gone.register(t)
		old := newProcess(e.DB, clk, func(b *events.Bus) {
			b.Consumer("customers").Subscribe("order.created", func(context.Context, event.Event) error { return nil })
		})
		old.register(t)
		old.publish(t, "cart.item_added", "c1")
		if n := old.drain(t); n != 0 {
			t.Fatalf("the old relay took an event webhooks waits for: %d", n)
		}
		// The webhooks process stopped (no more registrations); the old one keeps
		// registering.
		for elapsed := time.Duration(0); elapsed <= events.DefaultConsumerExpiry; elapsed += events.DefaultRefresh * 2 {
			clk.Advance(events.DefaultRefresh * 2)
			old.register(t)
		}
		if n := old.drain(t); n != 1 {
			t.Fatalf("after the expiry the relay did not settle the event: %d", n)
		}
		if r := rowOf(t, e.DB, "cart.item_added"); r.PublishedAt == nil || webhooks.total() != 0 {
			t.Fatalf("row %+v, webhooks %d", r, webhooks.total())
		}
		old.publish(t, "cart.item_added", "c2")
		var rs []row
		for _, r := range rows(t, e.DB) {
			if r.AggregateID == "c2" {
				rs = append(rs, r)
			}
		}
		if len(rs) != 1 || !storedDelivered(rs[0]) {
			t.Fatalf("after the expiry the event is not stored delivered: %+v", rs)
		}
	})
}

// Consumer names are stored in lists matched with LIKE: no separators or wildcards.
func TestConsumerNames(t *testing.T) {
	b := events.NewBus()
	for _, name := range []string{"customers", "web-hooks.v2", "a1"} {
		b.Consumer(name).Subscribe("x", func(context.Context, event.Event) error { return nil })
	}
	for _, bad := range []string{"", "Customers", "a,b", "a_b", "a%", "-a", "a b"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("consumer name %q accepted", bad)
				}
			}()
			b.Consumer(bad)
		}()
	}
	if !b.Handles("x") || b.Handles("y") {
		t.Error("Handles")
	}
}
