package orders_test

import (
	"net/http"
	"testing"

	"github.com/gocommerce/commerce/platform/httpxtest"
)

func TestLineItems(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		o := h.create(map[string]any{
			"email": guestEmail, "inventory_behaviour": "decrement_obeying_policy",
			"line_items":     []any{map[string]any{"product_id": prodMug, "quantity": 2}},
			"shipping_lines": []any{map[string]any{"title": "Standard", "price": "5.00"}},
			"tax_lines":      []any{map[string]any{"title": "VAT", "rate": "0.1"}},
		})
		id := o["id"].(string)
		if o["total_tax"] != "1.70" || o["total_price"] != "23.70" || h.inventory.level(varMug) != 3 {
			t.Fatalf("created %v %v, mug stock %d", o["total_tax"], o["total_price"], h.inventory.level(varMug))
		}
		base := "/api/v1/orders/" + id + "/line_items"
		// Add: totals and the rated tax recomputed, stock claimed.
		r := h.Must(http.StatusCreated, http.MethodPost, base, map[string]any{"product_id": prodShirt, "variant_id": varShirtS, "quantity": 2}, "writer")
		a := r.Data()
		if a["subtotal_price"] != "56.98" || a["total_tax"] != "5.70" || a["total_price"] != "67.68" || a["total_items"] != float64(4) ||
			a["total_weight"] != "1.307" || len(items(a, "line_items")) != 2 || h.inventory.level(varShirtS) != 8 {
			t.Errorf("after add %v %v %v %v %v; shirt stock %d", a["subtotal_price"], a["total_tax"], a["total_price"], a["total_items"], a["total_weight"], h.inventory.level(varShirtS))
		}
		shirtLine := items(a, "line_items")[1]["id"].(string)
		mugLine := items(a, "line_items")[0]["id"].(string)
		if ev := h.LastEvent("order.updated", id); ev["total_price"] != "67.68" {
			t.Errorf("order.updated %v", ev["total_price"])
		}
		// Change quantity and price: stock follows the quantity.
		r = h.Must(http.StatusOK, http.MethodPut, base+"/"+shirtLine, map[string]any{"quantity": 1, "price": "15.00"}, "writer")
		if c := r.Data(); c["subtotal_price"] != "32.00" || c["total_tax"] != "3.20" || c["total_price"] != "40.20" || h.inventory.level(varShirtS) != 9 {
			t.Errorf("after change %v %v %v; shirt stock %d", c["subtotal_price"], c["total_tax"], c["total_price"], h.inventory.level(varShirtS))
		}
		r = h.Must(http.StatusOK, http.MethodPatch, base+"/"+mugLine, map[string]any{"quantity": 4}, "writer")
		if r.Data()["total_items"] != float64(5) || h.inventory.level(varMug) != 1 {
			t.Errorf("after increase %v; mug stock %d", r.Data()["total_items"], h.inventory.level(varMug))
		}
		// More than there is, obeying the policy: INSUFFICIENT_INVENTORY, nothing changed.
		h.expectError(400, "INSUFFICIENT_INVENTORY", "validation", http.MethodPut, base+"/"+mugLine, map[string]any{"quantity": 9}, "writer")
		if got := h.get(id); got["total_items"] != float64(5) || h.inventory.level(varMug) != 1 {
			t.Errorf("refused change left traces: %v, mug %d", got["total_items"], h.inventory.level(varMug))
		}
		// Errors.
		h.expectError(404, "LINE_ITEM_NOT_FOUND", "not_found", http.MethodPut, base+"/"+unknownID, map[string]any{"quantity": 1}, "writer")
		h.expectError(404, "LINE_ITEM_NOT_FOUND", "not_found", http.MethodDelete, base+"/"+unknownID, nil, "writer")
		h.expectError(400, "INVALID_QUANTITY", "validation", http.MethodPut, base+"/"+mugLine, map[string]any{"quantity": 0}, "writer")
		h.expectError(400, "INVALID_QUANTITY", "validation", http.MethodPut, base+"/"+mugLine, map[string]any{"quantity": -2}, "writer")
		h.expectError(400, "INVALID_QUANTITY", "validation", http.MethodPost, base, map[string]any{"product_id": prodMug, "quantity": 0}, "writer")
		h.expectError(400, 400, "validation", http.MethodPost, base, map[string]any{"product_id": prodMug}, "writer")
		h.expectError(400, 400, "validation", http.MethodPost, base, map[string]any{"quantity": 1}, "writer")
		h.expectError(400, "INVALID_PRICE", "validation", http.MethodPut, base+"/"+mugLine, map[string]any{"price": "1.234"}, "writer")
		h.expectError(404, "PRODUCT_NOT_FOUND", "not_found", http.MethodPost, base, map[string]any{"product_id": unknownID, "quantity": 1}, "writer")
		h.expectError(404, "VARIANT_NOT_FOUND", "not_found", http.MethodPost, base, map[string]any{"product_id": prodShirt, "quantity": 1}, "writer")
		h.expectError(404, "ORDER_NOT_FOUND", "not_found", http.MethodPost, "/api/v1/orders/"+unknownID+"/line_items", map[string]any{"product_id": prodMug, "quantity": 1}, "writer")
		// Remove: stock given back; the last line stays.
		r = h.Must(http.StatusOK, http.MethodDelete, base+"/"+shirtLine, nil, "writer")
		if d := r.Data(); len(items(d, "line_items")) != 1 || d["subtotal_price"] != "34.00" || h.inventory.level(varShirtS) != 10 {
			t.Errorf("after remove %v; shirt stock %d", d["subtotal_price"], h.inventory.level(varShirtS))
		}
		h.expectError(400, "INVALID_QUANTITY", "validation", http.MethodDelete, base+"/"+mugLine, nil, "writer")
		// Once fulfilled, line items are fixed.
		h.Must(http.StatusCreated, http.MethodPost, "/api/v1/orders/"+id+"/fulfillments", map[string]any{"line_items": []any{map[string]any{"id": mugLine, "quantity": 1}}}, "writer")
		h.expectError(400, "INVALID_STATUS_TRANSITION", "validation", http.MethodPost, base, map[string]any{"product_id": prodMug, "quantity": 1}, "writer")
		h.expectError(400, "INVALID_STATUS_TRANSITION", "validation", http.MethodPut, base+"/"+mugLine, map[string]any{"quantity": 2}, "writer")
		// A cancelled order is not editable.
		other := h.simple(1, nil)["id"].(string)
		h.Must(http.StatusOK, http.MethodPost, "/api/v1/orders/"+other+"/cancel", nil, "admin")
		h.expectError(409, "ORDER_ALREADY_CANCELLED", "conflict", http.MethodPost, "/api/v1/orders/"+other+"/line_items", map[string]any{"product_id": prodMug, "quantity": 1}, "writer")
	})
}

