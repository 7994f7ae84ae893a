package carts_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/commerce/modules/carts/domain"
	"github.com/gocommerce/commerce/platform/httpxtest"
)

func TestAddItem(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		id, session := h.guest("")
		itemsPath := "/api/v1/carts/" + id + "/items"
		h.clock.Advance(time.Hour)
		// variant_id may be omitted for a product with only its default variant.
		it := h.add(id, session, map[string]any{"product_id": shirt, "quantity": 2, "custom_attributes": map[string]string{"engraving": "AB"}})
		if httpxtest.Keys(it) != itemKeys {
			t.Errorf("keys %s", httpxtest.Keys(it))
		}
		want := map[string]any{
			"product_id": shirt, "variant_id": shirtV, "quantity": float64(2), "unit_price": "19.99", "original_price": "19.99",
			"subtotal": "39.98", "discount_amount": "0.00", "total": "39.98", "sku": "TS-1", "title": "T-shirt", "variant_title": "",
			"image_url": "https://cdn.example.com/TS-1.jpg", "requires_shipping": true, "is_gift_card": false,
		}
		for k, v := range want {
			if it[k] != v {
				t.Errorf("%s = %v, want %v", k, it[k], v)
			}
		}
		if it["custom_attributes"].(map[string]any)["engraving"] != "AB" {
			t.Errorf("custom_attributes %v", it["custom_attributes"])
		}
		// The same variant and attributes: quantities are summed on the same item.
		again := h.add(id, session, map[string]any{"product_id": shirt, "variant_id": shirtV, "quantity": 3, "custom_attributes": map[string]string{"engraving": "AB"}})
		if again["id"] != it["id"] || again["quantity"] != float64(5) || again["subtotal"] != "99.95" {
			t.Errorf("merged %v", again)
		}
		// Other attributes (or none) are another item; quantity defaults to 1.
		plain := h.add(id, session, map[string]any{"product_id": shirt})
		if plain["id"] == it["id"] || plain["quantity"] != float64(1) || len(plain["custom_attributes"].(map[string]any)) != 0 {
			t.Errorf("plain %v", plain)
		}
		red := h.add(id, session, map[string]any{"product_id": mug, "variant_id": mugRed, "quantity": 5})
		if red["variant_title"] != "Red" || red["unit_price"] != "8.50" {
			t.Errorf("variant %v", red)
		}
		gift := h.add(id, session, map[string]any{"product_id": giftCard})
		if gift["is_gift_card"] != true || gift["requires_shipping"] != false {
			t.Errorf("gift card %v", gift)
		}
		c := h.Must(http.StatusOK, http.MethodGet, "/api/v1/carts/"+id, nil, session).Data()
		// subtotal = sum(quantity x unit_price) = 99.95 + 19.99 + 42.50 + 25.00
		if c["subtotal"] != "187.44" || c["total"] != "187.44" || c["item_count"] != float64(12) || len(items(c)) != 4 {
			t.Errorf("cart %v %v %v %d", c["subtotal"], c["total"], c["item_count"], len(items(c)))
		}
		if items(c)[0]["id"] != it["id"] || items(c)[3]["id"] != gift["id"] {
			t.Error("items are not in the order they were added")
		}
		if c["expires_at"] != "2026-03-31T11:00:00Z" {
			t.Errorf("expires_at %v", c["expires_at"])
		}
		ev := h.Events("cart.item_added")
		if len(ev) != 5 || ev[1].Data["cart_id"] != id || ev[1].AggregateID != id || ev[1].Data["item"].(map[string]any)["quantity"] != float64(5) || ev[4].Data["subtotal"] != "187.44" {
			t.Errorf("cart.item_added %v", ev)
		}

		// Quantity 1 to 9999, also after merging.
		for _, q := range []any{0, -1, 10000} {
			r := h.Do(http.MethodPost, itemsPath, map[string]any{"product_id": untracked, "quantity": q}, session)
			assertError(t, r, http.StatusBadRequest, "INVALID_QUANTITY", "validation")
			if f, _ := r.Err()["fields"].(map[string]any); f["quantity"] == nil { // CONTRACT §5: fields name the bad field
				t.Errorf("INVALID_QUANTITY without fields.quantity: %s", r.Raw)
			}
		}
		h.add(id, session, map[string]any{"product_id": untracked, "quantity": 9999})
		assertError(t, h.Do(http.MethodPost, itemsPath, map[string]any{"product_id": untracked, "quantity": 1}, session), http.StatusBadRequest, "INVALID_QUANTITY", "validation")
		assertError(t, h.Do(http.MethodPost, itemsPath, map[string]any{"product_id": untracked, "quantity": "two"}, session), http.StatusBadRequest, 400, "validation")
		// Any JSON number out of 1–9999, whatever its form, is INVALID_QUANTITY.
		for _, q := range []string{"99999999999999999999", "1e20", "2.5", "-0.5"} {
			r := h.Do(http.MethodPost, itemsPath, `{"product_id":"`+untracked+`","quantity":`+q+`}`, session)
			assertError(t, r, http.StatusBadRequest, "INVALID_QUANTITY", "validation")
			r = h.Do(http.MethodPut, "/api/v1/carts/"+id+"/items/"+it["id"].(string), `{"quantity":`+q+`}`, session)
			assertError(t, r, http.StatusBadRequest, "INVALID_QUANTITY", "validation")
		}
		// Availability: active, and in stock unless the variant sells when out of stock.
		assertError(t, h.Do(http.MethodPost, itemsPath, map[string]any{"product_id": draft}, session), http.StatusBadRequest, "PRODUCT_NOT_AVAILABLE", "validation")
		assertError(t, h.Do(http.MethodPost, itemsPath, map[string]any{"product_id": soldOut}, session), http.StatusBadRequest, "PRODUCT_NOT_AVAILABLE", "validation")
		assertError(t, h.Do(http.MethodPost, itemsPath, map[string]any{"product_id": mug, "variant_id": mugRed}, session), http.StatusBadRequest, "PRODUCT_NOT_AVAILABLE", "validation") // 5 in stock, 5 in the cart
		h.add(id, session, map[string]any{"product_id": mug, "variant_id": mugBlue, "quantity": 40})                                                                                     // continue
		// Existence and currency.
		assertError(t, h.Do(http.MethodPost, itemsPath, map[string]any{"product_id": missing}, session), http.StatusNotFound, "PRODUCT_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodPost, itemsPath, map[string]any{"product_id": mug, "variant_id": missing}, session), http.StatusNotFound, "VARIANT_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodPost, itemsPath, map[string]any{"product_id": mug}, session), http.StatusNotFound, "VARIANT_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodPost, itemsPath, map[string]any{"product_id": euro}, session), http.StatusBadRequest, "CURRENCY_MISMATCH", "validation")
		r := h.Do(http.MethodPost, itemsPath, map[string]any{"quantity": 1}, session)
		assertError(t, r, http.StatusBadRequest, 400, "validation")
		if r.Fields()["product_id"] == nil {
			t.Errorf("fields %v", r.Fields())
		}
		tooMany := map[string]string{}
		for i := 0; i < 51; i++ {
			tooMany[fmt.Sprint("k", i)] = "v"
		}
		assertError(t, h.Do(http.MethodPost, itemsPath, map[string]any{"product_id": shirt, "custom_attributes": tooMany}, session), http.StatusBadRequest, 400, "validation")
		assertError(t, h.Do(http.MethodPost, itemsPath, map[string]any{"product_id": shirt, "custom_attributes": map[string]any{"n": 1}}, session), http.StatusBadRequest, 400, "validation")
		if n := len(h.Payloads("cart.item_added", "")); n != 7 {
			t.Errorf("%d cart.item_added events, want 7 (refused adds publish nothing)", n)
		}
		assertError(t, h.Do(http.MethodPost, itemsPath, map[string]any{"product_id": shirt}), http.StatusUnauthorized, 401, "auth")
	})
}

