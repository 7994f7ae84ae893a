package httpx

import (
	"context"
	"runtime/debug"
	"sync/atomic"
	"time"
)

// idleTrimAfter is how long the server must see no request before it gives the memory
// its last busy moment left behind back to the operating system; idleTick is how often
// it looks.
// It outlasts the short-lived caches (the carts module's copies of recently written
// carts live at most 3 s), so what they held is returned too.
const (
	idleTrimAfter = 4 * time.Second
	idleTick      = time.Second
)

// idleTrimmer returns freed heap to the OS once the server goes idle. The Go runtime's
// background scavenger does this too, but slowly (it keeps about the last GC cycle's
// heap goal), so an idle server would otherwise keep its peak footprint for minutes.
// One forced collection per idle period costs nothing a client can notice.
//
// While idle it also collects at GOGC=50 at most: the process sets a high GOGC for
// throughput under load (cmd/commerce), and with it the garbage of background work
// (the outbox relay, usage flushes) would grow the heap to several times the live
// data before the next collection. The previous GOGC is restored with the first
// request after the idle period (at the next tick).
type idleTrimmer struct {
	requests atomic.Int64
	last     int64     // the count at the previous tick (run's goroutine only)
	since    time.Time // when the count last moved (or the trimmer started)
	trimmed  bool      // trimmed since the count last moved
	idled    bool      // idle was the last call (run's goroutine only)
}

// idleGCPercent is the GOGC of an idle server (a lower one set by the operator stays).
// An idle server's heap grows only with background work (a few statements a second),
// so collecting at half the live heap instead of all of it costs no measurable CPU; it
// keeps about 3 MB less resident after a busy period (4 MB more of heap headroom at
// GOGC=100 with the ~9 MB live after `make bench`'s seeding; docs/performance.md).
// The first request after the idle period restores the GOGC from before (next tick).
const idleGCPercent = 50

// seen counts a request.
func (t *idleTrimmer) seen() { t.requests.Add(1) }

// due is called on every tick: true once the count has not moved for idleTrimAfter,
// if no trim happened since it last moved. Start-up counts as a busy period (loading
// the OpenAPI document and the like leaves garbage too).
func (t *idleTrimmer) due(now time.Time) bool {
	if t.since.IsZero() {
		t.since = now
	}
	n := t.requests.Load()
	if n != t.last {
		t.last, t.since, t.trimmed = n, now, false
		return false
	}
	if t.trimmed || now.Sub(t.since) < idleTrimAfter {
		return false
	}
	t.trimmed = true
	return true
}

// step is one tick: idle when the server has just become idle (due), busy on the first
// tick with requests after that.
func (t *idleTrimmer) step(now time.Time) (idle, busy bool) {
	if t.due(now) {
		t.idled = true
		return true, false
	}
	if t.idled && !t.trimmed {
		t.idled = false
		return false, true
	}
	return false, false
}

// run calls idle and busy as step says, until ctx ends (busy then too, if idle was the
// last call, so the GOGC is left as it was found).
func (t *idleTrimmer) run(ctx context.Context, ticks <-chan time.Time, idle, busy func()) {
	for {
		select {
		case <-ctx.Done():
			if t.idled {
				busy()
			}
			return
		case now := <-ticks:
			switch i, b := t.step(now); {
			case i:
				idle()
			case b:
				busy()
			}
		}
	}
}

// gcTuner is the production idle/busy pair: at idle, a lower GOGC and a forced
// collection that returns freed memory to the OS; when busy again, the GOGC from
// before.
type gcTuner struct{ saved int }

func (g *gcTuner) idle() {
	g.saved = debug.SetGCPercent(idleGCPercent)
	if g.saved < idleGCPercent { // lower, or off (negative): the operator's choice stays
		debug.SetGCPercent(g.saved)
	}
	debug.FreeOSMemory()
}

func (g *gcTuner) busy() { debug.SetGCPercent(g.saved) }
