package events_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/event"
)

// batchLog records, in order, the per-event calls ("each <type>") and the batch calls
// ("batch <type> <type>…") of one consumer; fail makes the batch handler fail.
type batchLog struct {
	mu    sync.Mutex
	calls []string
	fail  bool
}

func (l *batchLog) each(_ context.Context, e event.Event) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = append(l.calls, "each "+e.Type)
	return nil
}

func (l *batchLog) batch(_ context.Context, es []event.Event) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	types := make([]string, len(es))
	for i, e := range es {
		types[i] = e.Type
	}
	l.calls = append(l.calls, "batch "+strings.Join(types, " "))
	if l.fail {
		return errBoom
	}
	return nil
}

func (l *batchLog) take() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := strings.Join(l.calls, "; ")
	l.calls = nil
	return out
}

func (l *batchLog) setFail(fail bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.fail = fail
}

// TestDrainBatchHandler: a consumer's batch handler gets the batch's events of its types
// in one call, in order, after the consumer's per-event handlers; when it fails, every
// one of those events is retried for that consumer only, and Dispatch gives it one
// event at a time.
func TestDrainBatchHandler(t *testing.T) {
	onEngines(t, func(t *testing.T, f fixture) {
		d, ob, bus, relay, ctx := f.d, f.ob, f.bus, f.relay, context.Background()
		var a batchLog
		var other recorder
		bus.Consumer("a").Subscribe("cart.x", a.each)
		bus.Consumer("a").SubscribeBatch([]string{"cart.x", "cart.y"}, a.batch)
		bus.Consumer("b").Subscribe("cart.x", other.handle)

		publish := func(types ...string) {
			t.Helper()
			if err := d.InTx(ctx, func(ctx context.Context) error {
				for _, typ := range types {
					if err := ob.Publish(ctx, typ, "c1", map[string]string{"t": typ}); err != nil {
						return err
					}
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		}
		publish("cart.x", "cart.z", "cart.y", "cart.x")
		if n, err := relay.Drain(ctx); err != nil || n != 4 {
			t.Fatalf("Drain = %d, %v; want 4", n, err)
		}
		if got, want := a.take(), "each cart.x; each cart.x; batch cart.x cart.y cart.x"; got != want {
			t.Fatalf("consumer a calls = %q, want %q", got, want)
		}
		if len(other.got()) != 2 {
			t.Fatalf("consumer b got %d events, want 2", len(other.got()))
		}

		// A failing batch: its events stay pending for consumer a (b's delivery is kept),
		// and are retried together once due.
		if err := d.Gorm().Exec("DELETE FROM outbox_events").Error; err != nil {
			t.Fatal(err)
		}
		a.setFail(true)
		publish("cart.y", "cart.x")
		if n, err := relay.Drain(ctx); err != nil || n != 0 {
			t.Fatalf("Drain with a failing batch = %d, %v; want 0 published", n, err)
		}
		if got, want := a.take(), "each cart.x; batch cart.y cart.x"; got != want {
			t.Fatalf("consumer a calls = %q, want %q", got, want)
		}
		for _, typ := range []string{"cart.x", "cart.y"} {
			r := rowOf(t, d, typ)
			if r.PublishedAt != nil || r.Attempts != 1 || !strings.Contains(r.LastError, "batch handler of a") || strings.Contains(r.DeliveredTo, ",a,") {
				t.Fatalf("%s after a failed batch = %+v", typ, r)
			}
		}
		if r := rowOf(t, d, "cart.x"); !strings.Contains(r.DeliveredTo, ",b,") {
			t.Fatalf("cart.x delivered_to = %q, want b recorded", r.DeliveredTo)
		}
		a.setFail(false)
		past := time.Now().UTC().Add(-time.Second)
		setColumn(t, d, "cart.x", "next_attempt_at", past)
		setColumn(t, d, "cart.y", "next_attempt_at", past)
		if n, err := relay.Drain(ctx); err != nil || n != 2 {
			t.Fatalf("retry Drain = %d, %v; want 2", n, err)
		}
		if got, want := a.take(), "each cart.x; batch cart.y cart.x"; got != want {
			t.Fatalf("consumer a calls on retry = %q, want %q", got, want)
		}
		if len(other.got()) != 3 {
			t.Fatalf("consumer b got %d events, want 3 (not redelivered on a's retry)", len(other.got()))
		}

		// Dispatch (one event, no relay) runs the batch handler with that event alone.
		if err := bus.Dispatch(ctx, event.Event{ID: "evt_1", Type: "cart.y"}); err != nil {
			t.Fatal(err)
		}
		if got, want := a.take(), "batch cart.y"; got != want {
			t.Fatalf("Dispatch calls = %q, want %q", got, want)
		}
	})
}
