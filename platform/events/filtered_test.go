package events_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/gocommerce/commerce/platform/event"
)

// TestFilteredCatchAll: a subscriber to every event with a filter (webhooks: the types
// its endpoints want) makes only the wanted types pending; the others are stored
// delivered, through the relay's routing too (its registry entry does not stand for
// every type), and a wanted event reaches the handler.
func TestFilteredCatchAll(t *testing.T) {
	onEngines(t, func(t *testing.T, f fixture) {
		d, ob, bus, relay, ctx := f.d, f.ob, f.bus, f.relay, context.Background()
		var wantOrders atomic.Bool
		var got recorder
		bus.Consumer("hooks").(event.FilteredSubscriber).SubscribeFiltered(func(t string) bool {
			return wantOrders.Load() && t == "order.paid"
		}, got.handle)
		if err := relay.Register(ctx); err != nil {
			t.Fatal(err)
		}
		ob.Route(relay)
		publish := func(typ string) {
			t.Helper()
			if err := ob.Publish(ctx, typ, "a1", map[string]any{"t": typ}); err != nil {
				t.Fatal(err)
			}
		}
		publish("order.paid")
		if r := rowOf(t, d, "order.paid"); r.PublishedAt == nil {
			t.Errorf("an event no filter wants was stored pending")
		}
		wantOrders.Store(true)
		publish("cart.item_added")
		if r := rowOf(t, d, "cart.item_added"); r.PublishedAt == nil {
			t.Errorf("a type the filter does not want was stored pending")
		}
		if err := d.Gorm().Exec("DELETE FROM outbox_events").Error; err != nil {
			t.Fatal(err)
		}
		publish("order.paid")
		if r := rowOf(t, d, "order.paid"); r.PublishedAt != nil {
			t.Fatalf("a wanted event was stored delivered")
		}
		if n, err := relay.Drain(ctx); err != nil || n != 1 || len(got.got()) != 1 {
			t.Fatalf("Drain = %d, %v; handler got %d, want 1", n, err, len(got.got()))
		}
	})
}
