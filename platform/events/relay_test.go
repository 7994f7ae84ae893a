package events_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/zap"
	"gorm.io/gorm"

	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/testdb"
)

// secondProcess opens another handle on the same database, as another process would.
func secondProcess(t *testing.T, e *testdb.Engine) *db.DB {
	t.Helper()
	d, _ := testdb.Connect(t, e.URL, nil)
	return d
}

// TestTwoRelaysDeliverExactlyOnce runs two processes' relays (two goroutines each) on one
// outbox table at once: the lease claim must hand every event to exactly one of them.
func TestTwoRelaysDeliverExactlyOnce(t *testing.T) {
	onEngines(t, func(t *testing.T, f fixture) {
		e, ob, ctx := f.e, f.ob, context.Background()
		handles := []*db.DB{e.DB, secondProcess(t, e)}

		const total = 300
		if err := e.DB.InTx(ctx, func(ctx context.Context) error {
			for i := range total {
				if err := ob.Publish(ctx, "tick", fmt.Sprint(i), map[string]int{"i": i}); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}

		var (
			mu        sync.Mutex
			delivered = map[string]int{}
			byProcess [2]int
			done      atomic.Int64
		)
		start := make(chan struct{})
		var wg sync.WaitGroup
		errs := make(chan error, 4)
		for p, h := range handles {
			bus := events.NewBus()
			bus.Subscribe("tick", func(_ context.Context, ev event.Event) error {
				mu.Lock()
				delivered[ev.ID]++
				byProcess[p]++
				mu.Unlock()
				done.Add(1)
				return nil
			})
			relay := events.NewRelay(h, bus, zap.NewNop())
			relay.Batch = 7
			for range 2 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					deadline := time.Now().Add(15 * time.Second)
					for done.Load() < total && time.Now().Before(deadline) {
						if _, err := relay.Drain(ctx); err != nil {
							errs <- err
							return
						}
					}
				}()
			}
		}
		close(start)
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatalf("Drain: %v", err)
		}

		if len(delivered) != total {
			t.Fatalf("%d distinct events delivered, want %d", len(delivered), total)
		}
		for id, n := range delivered {
			if n != 1 {
				t.Fatalf("event %s delivered %d times", id, n)
			}
		}
		t.Logf("process 1 delivered %d, process 2 delivered %d", byProcess[0], byProcess[1])
		for _, r := range rows(t, e.DB) {
			if r.PublishedAt == nil || r.Attempts != 1 || r.Claim != "" || r.LockedUntil != nil {
				t.Fatalf("row after concurrent drain = %+v", r)
			}
		}
	})
}

// TestStaleCandidateIsNotClaimed: a relay whose candidate list went stale while another
// process failed the event must not claim it again before its backoff has passed.
func TestStaleCandidateIsNotClaimed(t *testing.T) {
	onEngines(t, func(t *testing.T, f fixture) {
		e, ctx := f.e, context.Background()
		other := secondProcess(t, e)
		if err := events.NewOutbox(e.DB).Publish(ctx, "flaky", "x", nil); err != nil {
			t.Fatal(err)
		}

		// Process A: its handler fails.
		busA := events.NewBus()
		var callsA, callsB atomic.Int64
		busA.Subscribe("flaky", func(context.Context, event.Event) error { callsA.Add(1); return errBoom })
		relayA := events.NewRelay(e.DB, busA, zap.NewNop())

		// Process B: pauses right before its claim statement.
		busB := events.NewBus()
		busB.Subscribe("flaky", func(context.Context, event.Event) error { callsB.Add(1); return nil })
		relayB := events.NewRelay(other, busB, zap.NewNop())
		paused, resume := make(chan struct{}), make(chan struct{})
		var once sync.Once
		if err := other.Gorm().Callback().Row().Before("gorm:row").Register("test:pause", func(*gorm.DB) {
			once.Do(func() { close(paused); <-resume })
		}); err != nil {
			t.Fatal(err)
		}

		resB := make(chan int, 1)
		go func() {
			n, err := relayB.Drain(ctx)
			if err != nil {
				t.Errorf("relay B: %v", err)
			}
			resB <- n
		}()
		select {
		case <-paused:
		case <-time.After(10 * time.Second):
			t.Fatal("relay B never tried to claim")
		}
		// While B holds a stale candidate list, A delivers and fails the event.
		if n, err := relayA.Drain(ctx); err != nil || n != 0 || callsA.Load() != 1 {
			t.Fatalf("relay A Drain = %d, %v (calls %d)", n, err, callsA.Load())
		}
		close(resume)
		if n := <-resB; n != 0 || callsB.Load() != 0 {
			t.Fatalf("relay B redelivered a failed event before its backoff (published %d, calls %d)", n, callsB.Load())
		}
		if r := rowOf(t, e.DB, "flaky"); r.Attempts != 1 || r.PublishedAt != nil || r.Claim != "" || r.LockedUntil != nil {
			t.Fatalf("row = %+v", r)
		}
	})
}

