package orders_test

import (
	"net/http"
	"testing"

	"github.com/gocommerce/commerce/platform/httpxtest"
)

// TestLineItemsByVariant: Part 2 names line items by variant_id (and quantity, price)
// only; product_id is optional and, when absent, the variant's product comes from the
// catalog (docs/decisions/0071).
func TestLineItemsByVariant(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		o := h.create(map[string]any{
			"email": guestEmail, "inventory_behaviour": "decrement_obeying_policy",
			"line_items": []any{
				map[string]any{"variant_id": varShirtM, "quantity": 1},
				map[string]any{"variant_id": varMug, "quantity": 2, "price": "7.00"},
				map[string]any{"product_id": prodEbook, "quantity": 1},                          // product_id alone still works
				map[string]any{"product_id": prodShirt, "variant_id": varShirtS, "quantity": 1}, // and both
			},
		})
		ls := items(o, "line_items")
		if len(ls) != 4 {
			t.Fatalf("lines %v", o["line_items"])
		}
		if l := ls[0]; l["product_id"] != prodShirt || l["variant_id"] != varShirtM || l["title"] != "Shirt" || l["variant_title"] != "M" ||
			l["sku"] != "SHIRT-M" || l["price"] != "21.99" || l["requires_shipping"] != true {
			t.Errorf("variant-only line %v", l)
		}
		if l := ls[1]; l["product_id"] != prodMug || l["variant_id"] != varMug || l["title"] != "Mug" || l["price"] != "7.00" || l["total"] != "14.00" {
			t.Errorf("variant-only line with price %v", l)
		}
		if ls[2]["product_id"] != prodEbook || ls[2]["variant_id"] != varEbook || ls[3]["variant_id"] != varShirtS {
			t.Errorf("product lines %v %v", ls[2], ls[3])
		}
		if o["currency"] != "USD" || o["subtotal_price"] != "60.98" {
			t.Errorf("totals %v %v", o["currency"], o["subtotal_price"])
		}
		// Stock is claimed for variant-only lines like any other.
		if h.inventory.level(varShirtM) != 0 || h.inventory.level(varMug) != 3 || h.inventory.level(varShirtS) != 9 {
			t.Errorf("stock shirt M %d mug %d shirt S %d", h.inventory.level(varShirtM), h.inventory.level(varMug), h.inventory.level(varShirtS))
		}

		post := func(status int, code any, body any) httpxtest.Response {
			t.Helper()
			return h.expectError(status, code, map[int]string{400: "validation", 404: "not_found"}[status], http.MethodPost, "/api/v1/orders", body, "admin")
		}
		line := func(l map[string]any) map[string]any {
			return map[string]any{"email": guestEmail, "line_items": []any{l}}
		}
		// An unknown variant: VARIANT_NOT_FOUND naming variant_id.
		r := post(404, "VARIANT_NOT_FOUND", line(map[string]any{"variant_id": unknownID, "quantity": 1}))
		if _, ok := r.Fields()["line_items[0].variant_id"]; !ok {
			t.Errorf("unknown variant fields %v", r.Fields())
		}
		// A malformed variant id, or neither id: validation naming variant_id.
		r = post(400, 400, line(map[string]any{"variant_id": "nope", "quantity": 1}))
		if _, ok := r.Fields()["line_items[0].variant_id"]; !ok {
			t.Errorf("malformed variant fields %v", r.Fields())
		}
		r = post(400, 400, line(map[string]any{"quantity": 1}))
		if _, ok := r.Fields()["line_items[0].variant_id"]; !ok {
			t.Errorf("no ids fields %v", r.Fields())
		}
		r = post(400, 400, line(map[string]any{"product_id": "nope", "variant_id": varMug, "quantity": 1}))
		if _, ok := r.Fields()["line_items[0].product_id"]; !ok {
			t.Errorf("malformed product fields %v", r.Fields())
		}
		// Both given, the variant of another product: today's VARIANT_NOT_FOUND.
		r = post(404, "VARIANT_NOT_FOUND", line(map[string]any{"product_id": prodMug, "variant_id": varShirtS, "quantity": 1}))
		if _, ok := r.Fields()["line_items[0].variant_id"]; !ok {
			t.Errorf("mismatch fields %v", r.Fields())
		}
		post(400, "INVALID_QUANTITY", line(map[string]any{"variant_id": varMug, "quantity": 0}))
		// A variant priced in another currency needs a price, as with product_id.
		post(400, "INVALID_CURRENCY", map[string]any{"email": guestEmail, "line_items": []any{
			map[string]any{"variant_id": varMug, "quantity": 1}, map[string]any{"variant_id": varYen, "quantity": 1},
		}})
		if n := h.Count("orders", "1 = 1"); n != 1 {
			t.Errorf("%d orders after refusals", n)
		}

		// POST /orders/{id}/line_items with variant_id alone.
		id := h.simple(1, map[string]any{"inventory_behaviour": "decrement_obeying_policy"})["id"].(string)
		base := "/api/v1/orders/" + id + "/line_items"
		a := h.Must(http.StatusCreated, http.MethodPost, base, map[string]any{"variant_id": varShirtS, "quantity": 2, "price": "18.00"}, "writer").Data()
		added := items(a, "line_items")
		if len(added) != 2 || added[1]["product_id"] != prodShirt || added[1]["variant_id"] != varShirtS || added[1]["variant_title"] != "S" ||
			added[1]["price"] != "18.00" || a["subtotal_price"] != "44.50" || h.inventory.level(varShirtS) != 7 {
			t.Errorf("added by variant %v; shirt S stock %d", a["line_items"], h.inventory.level(varShirtS))
		}
		if ev := h.LastEvent("order.updated", id); ev["subtotal_price"] != "44.50" {
			t.Errorf("order.updated %v", ev["subtotal_price"])
		}
		r = h.expectError(404, "VARIANT_NOT_FOUND", "not_found", http.MethodPost, base, map[string]any{"variant_id": unknownID, "quantity": 1}, "writer")
		if _, ok := r.Fields()["variant_id"]; !ok {
			t.Errorf("add unknown variant fields %v", r.Fields())
		}
		r = h.expectError(400, 400, "validation", http.MethodPost, base, map[string]any{"quantity": 1}, "writer")
		if _, ok := r.Fields()["variant_id"]; !ok {
			t.Errorf("add without ids fields %v", r.Fields())
		}
		h.expectError(400, 400, "validation", http.MethodPost, base, map[string]any{"variant_id": "x", "quantity": 1}, "writer")
		h.expectError(404, "VARIANT_NOT_FOUND", "not_found", http.MethodPost, base, map[string]any{"product_id": prodMug, "variant_id": varShirtM, "quantity": 1}, "writer")
		if got := h.get(id); len(items(got, "line_items")) != 2 {
			t.Errorf("refused adds left lines %v", got["line_items"])
		}
	})
}

