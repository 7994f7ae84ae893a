package clock_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/clock"
)

// Every calls f once a period, not at once, and returns when ctx ends.
func TestEvery(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var n atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		clock.Every(ctx, 5*time.Millisecond, func(context.Context) {
			if n.Add(1) == 3 {
				cancel()
			}
		})
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Every did not return after ctx ended")
	}
	if got := n.Load(); got != 3 {
		t.Fatalf("calls = %d, want 3", got)
	}
	n.Store(0)
	clock.Every(ctx, time.Millisecond, func(context.Context) { n.Add(1) }) // ctx already ended
	if n.Load() != 0 {
		t.Fatal("Every called f after ctx ended")
	}
}

func TestUTCPtr(t *testing.T) {
	if clock.UTCPtr(nil) != nil {
		t.Fatal("UTCPtr(nil) is not nil")
	}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("X", 3600))
	if got := clock.UTCPtr(&at); got == nil || !got.Equal(at) || got.Location() != time.UTC {
		t.Fatalf("UTCPtr = %v", got)
	}
}