// TestRunWakesOnCommit: with a one-hour poll interval, an event committed while Run
// is idle is still delivered at once, because the commit hook wakes the relay.
func TestRunWakesOnCommit(t *testing.T) {
	onEngines(t, func(t *testing.T, f fixture) {
		d, ob, bus, relay := f.d, f.ob, f.bus, f.relay
		got := make(chan event.Event, 10)
		bus.Subscribe("*", func(_ context.Context, e event.Event) error { got <- e; return nil })
		relay.Interval = time.Hour

		bg := context.Background()
		// Stored without a transaction, so no commit hook: only Run's first drain sees it.
		if err := ob.Publish(bg, "ready", "", nil); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(bg)
		defer cancel()
		stopped := make(chan struct{})
		go func() { relay.Run(ctx); close(stopped) }()

		expect := func(typ string) {
			t.Helper()
			select {
			case e := <-got:
				if e.Type != typ {
					t.Fatalf("delivered %s, want %s", e.Type, typ)
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("%s not delivered within 5s (poll interval is 1h)", typ)
			}
		}
		expect("ready")

		for _, typ := range []string{"order.created", "order.paid"} {
			// Commits only wake the relay after the outermost transaction.
			if err := d.InTx(bg, func(ctx context.Context) error {
				return d.InTx(ctx, func(ctx context.Context) error { return ob.Publish(ctx, typ, "o1", map[string]string{"id": "o1"}) })
			}); err != nil {
				t.Fatal(err)
			}
			expect(typ)
		}
		// A rolled-back event never arrives; the next commit's does.
		_ = d.InTx(bg, func(ctx context.Context) error {
			_ = ob.Publish(ctx, "rolled.back", "o1", nil)
			return errBoom
		})
		if err := d.InTx(bg, func(ctx context.Context) error { return ob.Publish(ctx, "after", "o1", nil) }); err != nil {
			t.Fatal(err)
		}
		expect("after")

		cancel()
		select {
		case <-stopped:
		case <-time.After(5 * time.Second):
			t.Fatal("Run did not return after cancel")
		}
		select {
		case e := <-got:
			t.Fatalf("unexpected extra delivery %s", e.Type)
		default:
		}
	})
}

// TestRunFinishesTheBatchInFlightOnStop: Run's context ends (SIGTERM) while a handler
// is running. The handler's context is not cancelled, and the batch it belongs to is
// recorded as handled, so no other process delivers those events to the consumer again
// once the lease runs out.
func TestRunFinishesTheBatchInFlightOnStop(t *testing.T) {
	onEngines(t, func(t *testing.T, f fixture) {
		ob, bus, relay := f.ob, f.bus, f.relay
		bg := context.Background()
		for i := range 3 {
			if err := ob.Publish(bg, "slow", fmt.Sprint(i), nil); err != nil {
				t.Fatal(err)
			}
		}
		started, release := make(chan struct{}), make(chan struct{})
		var calls atomic.Int64
		var handlerErr atomic.Value
		bus.Subscribe("slow", func(ctx context.Context, _ event.Event) error {
			if calls.Add(1) == 2 {
				close(started)
				<-release
			}
			if err := ctx.Err(); err != nil {
				handlerErr.Store(err)
				return err
			}
			return nil
		})
		ctx, cancel := context.WithCancel(bg)
		stopped := make(chan struct{})
		go func() { relay.Run(ctx); close(stopped) }()
		select {
		case <-started:
		case <-time.After(10 * time.Second):
			t.Fatal("the second event was never handled")
		}
		cancel() // the stop arrives while the batch's second handler runs
		close(release)
		select {
		case <-stopped:
		case <-time.After(10 * time.Second):
			t.Fatal("Run did not return after its batch")
		}
		if err := handlerErr.Load(); err != nil {
			t.Fatalf("a handler of the batch in flight saw its context end: %v", err)
		}
		if n := calls.Load(); n != 3 {
			t.Fatalf("%d handler calls, want the whole batch of 3", n)
		}
		for _, r := range rows(t, f.d) {
			if r.PublishedAt == nil || r.Attempts != 1 || r.Claim != "" || r.LockedUntil != nil {
				t.Fatalf("row after a graceful stop = %+v; want delivered and released", r)
			}
		}
	})
}

// TestClaimWalksThePendingOrder: the claim reads the pending events in (occurred_at, id)
// order through idx_outbox_pending_order and stops at its batch. Planned on statistics
// taken while the outbox was empty (a relay behind a burst of events has exactly
// these), it must not read every due pending event and sort them, which costs the
// whole backlog on every claim (decision 0238).
func TestClaimWalksThePendingOrder(t *testing.T) {
	onEngines(t, func(t *testing.T, f fixture) {
		if f.engine != "postgres" {
			t.Skip("PostgreSQL's planner")
		}
		ctx := context.Background()
		if err := f.d.Gorm().Exec("ANALYZE outbox_events").Error; err != nil {
			t.Fatal(err)
		}
		if err := f.d.InTx(ctx, func(ctx context.Context) error {
			for i := range 3000 {
				if err := f.ob.Publish(ctx, "tick", fmt.Sprint(i), map[string]int{"i": i}); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		f.bus.Subscribe("tick", func(context.Context, event.Event) error { return nil })
		plan, err := f.relay.ExplainClaim(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(plan, "idx_outbox_pending_order") || strings.Contains(plan, "Sort") {
			t.Fatalf("the claim does not walk idx_outbox_pending_order in order:\n%s", plan)
		}
	})
}

// TestIdleRelayDoesNotWakeItself: the claim's own transaction (PostgreSQL) does not run
// the commit hooks, so an idle relay does not wake itself to claim again, and again:
// half a second of Run with an hour's poll interval and nothing to deliver runs no
// commit hook at all.
func TestIdleRelayDoesNotWakeItself(t *testing.T) {
	onEngines(t, func(t *testing.T, f fixture) {
		var hooks atomic.Int64
		f.d.OnCommit(func() { hooks.Add(1) })
		f.bus.Subscribe("*", func(context.Context, event.Event) error { return nil })
		f.relay.Interval = time.Hour
		ctx, cancel := context.WithCancel(context.Background())
		stopped := make(chan struct{})
		go func() { f.relay.Run(ctx); close(stopped) }()
		time.Sleep(500 * time.Millisecond)
		cancel()
		<-stopped
		if n := hooks.Load(); n != 0 {
			t.Fatalf("an idle relay ran the commit hooks %d times in 500 ms", n)
		}
	})
}

// TestOnlyPendingEventsWakeTheRelay: the relay is woken by the commit of events it has
// to deliver, not by every commit: a transaction without events, or whose events
// nobody wants (stored delivered), runs no commit hook; one with a pending event runs
// it once, after its commit (and an autocommitted one at once).
func TestOnlyPendingEventsWakeTheRelay(t *testing.T) {
	onEngines(t, func(t *testing.T, f fixture) {
		ctx := context.Background()
		var hooks atomic.Int64
		f.d.OnCommit(func() { hooks.Add(1) })
		f.bus.Subscribe("wanted", func(context.Context, event.Event) error { return nil })
		f.ob.Route(f.bus)
		step := func(name string, want int64, fn func(ctx context.Context) error) {
			t.Helper()
			before := hooks.Load()
			if err := fn(ctx); err != nil {
				t.Fatal(err)
			}
			if got := hooks.Load() - before; got != want {
				t.Fatalf("%s: %d commit hooks, want %d", name, got, want)
			}
		}
		step("a transaction without events", 0, func(ctx context.Context) error {
			return f.d.InTx(ctx, func(context.Context) error { return nil })
		})
		step("a transaction whose event nobody wants", 0, func(ctx context.Context) error {
			return f.d.InTx(ctx, func(ctx context.Context) error { return f.ob.Publish(ctx, "unwanted", "a", nil) })
		})
		step("a transaction with a pending event", 1, func(ctx context.Context) error {
			return f.d.InTx(ctx, func(ctx context.Context) error {
				if err := f.ob.Publish(ctx, "wanted", "a", nil); err != nil {
					return err
				}
				if hooks.Load() != 0 {
					t.Error("the relay was woken before the commit")
				}
				return nil
			})
		})
		step("a rolled-back pending event", 0, func(ctx context.Context) error {
			err := f.d.InTx(ctx, func(ctx context.Context) error {
				if err := f.ob.Publish(ctx, "wanted", "a", nil); err != nil {
					return err
				}
				return errBoom
			})
			if errors.Is(err, errBoom) {
				return nil
			}
			return err
		})
		step("an autocommitted pending event", 1, func(ctx context.Context) error { return f.ob.Publish(ctx, "wanted", "b", nil) })
	})
}
