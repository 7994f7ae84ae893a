package events_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/events"
)

// The backlog counts pending events, events given up, and the age of the oldest
// pending one, and /metrics exports them.
func TestBacklog(t *testing.T) {
	onEngines(t, func(t *testing.T, f fixture) {
		ctx := context.Background()
		b, err := f.relay.Backlog(ctx)
		if err != nil || b != (events.Backlog{}) {
			t.Fatalf("empty outbox: %+v, %v", b, err)
		}
		if err := f.d.InTx(ctx, func(ctx context.Context) error {
			for i := range 3 {
				if err := f.ob.Publish(ctx, "tick", fmt.Sprint(i), map[string]int{"i": i}); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		// One event given up: past the relay's attempts.
		if err := f.d.Gorm().Exec("UPDATE outbox_events SET attempts = ? WHERE aggregate_id = '0'", f.relay.MaxAttempts).Error; err != nil {
			t.Fatal(err)
		}
		f.relay.Clock = clock.NewFake(time.Now().Add(time.Minute))
		b, err = f.relay.Backlog(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if b.Pending != 2 || b.Failed != 1 || b.Oldest < 59*time.Second || b.Oldest > 2*time.Minute {
			t.Fatalf("backlog %+v, want 2 pending, 1 failed, about a minute old", b)
		}
		reg := prometheus.NewRegistry()
		reg.MustRegister(f.relay.Collector())
		families, err := reg.Gather()
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]float64{}
		for _, mf := range families {
			got[mf.GetName()] = mf.GetMetric()[0].GetGauge().GetValue()
		}
		if got["commerce_outbox_pending_events"] != 2 || got["commerce_outbox_failed_events"] != 1 || got["commerce_outbox_oldest_pending_age_seconds"] < 59 {
			t.Fatalf("exported %v", got)
		}
	})
}
