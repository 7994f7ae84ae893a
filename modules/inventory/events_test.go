package inventory_test

import (
	"context"
	"encoding/json"
	"testing"

	catalog "github.com/gocommerce/commerce/modules/catalog/api"
	"github.com/gocommerce/commerce/modules/inventory/api"
	"github.com/gocommerce/commerce/modules/inventory/domain"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/ids"
)

func catalogEvent(t *testing.T, typ string, data any) event.Event {
	t.Helper()
	raw, err := json.Marshal(data)
	if err != nil {
		t.Fatal(err)
	}
	return event.Event{ID: "evt_" + ids.New(), Type: typ, Data: raw}
}

func TestCatalogEvents(t *testing.T) {
	forEngine(t, func(t *testing.T, s *stack) {
		ctx := context.Background()
		bus := events.NewBus()
		s.module.Subscribe(bus)
		p := s.catalog.add("Kettle", 3, domain.PolicyDeny, 2)
		v0, v1 := p.variant(0), p.variant(1)

		// catalog.stock_set sets the default location's stock, once per event.
		set := catalogEvent(t, catalog.EventStockSet, catalog.StockSet{ProductID: p.ID, VariantID: v0, Quantity: 7})
		if err := bus.Dispatch(ctx, set); err != nil {
			t.Fatal(err)
		}
		if a, _, _ := s.level(v0, defaultLoc); a != 7 {
			t.Fatalf("after stock_set: %d", a)
		}
		ms := s.movements(v0)
		if len(ms) != 1 || ms[0].Reason != "count" || ms[0].Reference != "catalog" || ms[0].MovementType != "in" || ms[0].Quantity != 7 {
			t.Fatalf("stock_set movement %+v", ms)
		}
		adjusted := s.Payloads(api.EventAdjusted, "")
		if len(adjusted) != 1 || adjusted[0]["adjusted_by"] != "catalog" || num(adjusted[0]["quantity_after"]) != 7 {
			t.Fatalf("adjusted events %v", adjusted)
		}
		if got, _ := s.catalog.total(v0); got != 7 {
			t.Fatalf("catalog told %d", got)
		}
		// a later sale, then the same event delivered again: nothing is undone.
		if _, err := s.svc.Adjust(ctx, api.AdjustCommand{ProductID: p.ID, Adjustment: -2, Reason: "other"}); err != nil {
			t.Fatal(err)
		}
		if err := bus.Dispatch(ctx, set); err != nil {
			t.Fatal(err)
		}
		if a, _, _ := s.level(v0, defaultLoc); a != 5 || len(s.movements(v0)) != 2 {
			t.Fatalf("redelivered stock_set changed stock: %d, %d movements", a, len(s.movements(v0)))
		}
		// a new event applies; an event for a product that is gone, or one that cannot be
		// read, is dropped without error (a retry could not help).
		for _, e := range []event.Event{
			catalogEvent(t, catalog.EventStockSet, catalog.StockSet{ProductID: p.ID, VariantID: v1, Quantity: 4}),
			catalogEvent(t, catalog.EventStockSet, catalog.StockSet{ProductID: ids.New(), VariantID: ids.New(), Quantity: 4}),
			catalogEvent(t, catalog.EventStockSet, catalog.StockSet{ProductID: p.ID, VariantID: v1, Quantity: -1}),
			{ID: "evt_bad", Type: catalog.EventStockSet, Data: json.RawMessage(`"nope"`)},
		} {
			if err := bus.Dispatch(ctx, e); err != nil {
				t.Fatalf("%s: %v", e.Data, err)
			}
		}
		if a, _, _ := s.level(v1, defaultLoc); a != 4 {
			t.Fatalf("second variant %d", a)
		}

		// product.updated refreshes the name and threshold kept with the stock.
		s.catalog.update(p.ID, "Electric kettle", 10, "USD")
		if err := bus.Dispatch(ctx, catalogEvent(t, catalog.EventProductUpdated, map[string]any{"id": p.ID, "title": "Electric kettle"})); err != nil {
			t.Fatal(err)
		}
		code, body := s.do("GET", "/api/v1/inventory?product_id="+p.ID, "reader", nil)
		if items := list(body); code != 200 || len(items) != 1 || items[0]["product_name"] != "Electric kettle" ||
			num(items[0]["low_stock_threshold"]) != 10 || items[0]["stock_status"] != "low_stock" || num(items[0]["total_available"]) != 9 {
			t.Fatalf("after product.updated: %d %v", code, body)
		}

		// variant.deleted: its levels go, its reservations close, movements stay.
		r, err := s.svc.Reserve(ctx, api.ReserveCommand{ProductID: p.ID, VariantID: v1, OrderID: "o-1", Quantity: 1})
		if err != nil {
			t.Fatal(err)
		}
		deleted := catalogEvent(t, catalog.EventVariantDeleted, map[string]any{"id": v1, "product_id": p.ID})
		for range 2 { // at least once
			if err := bus.Dispatch(ctx, deleted); err != nil {
				t.Fatal(err)
			}
		}
		var n int64
		s.db.Gorm().Table("inventory_levels").Where("variant_id = ?", v1).Count(&n)
		if n != 0 || len(s.movements(v1)) != 2 {
			t.Fatalf("after variant.deleted: %d levels, %d movements", n, len(s.movements(v1)))
		}
		if _, err := s.svc.Release(ctx, r.ID, api.ReleaseOrderCancelled); err == nil {
			t.Fatal("reservation of a deleted variant still active")
		}
		released := s.Payloads(api.EventReleased, "")
		if len(released) != 1 || released[0]["reason"] != "manual_release" {
			t.Fatalf("released events %v", released)
		}

		// product.deleted: every level goes; the list forgets the product; movements stay.
		if _, err := s.svc.Reserve(ctx, api.ReserveCommand{ProductID: p.ID, OrderID: "o-2", Quantity: 1}); err != nil {
			t.Fatal(err)
		}
		s.catalog.remove(p.ID)
		gone := catalogEvent(t, catalog.EventProductDeleted, map[string]any{"id": p.ID})
		for range 2 {
			if err := bus.Dispatch(ctx, gone); err != nil {
				t.Fatal(err)
			}
		}
		s.db.Gorm().Table("inventory_levels").Where("product_id = ?", p.ID).Count(&n)
		if n != 0 {
			t.Fatalf("%d levels left", n)
		}
		code, body = s.do("GET", "/api/v1/inventory", "reader", nil)
		if code != 200 || len(list(body)) != 0 {
			t.Fatalf("list after product.deleted: %d %v", code, body)
		}
		code, body = s.do("GET", "/api/v1/inventory/movements?product_id="+p.ID, "reader", nil)
		if items := list(body); code != 200 || len(items) != 5 || items[0]["product_name"] != "Electric kettle" {
			t.Fatalf("movements after product.deleted: %d %v", code, body)
		}
		if code, body := s.do("GET", "/api/v1/inventory/"+p.ID, "reader", nil); code != 404 || errCode(body) != "PRODUCT_NOT_FOUND" {
			t.Fatalf("level of a deleted product: %d %v", code, body)
		}
		if got := s.Payloads(api.EventReleased, ""); len(got) != 2 {
			t.Fatalf("released events after product.deleted: %v", got)
		}
		// and the expiry sweep has nothing left to do for it
		s.clock.Advance(24 * 60 * 60 * 1e9)
		if n, err := s.svc.ExpireReservations(ctx); err != nil || n != 0 {
			t.Fatalf("sweep after deletion = %d, %v", n, err)
		}
	})
}
