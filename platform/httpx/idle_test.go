package httpx

import (
	"testing"
	"time"
)

// The trim is due once the server has been idle for idleTrimAfter after start-up and
// after every busy period: not while requests arrive, not before the idle time has
// passed, and only once per idle period.
func TestIdleTrimmer(t *testing.T) {
	t.Parallel()
	var tr idleTrimmer
	start := time.Unix(1_700_000_000, 0)
	steps := []struct {
		at       time.Duration // since start
		requests int           // arriving before this tick
		due      bool
		what     string
	}{
		{0, 0, false, "start-up"},
		{time.Second, 0, false, "idle, not long enough"},
		{2 * time.Second, 0, true, "idle after start-up"},
		{3 * time.Second, 0, false, "still idle"},
		{4 * time.Second, 3, false, "busy"},
		{5 * time.Second, 1, false, "busy"},
		{6 * time.Second, 0, false, "idle for a second"},
		{7 * time.Second, 0, true, "idle after a busy period"},
		{8 * time.Second, 0, false, "still idle"},
		{9 * time.Second, 1, false, "busy again"},
		{20 * time.Second, 0, true, "idle after the next busy period"},
	}
	for i, s := range steps {
		for range s.requests {
			tr.seen()
		}
		if got := tr.due(start.Add(s.at)); got != s.due {
			t.Fatalf("tick %d (%s): due = %v, want %v", i, s.what, got, s.due)
		}
	}
}
