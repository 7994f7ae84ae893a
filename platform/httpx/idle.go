package httpx

import (
	"context"
	"runtime/debug"
	"sync/atomic"
	"time"
)

// idleTrimAfter is how long the server must see no request before it gives the memory
// its last busy moment left behind back to the operating system.
const idleTrimAfter = 5 * time.Second

// idleTrimmer returns freed heap to the OS once the server goes idle. The Go runtime's
// background scavenger does this too, but slowly (it keeps about the last GC cycle's
// heap goal), so an idle server would otherwise keep its peak footprint for minutes.
// One forced collection per idle period costs nothing a client can notice.
type idleTrimmer struct {
	requests atomic.Int64
	last     int64 // the count at the previous tick (run's goroutine only)
	trimmed  bool  // trimmed since the count last changed
}

// seen counts a request.
func (t *idleTrimmer) seen() { t.requests.Add(1) }

// due is called on every tick: true once the count has not moved for a whole tick, if
// no trim happened since it last moved. The first idle tick after start-up counts too
// (start-up work such as loading the OpenAPI document leaves garbage).
func (t *idleTrimmer) due() bool {
	n := t.requests.Load()
	if n != t.last {
		t.last, t.trimmed = n, false
		return false
	}
	if t.trimmed {
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
		case <-ticks:
			if t.due() {
				trim()
			}
		}
	}
}

// freeOSMemory is the production trim.
func freeOSMemory() { debug.FreeOSMemory() }