func TestFulfillments(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		o := h.create(map[string]any{"email": guestEmail, "line_items": []any{
			map[string]any{"product_id": prodMug, "quantity": 3}, map[string]any{"product_id": prodShirt, "variant_id": varShirtM, "quantity": 1},
		}})
		id := o["id"].(string)
		mug, shirt := items(o, "line_items")[0]["id"].(string), items(o, "line_items")[1]["id"].(string)
		base := "/api/v1/orders/" + id + "/fulfillments"
		h.expectError(404, "LINE_ITEM_NOT_FOUND", "not_found", http.MethodPost, base, map[string]any{"line_items": []any{map[string]any{"id": unknownID, "quantity": 1}}}, "writer")
		h.expectError(400, "INVALID_QUANTITY", "validation", http.MethodPost, base, map[string]any{"line_items": []any{map[string]any{"id": mug, "quantity": 4}}}, "writer")
		h.expectError(400, "INVALID_QUANTITY", "validation", http.MethodPost, base, map[string]any{"line_items": []any{map[string]any{"id": mug, "quantity": 0}}}, "writer")
		h.expectError(400, 400, "validation", http.MethodPost, base, map[string]any{"location_id": "x"}, "writer")
		h.expectError(400, 400, "validation", http.MethodPost, base, map[string]any{"tracking_url": "javascript:alert(1)"}, "writer")
		// Partial.
		r := h.Must(http.StatusCreated, http.MethodPost, base, map[string]any{
			"location_id": "00000000-0000-4000-8000-000000000001", "line_items": []any{map[string]any{"id": mug, "quantity": 2}},
			"tracking_number": "1Z999", "tracking_company": "UPS", "tracking_url": "https://ups.example/1Z999", "notify_customer": true,
		}, "writer")
		f := r.Data()
		if f["status"] != "success" || f["order_id"] != id || f["tracking_number"] != "1Z999" || f["tracking_company"] != "UPS" || f["notify_customer"] != true ||
			f["location_id"] != "00000000-0000-4000-8000-000000000001" || f["cancelled_at"] != nil {
			t.Errorf("fulfillment %v", f)
		}
		if fl := items(f, "line_items"); len(fl) != 1 || fl[0]["id"] != mug || fl[0]["quantity"] != float64(2) || fl[0]["sku"] != "MUG" || fl[0]["title"] != "Mug" {
			t.Errorf("fulfillment lines %v", f["line_items"])
		}
		fid := f["id"].(string)
		if got := h.get(id); got["fulfillment_status"] != "partial" || items(got, "line_items")[0]["fulfillable_quantity"] != float64(1) {
			t.Errorf("after partial %v", got["fulfillment_status"])
		}
		ev := h.LastEvent("order.fulfillment_created", id)
		if ev["id"] != fid || ev["order_number"] != "1001" || ev["email"] != guestEmail || ev["tracking_number"] != "1Z999" {
			t.Errorf("order.fulfillment_created %v", ev)
		}
		if ev := h.LastEvent("order.updated", id); ev["fulfillment_status"] != "partial" {
			t.Errorf("order.updated %v", ev["fulfillment_status"])
		}
		h.expectError(400, "INVALID_QUANTITY", "validation", http.MethodPost, base, map[string]any{"line_items": []any{map[string]any{"id": mug, "quantity": 2}}}, "writer")
		// The rest (no line items: everything left).
		r = h.Must(http.StatusCreated, http.MethodPost, base, nil, "writer")
		if fl := items(r.Data(), "line_items"); len(fl) != 2 || fl[0]["quantity"] != float64(1) || fl[1]["id"] != shirt {
			t.Errorf("rest %v", r.Data()["line_items"])
		}
		fid2 := r.Data()["id"].(string)
		if got := h.get(id); got["fulfillment_status"] != "fulfilled" {
			t.Errorf("after rest %v", got["fulfillment_status"])
		}
		h.expectError(400, "INVALID_QUANTITY", "validation", http.MethodPost, base, nil, "writer")
		// List, get.
		l := h.Must(http.StatusOK, http.MethodGet, base+"?per_page=1", nil, "reader")
		if len(l.List()) != 1 || l.List()[0]["id"] != fid || l.Pagination()["total"] != float64(2) {
			t.Errorf("list %s", l.Raw)
		}
		if g := h.Must(http.StatusOK, http.MethodGet, base+"/"+fid2, nil, "reader"); g.Data()["id"] != fid2 {
			t.Errorf("get %v", g.Data())
		}
		h.expectError(404, "FULFILLMENT_NOT_FOUND", "not_found", http.MethodGet, base+"/"+unknownID, nil, "reader")
		// Update tracking.
		r = h.Must(http.StatusOK, http.MethodPut, base+"/"+fid, map[string]any{"tracking_number": "1Z000"}, "writer")
		if r.Data()["tracking_number"] != "1Z000" || r.Data()["tracking_company"] != "UPS" {
			t.Errorf("update %v", r.Data())
		}
		if ev := h.LastEvent("order.fulfillment_updated", id); ev["tracking_number"] != "1Z000" {
			t.Errorf("order.fulfillment_updated %v", ev)
		}
		h.expectError(404, "FULFILLMENT_NOT_FOUND", "not_found", http.MethodPut, base+"/"+unknownID, map[string]any{"tracking_number": "x"}, "writer")
		// Cancel.
		r = h.Must(http.StatusOK, http.MethodPost, base+"/"+fid2+"/cancel", nil, "writer")
		if r.Data()["status"] != "cancelled" || r.Data()["cancelled_at"] == nil {
			t.Errorf("cancel %v", r.Data())
		}
		if got := h.get(id); got["fulfillment_status"] != "partial" {
			t.Errorf("after cancel %v", got["fulfillment_status"])
		}
		h.LastEvent("order.fulfillment_cancelled", id)
		h.expectError(400, "INVALID_STATUS_TRANSITION", "validation", http.MethodPost, base+"/"+fid2+"/cancel", nil, "writer")
		h.expectError(400, "INVALID_STATUS_TRANSITION", "validation", http.MethodPut, base+"/"+fid2, map[string]any{"tracking_number": "x"}, "writer")
		h.expectError(404, "FULFILLMENT_NOT_FOUND", "not_found", http.MethodPost, base+"/"+unknownID+"/cancel", nil, "writer")
		h.expectError(404, "ORDER_NOT_FOUND", "not_found", http.MethodPost, "/api/v1/orders/"+unknownID+"/fulfillments", nil, "writer")
		h.expectError(403, 403, "auth", http.MethodPost, base, nil, "reader")
		if n := len(h.Payloads("order.fulfillment_created", id)); n != 2 {
			t.Errorf("order.fulfillment_created %d", n)
		}
	})
}

