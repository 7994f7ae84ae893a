package db

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/tx"
)

// enterAsync starts a waiter and reports on the returned channel once it is admitted
// (nil) or gave up (its error).
func enterAsync(g *gate, ctx context.Context) <-chan error {
	done := make(chan error, 1)
	go func() { done <- g.enter(ctx) }()
	return done
}

// waitQueued waits until the gate holds n waiters.
func waitQueued(t *testing.T, g *gate, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		g.mu.Lock()
		l := len(g.waiting)
		g.mu.Unlock()
		if l == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d waiters queued, want %d", l, n)
		}
		time.Sleep(time.Millisecond)
	}
}

func admitted(t *testing.T, ch <-chan error) {
	t.Helper()
	select {
	case err := <-ch:
		if err != nil {
			t.Fatalf("enter: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("not admitted")
	}
}

func stillWaiting(t *testing.T, chs ...<-chan error) {
	t.Helper()
	for i, ch := range chs {
		select {
		case err := <-ch:
			t.Fatalf("waiter %d returned (%v) while it should wait", i, err)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// At most n hold the gate; the next waits until one leaves.
func TestGateAdmitsAtMostN(t *testing.T) {
	g := newGate(2)
	ctx := context.Background()
	for range 2 {
		if err := g.enter(ctx); err != nil {
			t.Fatal(err)
		}
	}
	third := enterAsync(g, ctx)
	stillWaiting(t, third)
	g.leave()
	admitted(t, third)
	g.leave()
	g.leave()
	if g.free != 2 || len(g.waiting) != 0 {
		t.Fatalf("free %d, waiting %d after every holder left; want 2, 0", g.free, len(g.waiting))
	}
}

// Waiters go in the order their work arrived (tx.WithArrival), not the order they
// asked: a request halfway through goes before one that came after it; waiters
// without an arrival go in the order they asked.
func TestGateServesEarliestArrivalFirst(t *testing.T) {
	g := newGate(1)
	if err := g.enter(context.Background()); err != nil {
		t.Fatal(err)
	}
	base := time.Now().Add(-time.Minute)
	late := enterAsync(g, tx.WithArrival(context.Background(), base.Add(3*time.Second)))
	waitQueued(t, g, 1)
	early := enterAsync(g, tx.WithArrival(context.Background(), base.Add(time.Second)))
	waitQueued(t, g, 2)
	middle := enterAsync(g, tx.WithArrival(context.Background(), base.Add(2*time.Second)))
	waitQueued(t, g, 3)
	none1 := enterAsync(g, context.Background()) // arrives now: after the three
	waitQueued(t, g, 4)
	none2 := enterAsync(g, context.Background())
	waitQueued(t, g, 5)

	for i, next := range []<-chan error{early, middle, late, none1, none2} {
		g.leave()
		admitted(t, next)
		if i < 4 {
			waitQueued(t, g, 4-i)
		}
	}
}

// A waiter whose context ends leaves the queue with the context's error and takes no
// place: the others are served and every place comes back.
func TestGateWaiterThatGivesUp(t *testing.T) {
	g := newGate(1)
	if err := g.enter(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	quitter := enterAsync(g, ctx)
	waitQueued(t, g, 1)
	stayer := enterAsync(g, context.Background())
	waitQueued(t, g, 2)
	cancel()
	select {
	case err := <-quitter:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("quitter: %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("quitter still waiting after its context ended")
	}
	waitQueued(t, g, 1)
	g.leave()
	admitted(t, stayer)
	g.leave()
	if g.free != 1 || len(g.waiting) != 0 {
		t.Fatalf("free %d, waiting %d; want 1, 0", g.free, len(g.waiting))
	}
}

// Many goroutines entering, leaving and giving up at once never hold more than n
// places, and every place comes back (run with -race).
func TestGateUnderContention(t *testing.T) {
	const n, workers, rounds = 3, 24, 200
	g := newGate(n)
	var inside, peak int64
	var mu = make(chan struct{}, 1)
	count := func(d int64) {
		mu <- struct{}{}
		inside += d
		peak = max(peak, inside)
		<-mu
	}
	done := make(chan struct{})
	for w := range workers {
		go func() {
			defer func() { done <- struct{}{} }()
			for r := range rounds {
				ctx, cancel := context.Background(), context.CancelFunc(func() {})
				if (w+r)%5 == 0 {
					ctx, cancel = context.WithTimeout(ctx, time.Duration(r%3)*time.Microsecond)
				}
				if g.enter(ctx) == nil {
					count(1)
					count(-1)
					g.leave()
				}
				cancel()
			}
		}()
	}
	timeout := time.After(30 * time.Second)
	for range workers {
		select {
		case <-done:
		case <-timeout:
			g.mu.Lock()
			defer g.mu.Unlock()
			t.Fatalf("workers stuck: free %d, waiting %d (a place was lost)", g.free, len(g.waiting))
		}
	}
	if peak > n {
		t.Fatalf("%d held the gate at once, want at most %d", peak, n)
	}
	if g.free != n || len(g.waiting) != 0 {
		t.Fatalf("free %d, waiting %d at the end; want %d, 0", g.free, len(g.waiting), n)
	}
}

// Transactions get the pool less the reads' share when that is more than half of it,
// else the whole pool.
func TestTxTurns(t *testing.T) {
	for _, c := range []struct {
		open, reads, want int
	}{{12, 4, 8}, {30, 4, 26}, {8, 4, 8}, {9, 4, 5}, {4, 4, 4}, {2, 2, 2}, {1, 1, 1}, {10, 8, 10}} {
		if got := txTurns(config.Database{MaxOpenConns: c.open, ReadConcurrency: c.reads}); got != c.want {
			t.Errorf("pool %d, reads %d: %d turns, want %d", c.open, c.reads, got, c.want)
		}
	}
}

// A nil gate (SQLite, Wrap) admits everything at once.
func TestNilGateAdmitsEverything(t *testing.T) {
	var g *gate
	for range 100 {
		if err := g.enter(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	g.leave()
}
