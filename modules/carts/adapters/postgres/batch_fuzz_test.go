package postgres

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/events"
)

// batchJSON writes what encoding/json writes for any strings, amounts, counts and
// times of the rows (TestBatchJSON's cases, fuzzed). `make fuzz` runs it for longer.
func FuzzBatchJSON(f *testing.F) {
	f.Add("c1", "line\nbreak \"q\" \u2028 \xff <&>", "19.90", int64(1795395723), int64(123456000), 3600, 3, true)
	f.Add("", "\x00\x1f\x7f", "-0.5", int64(0), int64(0), 0, -1, false)
	f.Add("漢", "😀", "1e3", int64(253402300800), int64(1), -86399, 1<<40, true)
	f.Fuzz(func(t *testing.T, id, text, amount string, sec, nsec int64, offset, n int, flag bool) {
		d, err := decimal.NewFromString(amount)
		if err != nil || d.Exponent() < -64 || d.Exponent() > 64 {
			d = decimal.Zero
		}
		at := time.Unix(sec, nsec).In(time.FixedZone("z", offset))
		cart := cartRow{
			ID: id, CustomerID: &text, Currency: text, Status: id, Email: text, ShippingMethod: id, Notes: text,
			Coupons: text, Subtotal: d, DiscountTotal: d.Neg(), ShippingBeforeDiscount: d, ShippingTotal: decimal.Zero,
			ItemCount: n, ExpiresAt: at, CreatedAt: at.UTC(), UpdatedAt: at, Version: int64(n), ExpiryHour: at.Truncate(time.Hour),
		}
		if flag {
			cart.SessionTokenHash, cart.MergedIntoID = &id, &text
		}
		items := []itemRow{{
			ID: id, CartID: text, ProductID: text, VariantID: id, Quantity: n, UnitPrice: d, OriginalPrice: d, DiscountAmount: d,
			SKU: text, Title: text, VariantTitle: id, ImageURL: text, RequiresShipping: flag, IsGiftCard: !flag,
			CustomAttributes: text, AttributesHash: id, CreatedAt: at, UpdatedAt: at,
		}}
		payload, _ := json.Marshal(map[string]any{text: id, "n": n})
		recs := []events.Record{{ID: id, Type: text, AggregateID: id, Payload: string(payload), At: at, Delivered: flag}}
		carts, itemsJSON, evts := batchJSON([]*pendingWrite{{cart: cart, items: items, events: recs}})

		want, err := json.Marshal([]cartRow{cart})
		if err == nil && carts != string(want) {
			t.Fatalf("carts\n got %s\nwant %s", carts, want)
		}
		want, err = json.Marshal(items)
		if err == nil && itemsJSON != string(want) {
			t.Fatalf("items\n got %s\nwant %s", itemsJSON, want)
		}
		for _, s := range []string{carts, itemsJSON, evts} {
			if !json.Valid([]byte(s)) {
				t.Fatalf("not valid JSON: %s", s)
			}
		}
	})
}