func TestNotes(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		id := h.simple(1, nil)["id"].(string)
		base := "/api/v1/orders/" + id + "/notes"
		r := h.Must(http.StatusCreated, http.MethodPost, base, map[string]any{"body": " Called the customer ", "notify_customer": true}, "staff")
		n := r.Data()
		if httpxtest.Keys(n) != "author,body,created_at,id,notify_customer,order_id" || n["body"] != "Called the customer" || n["author"] != "staff@example.com" ||
			n["notify_customer"] != true || n["order_id"] != id || n["created_at"] != "2026-03-01T10:00:00Z" {
			t.Errorf("note %v", n)
		}
		ev := h.LastEvent("order.note_created", id)
		if ev["id"] != n["id"] || ev["body"] != "Called the customer" || ev["order_number"] != "1001" {
			t.Errorf("order.note_created %v", ev)
		}
		r = h.Must(http.StatusCreated, http.MethodPost, "/api/v1/orders/1001/notes", map[string]any{"body": "second", "author": "Jo"}, "writer")
		if r.Data()["author"] != "Jo" {
			t.Errorf("author %v", r.Data()["author"])
		}
		third := h.Must(http.StatusCreated, http.MethodPost, base, map[string]any{"body": "third"}, "writer").Data()
		if third["author"] != "key:WrItEr12" {
			t.Errorf("key author %v", third["author"])
		}
		l := h.Must(http.StatusOK, http.MethodGet, base+"?per_page=2", nil, "reader")
		if len(l.List()) != 2 || l.List()[0]["id"] != n["id"] || l.Pagination()["total"] != float64(3) || l.Pagination()["has_next"] != true {
			t.Errorf("list %s", l.Raw)
		}
		h.expectError(400, 400, "validation", http.MethodPost, base, map[string]any{"body": "  "}, "writer")
		h.expectError(400, 400, "validation", http.MethodPost, base, map[string]any{}, "writer")
		h.Must(http.StatusNoContent, http.MethodDelete, base+"/"+third["id"].(string), nil, "writer")
		h.expectError(404, "NOTE_NOT_FOUND", "not_found", http.MethodDelete, base+"/"+third["id"].(string), nil, "writer")
		h.expectError(404, "NOTE_NOT_FOUND", "not_found", http.MethodDelete, base+"/nope", nil, "writer")
		other := h.simple(1, nil)["id"].(string)
		h.expectError(404, "NOTE_NOT_FOUND", "not_found", http.MethodDelete, "/api/v1/orders/"+other+"/notes/"+n["id"].(string), nil, "writer")
		h.expectError(404, "ORDER_NOT_FOUND", "not_found", http.MethodGet, "/api/v1/orders/"+unknownID+"/notes", nil, "reader")
		if h.Count("orders_notes", "order_id = ?", id) != 2 || len(h.Payloads("order.note_created", id)) != 3 {
			t.Errorf("notes %d", h.Count("orders_notes", "order_id = ?", id))
		}
	})
}