// TestRefundShippingFull: Part 2 writes the refund's shipping as `full`; the string is
// accepted beside the object forms (docs/decisions/0075).
func TestRefundShippingFull(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		id := h.simple(2, nil)["id"].(string) // 2 × 8.50 + 5.00 shipping = 22.00
		h.pay(id, "pay_1", "22.00")
		base := "/api/v1/orders/" + id + "/refunds"
		for _, shipping := range []any{"full", map[string]any{"full_refund": true}, map[string]any{"full": true}} {
			c := h.Must(http.StatusOK, http.MethodPost, base+"/calculate", map[string]any{"shipping": shipping}, "writer").Data()
			if sh, _ := c["shipping"].(map[string]any); sh["amount"] != "5.00" || c["amount"] != "5.00" {
				t.Errorf("calculate shipping %v: %v %v", shipping, c["shipping"], c["amount"])
			}
		}
		// Another string, or another type, is a validation error naming shipping.
		for _, shipping := range []any{"half", "FULL", "", 5, true, []any{"full"}} {
			for _, path := range []string{base + "/calculate", base} {
				r := h.expectError(400, 400, "validation", http.MethodPost, path, map[string]any{"shipping": shipping}, "writer")
				if _, ok := r.Fields()["shipping"]; !ok {
					t.Errorf("shipping %v at %s: fields %v", shipping, path, r.Fields())
				}
			}
		}
		if len(h.payments.refunds) != 0 || h.Count("orders_refunds", "order_id = ?", id) != 0 {
			t.Fatal("refused refunds left traces")
		}
		// Create with "full" and a line: money back for both.
		line := items(h.get(id), "line_items")[0]["id"]
		r := h.Must(http.StatusCreated, http.MethodPost, base, map[string]any{
			"shipping": "full", "refund_line_items": []any{map[string]any{"line_item_id": line, "quantity": 1}},
		}, "writer").Data()
		if r["status"] != "success" || r["amount"] != "13.50" || len(h.payments.refunds) != 1 || h.payments.refunds[0].Amount != "13.50" {
			t.Errorf("refund %v; gateway %+v", r, h.payments.refunds)
		}
		// The shipping is refunded: "full" now means nothing is left of it.
		c := h.Must(http.StatusOK, http.MethodPost, base+"/calculate", map[string]any{"shipping": "full"}, "writer").Data()
		if sh, _ := c["shipping"].(map[string]any); sh["amount"] != "0.00" || sh["maximum_refundable"] != "0.00" {
			t.Errorf("calculate after refund %v", c["shipping"])
		}
		h.expectError(400, "REFUND_EXCEEDS_TOTAL", "validation", http.MethodPost, base, map[string]any{"shipping": map[string]any{"amount": "0.01"}}, "writer")
	})
}