func TestUpdateAndRemoveItems(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		id, session := h.guest("")
		a := h.add(id, session, map[string]any{"product_id": shirt, "quantity": 1, "custom_attributes": map[string]string{"size": "M"}})
		b := h.add(id, session, map[string]any{"product_id": shirt, "quantity": 2, "custom_attributes": map[string]string{"size": "L"}})
		red := h.add(id, session, map[string]any{"product_id": mug, "variant_id": mugRed, "quantity": 1})
		itemPath := func(it map[string]any) string { return "/api/v1/carts/" + id + "/items/" + it["id"].(string) }

		u := h.Must(http.StatusOK, http.MethodPut, itemPath(a), map[string]any{"quantity": 4}, session).Data()
		if u["quantity"] != float64(4) || u["subtotal"] != "79.96" || httpxtest.Keys(u) != itemKeys {
			t.Errorf("updated %v", u)
		}
		for _, q := range []int{0, 10000} {
			assertError(t, h.Do(http.MethodPut, itemPath(a), map[string]any{"quantity": q}, session), http.StatusBadRequest, "INVALID_QUANTITY", "validation")
		}
		// More than the stock of a tracked variant.
		assertError(t, h.Do(http.MethodPut, itemPath(red), map[string]any{"quantity": 6}, session), http.StatusBadRequest, "PRODUCT_NOT_AVAILABLE", "validation")
		h.Must(http.StatusOK, http.MethodPut, itemPath(red), map[string]any{"quantity": 5}, session)
		// A product deactivated since: fewer is fine, more is refused.
		h.catalog.set(mug, func(p *domain.Product) { p.Status = "archived" })
		h.Must(http.StatusOK, http.MethodPut, itemPath(red), map[string]any{"quantity": 3}, session)
		assertError(t, h.Do(http.MethodPut, itemPath(red), map[string]any{"quantity": 4}, session), http.StatusBadRequest, "PRODUCT_NOT_AVAILABLE", "validation")
		// Attributes that make it identical to another item merge the two.
		m := h.Must(http.StatusOK, http.MethodPut, itemPath(b), map[string]any{"custom_attributes": map[string]string{"size": "M"}}, session).Data()
		if m["id"] != b["id"] || m["quantity"] != float64(6) {
			t.Errorf("merged %v", m)
		}
		c := h.Must(http.StatusOK, http.MethodGet, "/api/v1/carts/"+id, nil, session).Data()
		if len(items(c)) != 2 || c["item_count"] != float64(9) || c["subtotal"] != "145.44" {
			t.Errorf("after merge %v %v %v", len(items(c)), c["item_count"], c["subtotal"])
		}
		if ev := h.Payloads("cart.item_removed", ""); len(ev) != 1 || ev[0]["item"].(map[string]any)["id"] != a["id"] {
			t.Errorf("merge removed %v", ev)
		}
		if ev := h.Payloads("cart.item_updated", ""); len(ev) != 4 || ev[3]["item"].(map[string]any)["quantity"] != float64(6) {
			t.Errorf("cart.item_updated %d", len(ev))
		}
		assertError(t, h.Do(http.MethodPut, itemPath(a), map[string]any{"quantity": 1}, session), http.StatusNotFound, "ITEM_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodPut, itemPath(b), map[string]any{}, session), http.StatusBadRequest, 400, "validation")
		assertError(t, h.Do(http.MethodPut, itemPath(b), map[string]any{"quantity": 1}, "cust1"), http.StatusNotFound, "CART_NOT_FOUND", "not_found")

		// DELETE one item, then the rest.
		h.Must(http.StatusNoContent, http.MethodDelete, itemPath(b), nil, session)
		assertError(t, h.Do(http.MethodDelete, itemPath(b), nil, session), http.StatusNotFound, "ITEM_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodDelete, "/api/v1/carts/"+id+"/items/not-an-id", nil, session), http.StatusNotFound, "ITEM_NOT_FOUND", "not_found")
		h.add(id, session, map[string]any{"product_id": untracked, "quantity": 3})
		h.Must(http.StatusNoContent, http.MethodDelete, "/api/v1/carts/"+id+"/items", nil, session)
		c = h.Must(http.StatusOK, http.MethodGet, "/api/v1/carts/"+id, nil, session).Data()
		if len(items(c)) != 0 || c["subtotal"] != "0.00" || c["item_count"] != float64(0) {
			t.Errorf("cleared cart %v", c)
		}
		if ev := h.Payloads("cart.item_removed", ""); len(ev) != 4 || ev[3]["subtotal"] != "0.00" {
			t.Errorf("cart.item_removed %d", len(ev))
		}
		if h.Count("cart_items", "cart_id = ?", id) != 0 {
			t.Error("items left in the table")
		}
		h.Must(http.StatusNoContent, http.MethodDelete, "/api/v1/carts/"+id+"/items", nil, session) // clearing an empty cart is fine
	})
}

