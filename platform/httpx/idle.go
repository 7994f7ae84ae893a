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
const (
	idleTrimAfter = 2 * time.Second
	idleTick      = time.Second
)

// idleTrimmer returns freed heap to the OS once the server goes idle. The Go runtime's
// background scavenger does this too, but slowly (it keeps about the last GC cycle's
// heap goal), so an idle server would otherwise keep its peak footprint for minutes.
// One forced collection per idle period costs nothing a client can notice.
type idleTrimmer struct {
	requests atomic.Int64
	last     int64     // the count at the previous tick (run's goroutine only)
	since    time.Time // when the count last moved (or the trimmer started)
	trimmed  bool      // trimmed since the count last moved
}

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

// run trims whenever due, until ctx ends.
func (t *idleTrimmer) run(ctx context.Context, ticks <-chan time.Time, trim func()) {
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-ticks:
			if t.due(now) {
				trim()
			}
		}
	}
}

// freeOSMemory is the production trim.
func freeOSMemory() { debug.FreeOSMemory() }
