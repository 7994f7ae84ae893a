package postgres

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/events"
)

// batchJSON writes by hand what encoding/json writes for the rows (their json tags are
// the recordsets' column names), byte for byte, including escaping, nulls, decimals
// and times; an event's payload goes in as it is.
func TestBatchJSON(t *testing.T) {
	t.Parallel()
	customer, merged := "0190a7f0-0000-7000-8000-000000000001", "0190a7f0-0000-7000-8000-000000000002"
	at := time.Date(2026, 11, 23, 10, 4, 5, 123456000, time.UTC)
	c1 := cartRow{
		ID: "c1", CustomerID: &customer, Currency: "EUR", Status: "active", Email: "a&b@<x>.test", ShippingMethod: "std",
		Notes: "line\nbreak \"quoted\" \u2028 \xff", Coupons: `["SAVE10"]`, Subtotal: decimal.RequireFromString("19.90"),
		DiscountTotal: decimal.RequireFromString("2"), ShippingBeforeDiscount: decimal.Zero, ShippingTotal: decimal.RequireFromString("-0.5"),
		ItemCount: 3, MergedIntoID: &merged, ExpiresAt: at.Add(time.Hour), CreatedAt: at, UpdatedAt: at.In(time.FixedZone("x", 3600)),
		Version: 1 << 40, ExpiryHour: at.Truncate(time.Hour),
	}
	hash := "h"
	c2 := cartRow{ID: "c2", SessionTokenHash: &hash, Currency: "USD", Status: "active", Coupons: "[]"}
	items := []itemRow{
		{ID: "i1", CartID: "c1", ProductID: "p", VariantID: "v", Quantity: 2, UnitPrice: decimal.RequireFromString("9.95"),
			OriginalPrice: decimal.RequireFromString("9.95"), DiscountAmount: decimal.RequireFromString("1.00"), SKU: "S<1>", Title: "Tee & cap",
			VariantTitle: "Größe M", ImageURL: "https://x.test/a.png?a=1&b=2", RequiresShipping: true, CustomAttributes: `{"gift":"yes"}`,
			AttributesHash: "ab", CreatedAt: at, UpdatedAt: at},
		{ID: "i2", CartID: "c1", IsGiftCard: true, CustomAttributes: "{}"},
	}
	recs := []events.Record{
		{ID: "e1", Type: "cart.item_added", AggregateID: "c1", Payload: `{"cart_id":"c1","qty":2,"note":"\u003c"}`, At: at},
		{ID: "e2", Type: "cart.updated", AggregateID: "c1", Payload: `{}`, At: at, Delivered: true},
	}
	batch := []*pendingWrite{{cart: c1, items: items, events: recs}, {cart: c2}}

	type eventJSON struct {
		CartID      string          `json:"cart_id"`
		ID          string          `json:"id"`
		Type        string          `json:"type"`
		AggregateID string          `json:"aggregate_id"`
		Payload     json.RawMessage `json:"payload"`
		OccurredAt  time.Time       `json:"occurred_at"`
		PublishedAt *time.Time      `json:"published_at"`
	}
	delivered := at
	wantEvents := []eventJSON{
		{CartID: "c1", ID: "e1", Type: "cart.item_added", AggregateID: "c1", Payload: json.RawMessage(recs[0].Payload), OccurredAt: at},
		{CartID: "c1", ID: "e2", Type: "cart.updated", AggregateID: "c1", Payload: json.RawMessage(recs[1].Payload), OccurredAt: at, PublishedAt: &delivered},
	}
	marshal := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	carts, itemsJSON, evts := batchJSON(batch)
	if want := marshal([]cartRow{c1, c2}); carts != want {
		t.Errorf("carts\n got %s\nwant %s", carts, want)
	}
	if want := marshal(items); itemsJSON != want {
		t.Errorf("items\n got %s\nwant %s", itemsJSON, want)
	}
	if want := marshal(wantEvents); evts != want {
		t.Errorf("events\n got %s\nwant %s", evts, want)
	}

	// A batch without items or events writes empty arrays, never null.
	carts, itemsJSON, evts = batchJSON([]*pendingWrite{{cart: c2}})
	if carts != marshal([]cartRow{c2}) || itemsJSON != "[]" || evts != "[]" {
		t.Errorf("empty parts: %s %s %s", carts, itemsJSON, evts)
	}
}