// TestConcurrentAdds: parallel adds end with the sum of the quantities, one line per
// product, one event per add and one version per change: adds written without a row
// lock (docs/decisions/0089) lose nothing when they race.
func TestConcurrentAdds(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		id, session := h.guest("")
		var wg sync.WaitGroup
		for i := 0; i < 20; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				body := map[string]any{"product_id": shirt, "quantity": 2}
				if i%2 == 1 {
					body = map[string]any{"product_id": mug, "variant_id": mugBlue, "quantity": 1}
				}
				if r := h.Do(http.MethodPost, "/api/v1/carts/"+id+"/items", body, session); r.Code != http.StatusCreated {
					t.Errorf("add: %d %s", r.Code, r.Raw)
				}
			}()
		}
		wg.Wait()
		c := h.Must(http.StatusOK, http.MethodGet, "/api/v1/carts/"+id, nil, session).Data()
		quantities := map[string]float64{}
		for _, it := range items(c) {
			quantities[it["product_id"].(string)] = it["quantity"].(float64)
		}
		if len(items(c)) != 2 || quantities[shirt] != 20 || quantities[mug] != 10 || c["subtotal"] != "489.80" || c["item_count"] != float64(30) {
			t.Errorf("after parallel adds: %v, subtotal %v, item_count %v", quantities, c["subtotal"], c["item_count"])
		}
		if n := h.Count("outbox_events", "type = ? AND aggregate_id = ?", "cart.item_added", id); n != 20 {
			t.Errorf("cart.item_added events: %d, want 20", n)
		}
		if n := h.Count("carts", "id = ? AND version = ?", id, 20); n != 1 {
			t.Error("the cart's version is not 20 after 20 changes")
		}
	})
}