// TestInvalidEmail: a malformed email on create and update is the spec's
// INVALID_EMAIL, with a fields object naming email (as the customers module answers).
func TestInvalidEmail(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		check := func(r httpxtest.Response) {
			t.Helper()
			assertError(t, r, 400, "INVALID_EMAIL", "validation")
			if _, ok := r.Fields()["email"]; !ok {
				t.Errorf("INVALID_EMAIL names no field: %s", r.Raw)
			}
		}
		for _, email := range []string{"nope", "a@b", "Ada <ada@example.com>", "a b@example.com"} {
			check(h.Do(http.MethodPost, "/api/v1/orders", map[string]any{"email": email, "line_items": []any{map[string]any{"variant_id": varMug, "quantity": 1}}}, "admin"))
		}
		if n := h.Count("orders", "1 = 1"); n != 0 {
			t.Errorf("%d orders created with a bad email", n)
		}
		id := h.simple(1, nil)["id"].(string)
		check(h.Do(http.MethodPut, "/api/v1/orders/"+id, map[string]any{"email": "bad"}, "admin"))
		check(h.Do(http.MethodPatch, "/api/v1/orders/"+id, map[string]any{"email": "bad@", "note": "x"}, "admin"))
		if got := h.get(id); got["email"] != guestEmail || got["note"] != nil && got["note"] != "" {
			t.Errorf("refused update changed the order: %v %v", got["email"], got["note"])
		}
		// A missing email is still the plain validation error of a guest order.
		r := h.expectError(400, 400, "validation", http.MethodPost, "/api/v1/orders", map[string]any{"line_items": []any{map[string]any{"variant_id": varMug, "quantity": 1}}}, "admin")
		if _, ok := r.Fields()["email"]; !ok {
			t.Errorf("missing email fields %v", r.Fields())
		}
	})
}

