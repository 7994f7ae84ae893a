package db

import (
	"container/heap"
	"context"
	"sync"
	"time"

	"github.com/gocommerce/commerce/platform/tx"
)

// gate admits at most n holders at once. Its waiters are served in the order of their
// work's arrival (tx.Arrival: an HTTP request's start), else of their call: a
// request's second transaction goes before the first of a request that came after it.
// database/sql hands a freed connection to a random waiter instead, and a request that
// takes a connection four times draws four times (docs/decisions/0237).
type gate struct {
	mu      sync.Mutex
	free    int
	seq     uint64
	waiting waiters
}

func newGate(n int) *gate { return &gate{free: n} }

type waiter struct {
	at      time.Time
	seq     uint64
	ready   chan struct{}
	index   int // in the heap; -1 once admitted
	granted bool
}

// waiters is a min-heap by (at, seq).
type waiters []*waiter

func (w waiters) Len() int { return len(w) }
func (w waiters) Less(i, j int) bool {
	if !w[i].at.Equal(w[j].at) {
		return w[i].at.Before(w[j].at)
	}
	return w[i].seq < w[j].seq
}
func (w waiters) Swap(i, j int) {
	w[i], w[j] = w[j], w[i]
	w[i].index, w[j].index = i, j
}
func (w *waiters) Push(x any) {
	it := x.(*waiter)
	it.index = len(*w)
	*w = append(*w, it)
}
func (w *waiters) Pop() any {
	old := *w
	it := old[len(old)-1]
	old[len(old)-1] = nil
	it.index = -1
	*w = old[:len(old)-1]
	return it
}

// enter waits for a place until ctx ends (its error then); the caller calls leave once
// it is done. A nil gate admits everything (SQLite, Wrap).
func (g *gate) enter(ctx context.Context) error {
	if g == nil {
		return nil
	}
	g.mu.Lock()
	if g.free > 0 && len(g.waiting) == 0 {
		g.free--
		g.mu.Unlock()
		return nil
	}
	at, ok := tx.Arrival(ctx)
	if !ok {
		at = time.Now()
	}
	g.seq++
	w := &waiter{at: at, seq: g.seq, ready: make(chan struct{})}
	heap.Push(&g.waiting, w)
	g.mu.Unlock()
	select {
	case <-w.ready:
		return nil
	case <-ctx.Done():
		g.mu.Lock()
		if w.granted { // admitted as ctx ended: pass the place on
			g.mu.Unlock()
			g.leave()
		} else {
			heap.Remove(&g.waiting, w.index)
			g.mu.Unlock()
		}
		return ctx.Err()
	}
}

// leave gives a place back: to the waiter that arrived first, if any.
func (g *gate) leave() {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.waiting) == 0 {
		g.free++
		return
	}
	w := heap.Pop(&g.waiting).(*waiter)
	w.granted = true
	close(w.ready)
}