func TestTotals(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		// Customer 2's cart, shipped to one of customer 2's addresses.
		session := "cust2"
		id := h.Must(http.StatusOK, http.MethodGet, "/api/v1/carts/me", nil, session).Data()["id"].(string)
		h.add(id, session, map[string]any{"product_id": shirt, "quantity": 2})
		h.add(id, session, map[string]any{"product_id": untracked, "quantity": 3})
		h.ship(id, session, "standard", "4.99")
		h.Must(http.StatusOK, http.MethodPost, "/api/v1/carts/"+id+"/coupon", map[string]any{"coupon_code": "TEN"}, session)
		addr := "0190a000-0000-7000-8000-0000000000aa"
		h.addrs.owner[addr] = customer2
		h.tax.results[addr] = taxResult("3.60", [][3]string{{"US-CA", "0.0725", "2.61"}, {"US-CA-SF", "0.0275", "0.99"}})

		r := h.Must(http.StatusOK, http.MethodGet, "/api/v1/carts/"+id+"/totals?shipping_address_id="+addr, nil, session)
		tot := r.Data()
		// subtotal 39.98 + 0.30 = 40.28; discount 4.00 + 0.03; shipping 4.99; tax 3.60
		want := map[string]any{
			"cart_id": id, "currency": "USD", "item_count": float64(5), "subtotal": "40.28", "discount_total": "4.03",
			"shipping_total": "4.99", "tax_total": "3.60", "calculated_total": "44.84", "total": "44.84", "shipping_address_id": addr,
		}
		for k, v := range want {
			if tot[k] != v {
				t.Errorf("%s = %v, want %v", k, tot[k], v)
			}
		}
		bd := tot["tax_breakdown"].([]any)
		if len(bd) != 2 || bd[0].(map[string]any)["jurisdiction"] != "US-CA" || bd[0].(map[string]any)["rate"] != "0.0725" || bd[1].(map[string]any)["amount"] != "0.99" {
			t.Errorf("tax_breakdown %v", bd)
		}
		if q := h.tax.last; q.ShippingAddressID != addr || q.ShippingAddress == nil || q.ShippingAddress.Country != "US" || q.ShippingAddress.Region != "NY" ||
			len(q.Lines) != 2 || !q.Lines[0].Amount.Equal(dec("35.98")) || !q.ShippingTotal.Equal(dec("4.99")) {
			t.Errorf("tax query %+v", q)
		}
		// Prices that include the tax (tax.default_tax_included): tax_total shows it, the
		// total does not add it again.
		incl := "0190a000-0000-7000-8000-0000000000ab"
		h.addrs.owner[incl] = customer2
		included := taxResult("6.58", nil)
		included.Included = true
		h.tax.results[incl] = included
		tot = h.Must(http.StatusOK, http.MethodGet, "/api/v1/carts/"+id+"/totals?shipping_address_id="+incl, nil, session).Data()
		if tot["tax_total"] != "6.58" || tot["calculated_total"] != "41.24" || tot["total"] != "41.24" {
			t.Errorf("tax included %v", tot)
		}
		// Without an address (no destination: no tax, no breakdown).
		tot = h.Must(http.StatusOK, http.MethodGet, "/api/v1/carts/"+id+"/totals", nil, session).Data()
		if tot["tax_total"] != "0.00" || tot["calculated_total"] != "41.24" || len(tot["tax_breakdown"].([]any)) != 0 || tot["shipping_address_id"] != nil {
			t.Errorf("no address %v", tot)
		}
		// The cart resource agrees: total = subtotal - discount_total + tax_total + shipping_total.
		c := h.Must(http.StatusOK, http.MethodGet, "/api/v1/carts/"+id, nil, session).Data()
		if c["total"] != "41.24" || c["tax_total"] != "0.00" || c["discount_total"] != "4.03" {
			t.Errorf("cart %v %v %v", c["total"], c["tax_total"], c["discount_total"])
		}
		assertError(t, h.Do(http.MethodGet, "/api/v1/carts/"+id+"/totals?shipping_address_id=nope", nil, session), http.StatusBadRequest, 400, "validation")
		assertError(t, h.Do(http.MethodGet, "/api/v1/carts/"+id+"/totals", nil, "cust1"), http.StatusNotFound, "CART_NOT_FOUND", "not_found")

		// Minor units: JPY amounts have no decimals, KWD three.
		for cur, want := range map[string][2]string{"JPY": {"1999", "3998"}, "KWD": {"1.999", "3.998"}} {
			jid, js := h.guest(cur)
			h.catalog.mu.Lock()
			h.catalog.variants[shirt+cur] = []domain.Product{{ProductID: shirt + cur, VariantID: shirtV, Title: "T", Status: "active", Currency: cur, Price: dec(want[0])}}
			h.catalog.mu.Unlock()
			it := h.add(jid, js, map[string]any{"product_id": shirt + cur, "quantity": 2})
			c := h.Must(http.StatusOK, http.MethodGet, "/api/v1/carts/"+jid, nil, js).Data()
			if it["unit_price"] != want[0] || c["subtotal"] != want[1] || !strings.Contains(c["discount_total"].(string)+"|", map[string]string{"JPY": "0|", "KWD": "0.000|"}[cur]) {
				t.Errorf("%s: %v %v %v", cur, it["unit_price"], c["subtotal"], c["discount_total"])
			}
		}
	})
}
