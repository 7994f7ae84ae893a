package httpx

import (
	"runtime/debug"
	"testing"
	"time"
)

// The trim is due once the server has been idle for idleTrimAfter after start-up and
// after every busy period: not while requests arrive, not before the idle time has
// passed, and only once per idle period; the first tick with requests after it is
// reported as busy once.
func TestIdleTrimmer(t *testing.T) {
	t.Parallel()
	var tr idleTrimmer
	start := time.Unix(1_700_000_000, 0)
	steps := []struct {
		at         time.Duration // since start
		requests   int           // arriving before this tick
		idle, busy bool
		what       string
	}{
		{0, 0, false, false, "start-up"},
		{time.Second, 0, false, false, "idle, not long enough"},
		{idleTrimAfter - time.Second, 0, false, false, "idle, still not long enough"},
		{idleTrimAfter, 0, true, false, "idle after start-up"},
		{idleTrimAfter + time.Second, 0, false, false, "still idle"},
		{idleTrimAfter + 2*time.Second, 3, false, true, "busy: the GOGC goes back"},
		{idleTrimAfter + 3*time.Second, 1, false, false, "still busy"},
		{idleTrimAfter + 4*time.Second, 0, false, false, "idle for a second"},
		{2*idleTrimAfter + 2*time.Second, 0, false, false, "idle, not long enough"},
		{2*idleTrimAfter + 3*time.Second, 0, true, false, "idle after a busy period"},
		{2*idleTrimAfter + 4*time.Second, 0, false, false, "still idle"},
		{2*idleTrimAfter + 5*time.Second, 1, false, true, "busy again"},
		{10 * idleTrimAfter, 0, true, false, "idle after the next busy period"},
	}
	for i, s := range steps {
		for range s.requests {
			tr.seen()
		}
		if idle, busy := tr.step(start.Add(s.at)); idle != s.idle || busy != s.busy {
			t.Fatalf("tick %d (%s): idle, busy = %v, %v; want %v, %v", i, s.what, idle, busy, s.idle, s.busy)
		}
	}
}

// gcTuner lowers GOGC to idleGCPercent while idle and restores it, but never raises a lower
// setting or turns a disabled collector on.
func TestGCTuner(t *testing.T) {
	// Not parallel: it changes the process's GOGC.
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for _, before := range []int{400, 100, idleGCPercent, 25, -1} {
		debug.SetGCPercent(before)
		g := &gcTuner{}
		g.idle()
		want := min(before, idleGCPercent)
		if got := debug.SetGCPercent(want); got != want {
			t.Fatalf("GOGC %d: %d while idle, want %d", before, got, want)
		}
		g.busy()
		if got := debug.SetGCPercent(before); got != before {
			t.Fatalf("GOGC %d: %d when busy again", before, got)
		}
	}
}
