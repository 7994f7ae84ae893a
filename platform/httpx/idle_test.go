package httpx

import "testing"

// The trim is due once after start-up and once per idle period: not while requests
// arrive, once after they stop, and not again until the next busy period ends.
func TestIdleTrimmer(t *testing.T) {
	t.Parallel()
	var tr idleTrimmer
	steps := []struct {
		requests int
		due      bool
		what     string
	}{
		{0, true, "idle after start-up"},
		{0, false, "still idle"},
		{3, false, "busy"},
		{1, false, "busy"},
		{0, true, "idle after a busy period"},
		{0, false, "still idle"},
		{0, false, "still idle"},
		{1, false, "busy again"},
		{0, true, "idle after the next busy period"},
	}
	for i, s := range steps {
		for range s.requests {
			tr.seen()
		}
		if got := tr.due(); got != s.due {
			t.Fatalf("tick %d (%s): due = %v, want %v", i, s.what, got, s.due)
		}
	}
}
