package main

import (
	"context"
	"net/http"
	"testing"
	"time"

	identityapi "github.com/gocommerce/commerce/modules/identity/api"
)

// As wired in production, every module subscribes as a consumer named after it, the
// relay registers them, and the outbox routes through the registry (decision 0109): an
// event a module wants is stored pending and records who handled it. Webhooks
// subscribes to every type (decision 0191) through a filter, the types its enabled
// endpoints want (decision 0234): with none, an event no module wants (a cart's) is
// stored delivered at once.
func TestModulesAreRegisteredEventConsumers(t *testing.T) {
	onEachEngine(t, nil, func(t *testing.T, ta *testApp) {
		ctx := context.Background()
		if err := ta.app.Relay.Register(ctx); err != nil {
			t.Fatal(err)
		}
		var registered []struct{ Consumer, EventType string }
		if err := ta.app.DB.Gorm().Raw("SELECT consumer, event_type FROM event_consumers ORDER BY consumer, event_type").Scan(&registered).Error; err != nil {
			t.Fatal(err)
		}
		has := map[string]bool{}
		for _, r := range registered {
			has[r.Consumer+" "+r.EventType] = true
		}
		for _, want := range []string{"webhooks *filtered", "customers order.created", "coupons order.created", "inventory catalog.stock_set", "orders payment.succeeded", "payments customer.deleted"} {
			if !has[want] {
				t.Errorf("consumer %q not registered; registered: %v", want, registered)
			}
		}

		_, key, err := ta.app.Identity.CreateAPIKey(ctx, identityapi.CreateAPIKeyCommand{Name: "admin", Scopes: []string{"admin"}})
		if err != nil {
			t.Fatal(err)
		}
		ta.must(http.StatusCreated, "POST", "/api/v1/products", map[string]any{"title": "Mug", "price": "12.50", "currency": "USD", "inventory_quantity": 5}, "Authorization", "Bearer "+key)
		type outboxRow struct {
			Type        string
			OccurredAt  time.Time
			PublishedAt *time.Time
			Attempts    int
			DeliveredTo string
		}
		rowOf := func(typ string) outboxRow {
			t.Helper()
			var rs []outboxRow
			if err := ta.app.DB.Gorm().Raw("SELECT type, occurred_at, published_at, attempts, delivered_to FROM outbox_events WHERE type = ?", typ).Scan(&rs).Error; err != nil || len(rs) != 1 {
				t.Fatalf("outbox %s: %v %v", typ, rs, err)
			}
			return rs[0]
		}
		if r := rowOf("product.created"); r.PublishedAt != nil {
			t.Errorf("product.created (webhooks') stored delivered: %+v", r)
		}
		if r := rowOf("catalog.stock_set"); r.PublishedAt != nil {
			t.Errorf("catalog.stock_set (inventory's) stored delivered: %+v", r)
		}
		ta.relay(1)
		if r := rowOf("catalog.stock_set"); r.PublishedAt == nil || r.DeliveredTo != ",inventory,webhooks," {
			t.Errorf("catalog.stock_set after the relay: %+v", r)
		}
		if r := rowOf("product.created"); r.PublishedAt == nil || r.DeliveredTo != ",statistics,webhooks," {
			t.Errorf("product.created after the relay: %+v", r)
		}
		// Webhooks' routing reads the endpoints in the background (the first events
		// after a start are stored pending): within a moment, a cart event is stored
		// delivered, never claimed by a relay.
		deadline := time.Now().Add(5 * time.Second)
		for {
			ta.must(http.StatusCreated, "POST", "/api/v1/carts/guest", map[string]any{"currency": "USD"})
			var r []outboxRow
			if err := ta.app.DB.Gorm().Raw("SELECT type, occurred_at, published_at, attempts, delivered_to FROM outbox_events WHERE type = 'cart.created' ORDER BY occurred_at DESC LIMIT 1").Scan(&r).Error; err != nil || len(r) != 1 {
				t.Fatalf("cart.created: %v %v", r, err)
			}
			if r[0].PublishedAt != nil && r[0].Attempts == 0 && r[0].DeliveredTo == "" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("cart.created still stored pending: %+v", r[0])
			}
			time.Sleep(50 * time.Millisecond)
		}
	})
}