// TestCancelWithFulfillments: Part 2's table lets any open order be cancelled; restock
// gives back only the claimed units that were not fulfilled, never more than claimed,
// once (docs/decisions/0073).
func TestCancelWithFulfillments(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		// 3 mugs (stock 5 → 2) and 2 shirts S (10 → 8), claimed.
		o := h.create(map[string]any{
			"email": guestEmail, "inventory_behaviour": "decrement_obeying_policy",
			"line_items": []any{map[string]any{"product_id": prodMug, "quantity": 3}, map[string]any{"variant_id": varShirtS, "quantity": 2}},
		})
		id := o["id"].(string)
		mug, shirt := items(o, "line_items")[0]["id"], items(o, "line_items")[1]["id"]
		h.expectLevels("claimed", map[string]int{varMug: 2, varShirtS: 8})
		// Ship 1 mug and both shirts.
		f := h.Must(http.StatusCreated, http.MethodPost, "/api/v1/orders/"+id+"/fulfillments", map[string]any{"line_items": []any{
			map[string]any{"id": mug, "quantity": 1}, map[string]any{"id": shirt, "quantity": 2},
		}}, "admin").Data()
		// open with fulfillments → cancelled; only the 2 unshipped mugs go back.
		c := h.Must(http.StatusOK, http.MethodPost, "/api/v1/orders/"+id+"/cancel", map[string]any{"reason": "customer_request", "restock": true}, "admin").Data()
		if c["status"] != "cancelled" || c["cancel_reason"] != "customer_request" || c["fulfillment_status"] != "partial" {
			t.Errorf("cancelled %v %v %v", c["status"], c["cancel_reason"], c["fulfillment_status"])
		}
		h.expectLevels("restock", map[string]int{varMug: 4, varShirtS: 8})
		if ev := h.LastEvent("order.cancelled", id); ev["status"] != "cancelled" || ev["restock"] != true {
			t.Errorf("order.cancelled %v", ev)
		}
		h.expectError(409, "ORDER_ALREADY_CANCELLED", "conflict", http.MethodPost, "/api/v1/orders/"+id+"/cancel", map[string]any{"restock": true}, "admin")
		// Reopened and cancelled again: nothing more goes back.
		h.reopen(id)
		h.cancelRestocking(id)
		h.expectLevels("second restock", map[string]int{varMug: 4, varShirtS: 8})
		// The fulfillment cancelled after all: its units are back in the warehouse, so a
		// later cancel with restock returns them, and never more than was claimed.
		h.reopen(id)
		h.Must(http.StatusOK, http.MethodPost, "/api/v1/orders/"+id+"/fulfillments/"+f["id"].(string)+"/cancel", nil, "admin")
		h.cancelRestocking(id)
		h.expectLevels("after fulfillment cancel", map[string]int{varMug: 5, varShirtS: 10})
		h.reopen(id)
		h.cancelRestocking(id)
		h.expectLevels("more than claimed", map[string]int{varMug: 5, varShirtS: 10})

		// A fully fulfilled open order may be cancelled (nothing to restock); once
		// closed it may not.
		full := h.simple(2, map[string]any{"inventory_behaviour": "decrement_obeying_policy"})["id"].(string)
		h.Must(http.StatusCreated, http.MethodPost, "/api/v1/orders/"+full+"/fulfillments", map[string]any{}, "admin")
		before := h.inventory.level(varMug)
		c = h.Must(http.StatusOK, http.MethodPost, "/api/v1/orders/"+full+"/cancel", map[string]any{"restock": true}, "admin").Data()
		if c["status"] != "cancelled" || c["fulfillment_status"] != "fulfilled" || h.inventory.level(varMug) != before {
			t.Errorf("fulfilled cancel %v %v; mug %d, want %d", c["status"], c["fulfillment_status"], h.inventory.level(varMug), before)
		}
		h.Must(http.StatusOK, http.MethodPost, "/api/v1/orders/"+full+"/reopen", nil, "admin")
		h.Must(http.StatusCreated, http.MethodPost, "/api/v1/orders/"+full+"/transactions", map[string]any{"kind": "sale"}, "admin")
		h.Must(http.StatusOK, http.MethodPost, "/api/v1/orders/"+full+"/close", nil, "admin")
		h.expectError(400, "INVALID_STATUS_TRANSITION", "validation", http.MethodPost, "/api/v1/orders/"+full+"/cancel", map[string]any{"restock": true}, "admin")
		if got := h.get(full); got["status"] != "closed" || h.inventory.level(varMug) != before {
			t.Errorf("closed cancel changed %v; mug %d", got["status"], h.inventory.level(varMug))
		}
	})
}
