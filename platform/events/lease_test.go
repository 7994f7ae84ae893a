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
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/testdb"
)

// killableProcess opens another handle on the database, as another process would, and
// returns a kill that closes it (what a killed process's connections do).
func killableProcess(t *testing.T, e *testdb.Engine) (*db.DB, func()) {
	t.Helper()
	return testdb.Connect(t, e.URL, func(c *config.Database) { c.MaxOpenConns = 4 })
}

// leaseTicks is how many events the lease tests publish.
const leaseTicks = 5

// leaseScene publishes leaseTicks tick events and returns the fake clock, a second
// ahead of the wall clock, that the lease tests' relays run on.
func leaseScene(t *testing.T, e *testdb.Engine) *clock.Fake {
	t.Helper()
	publishTicks(t, e.DB, leaseTicks)
	return clock.NewFake(time.Now().Add(time.Second))
}

// publishTicks stores n "tick" events.
func publishTicks(t *testing.T, d *db.DB, n int) {
	t.Helper()
	ob := events.NewOutbox(d)
	if err := d.InTx(context.Background(), func(ctx context.Context) error {
		for i := range n {
			if err := ob.Publish(ctx, "tick", fmt.Sprint(i), map[string]int{"i": i}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// blockingBus counts deliveries and holds every handler call until released.
type blockingBus struct {
	*events.Bus
	calls   atomic.Int64
	entered chan struct{}
	release chan struct{}
	once    sync.Once
}

func newBlockingBus() *blockingBus {
	b := &blockingBus{Bus: events.NewBus(), entered: make(chan struct{}), release: make(chan struct{})}
	b.Subscribe("tick", func(ctx context.Context, _ event.Event) error {
		b.calls.Add(1)
		b.once.Do(func() { close(b.entered) })
		<-b.release
		return nil
	})
	return b
}

func (b *blockingBus) waitEntered(t *testing.T) {
	t.Helper()
	select {
	case <-b.entered:
	case <-time.After(20 * time.Second):
		t.Fatal("the relay never delivered")
	}
}

// TestKilledRelaysRowsAreTakenOver: a process claims a batch and is killed while
// delivering it. Another process's relay delivers the batch once its lease has run out,
// about 10 seconds later, not a minute. The clock is a fake one, so nothing sleeps.
func TestKilledRelaysRowsAreTakenOver(t *testing.T) {
	onEngines(t, func(t *testing.T, f fixture) {
		e, ctx, clk := f.e, context.Background(), leaseScene(t, f.e)
		const total = leaseTicks

		// Process A claims the batch; its handler hangs, then the process dies.
		dying, kill := killableProcess(t, e)
		busA := newBlockingBus()
		t.Cleanup(func() { close(busA.release) })
		relayA := events.NewRelay(dying, busA.Bus, zap.NewNop())
		relayA.Clock = clk
		ctxA, cancelA := context.WithCancel(context.Background())
		go func() { _, _ = relayA.Drain(ctxA) }()
		busA.waitEntered(t)
		cancelA()
		kill()

		// Process B: nothing to take while A's lease holds.
		busB := events.NewBus()
		var delivered sync.Map
		var callsB atomic.Int64
		busB.Subscribe("tick", func(_ context.Context, ev event.Event) error {
			callsB.Add(1)
			delivered.Store(ev.ID, true)
			return nil
		})
		relayB := events.NewRelay(e.DB, busB, zap.NewNop())
		relayB.Clock = clk
		const takeover = 11 * time.Second // the lease (about 10 s) and a poll
		if events.DefaultLease >= takeover {
			t.Fatalf("DefaultLease = %s: a killed process's events would wait that long", events.DefaultLease)
		}
		clk.Advance(events.DefaultLease - time.Second)
		if n, err := relayB.Drain(ctx); err != nil || n != 0 {
			t.Fatalf("relay B before the lease ran out: delivered %d, %v", n, err)
		}
		// 11 seconds after the claim, B delivers every event of the dead batch.
		clk.Advance(takeover - (events.DefaultLease - time.Second))
		if n, err := relayB.Drain(ctx); err != nil || n != total || callsB.Load() != total {
			t.Fatalf("relay B after the lease ran out: published %d (calls %d), %v; want %d", n, callsB.Load(), err, total)
		}
		for _, r := range rows(t, e.DB) {
			if r.PublishedAt == nil || r.Claim != "" || r.LockedUntil != nil {
				t.Fatalf("row after the takeover = %+v", r)
			}
			if _, ok := delivered.Load("evt_" + r.ID); !ok {
				t.Fatalf("event %s not delivered by B", r.ID)
			}
		}
	})
}

// TestLiveRelayRenewsItsLease: a handler that takes longer than the lease does not
// lose its batch to another relay: the live owner keeps renewing the lease, so every
// event is delivered once.
func TestLiveRelayRenewsItsLease(t *testing.T) {
	onEngines(t, func(t *testing.T, f fixture) {
		e, ctx, clk := f.e, context.Background(), leaseScene(t, f.e)
		const total = leaseTicks

		busA := newBlockingBus()
		relayA := events.NewRelay(e.DB, busA.Bus, zap.NewNop())
		relayA.Clock, relayA.Renew = clk, 5*time.Millisecond
		type result struct {
			n   int
			err error
		}
		doneA := make(chan result, 1)
		go func() { n, err := relayA.Drain(ctx); doneA <- result{n, err} }()
		busA.waitEntered(t)

		other := secondProcess(t, e)
		var callsB atomic.Int64
		busB := events.NewBus()
		busB.Subscribe("tick", func(context.Context, event.Event) error { callsB.Add(1); return nil })
		relayB := events.NewRelay(other, busB, zap.NewNop())
		relayB.Clock = clk

		// Twice the lease goes by in steps while A's handler is still busy; after each
		// step A's next renewal moves the lease (nothing waits on wall-clock timing:
		// the test waits for the renewal itself), and B finds nothing to claim.
		step := events.DefaultLease / 2
		for elapsed := step; elapsed <= 2*events.DefaultLease; elapsed += step {
			clk.Advance(step)
			want := clk.Now().Add(events.DefaultLease)
			deadline := time.Now().Add(20 * time.Second)
			for !leasedUntil(t, e.DB, want, total) {
				if time.Now().After(deadline) {
					t.Fatalf("after %s the lease was not renewed to %s: %+v", elapsed, want, rows(t, e.DB))
				}
				time.Sleep(2 * time.Millisecond)
			}
			if n, err := relayB.Drain(ctx); err != nil || n != 0 || callsB.Load() != 0 {
				t.Fatalf("after %s relay B took a live relay's rows: published %d (calls %d), %v", elapsed, n, callsB.Load(), err)
			}
		}

		close(busA.release)
		if r := <-doneA; r.err != nil || r.n != total || busA.calls.Load() != total {
			t.Fatalf("relay A: published %d (calls %d), %v", r.n, busA.calls.Load(), r.err)
		}
		if n, err := relayB.Drain(ctx); err != nil || n != 0 || callsB.Load() != 0 {
			t.Fatalf("relay B after A finished: %d, %v", n, err)
		}
		for _, r := range rows(t, e.DB) {
			if r.PublishedAt == nil || r.Attempts != 1 || r.Claim != "" || r.LockedUntil != nil {
				t.Fatalf("row after delivery = %+v", r)
			}
		}
	})
}

// leasedUntil reports whether all n rows are claimed with a lease reaching at least
// until (give or take the engines' sub-millisecond rounding).
func leasedUntil(t *testing.T, d *db.DB, until time.Time, n int) bool {
	t.Helper()
	count := 0
	for _, r := range rows(t, d) {
		if r.Claim != "" && r.LockedUntil != nil && !r.LockedUntil.Before(until.Add(-time.Millisecond)) {
			count++
		}
	}
	return count == n
}
