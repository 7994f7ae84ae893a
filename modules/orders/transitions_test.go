package orders_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/httpxtest"
)

func TestUpdateOrder(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		o := h.simple(1, map[string]any{"shipping_address": map[string]any{"city": "Berlin", "country": "DE"}})
		id := o["id"].(string)
		h.clock.Advance(time.Minute)
		r := h.Must(http.StatusOK, http.MethodPut, "/api/v1/orders/"+id, map[string]any{
			"email": "new@example.com", "note": "leave at door", "tags": []string{"rush", " Rush ", "b2b"}, "phone": "+1555",
			"shipping_address": map[string]any{"first_name": "Ada", "city": "Paris", "country": "fr"},
			"metafields":       map[string]any{"k": "v"}, "note_attributes": map[string]any{"gift": true},
			"status": "closed", "total_price": "0.01", // read-only members are ignored
		}, "writer")
		u := r.Data()
		ship, _ := u["shipping_address"].(map[string]any)
		if u["email"] != "new@example.com" || u["note"] != "leave at door" || u["phone"] != "+1555" || ship["city"] != "Paris" || ship["country"] != "FR" ||
			u["status"] != "open" || u["total_price"] != "13.50" || u["updated_at"] != "2026-03-01T10:01:00Z" || u["created_at"] != "2026-03-01T10:00:00Z" {
			t.Errorf("updated %v", u)
		}
		if tags, _ := u["tags"].([]any); len(tags) != 2 || tags[0] != "rush" || tags[1] != "b2b" {
			t.Errorf("tags %v", u["tags"])
		}
		if m, _ := u["metafields"].(map[string]any); m["k"] != "v" {
			t.Errorf("metafields %v", u["metafields"])
		}
		ev := h.LastEvent("order.updated", id)
		if ev["email"] != "new@example.com" || ev["updated_at"] != "2026-03-01T10:01:00Z" {
			t.Errorf("order.updated %v", ev)
		}
		// PATCH with null clears the address; by number works too.
		r = h.Must(http.StatusOK, http.MethodPatch, "/api/v1/orders/1001", map[string]any{"shipping_address": nil}, "admin")
		if r.Data()["shipping_address"] != nil || r.Data()["email"] != "new@example.com" {
			t.Errorf("patch %v", r.Data())
		}
		// Nothing changed: no event.
		before := len(h.Payloads("order.updated", id))
		h.Must(http.StatusOK, http.MethodPut, "/api/v1/orders/"+id, map[string]any{"note": "leave at door"}, "admin")
		if len(h.Payloads("order.updated", id)) != before {
			t.Error("an unchanged update wrote order.updated")
		}
		h.expectError(400, "INVALID_EMAIL", "validation", http.MethodPut, "/api/v1/orders/"+id, map[string]any{"email": "bad"}, "admin")
		h.expectError(400, 400, "validation", http.MethodPut, "/api/v1/orders/"+id, map[string]any{"tags": 5}, "admin")
		h.expectError(400, 400, "validation", http.MethodPut, "/api/v1/orders/"+id, map[string]any{"shipping_address": "x"}, "admin")
		h.expectError(404, "ORDER_NOT_FOUND", "not_found", http.MethodPut, "/api/v1/orders/"+unknownID, map[string]any{"note": "x"}, "admin")
		h.expectError(403, 403, "auth", http.MethodPut, "/api/v1/orders/"+id, map[string]any{"note": "x"}, "reader")
	})
}

func TestStatusTransitions(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		id := h.simple(2, nil)["id"].(string)
		post := func(path string, body any) httpxtest.Response {
			t.Helper()
			return h.Do(http.MethodPost, "/api/v1/orders/"+id+path, body, "admin")
		}
		status := func(r httpxtest.Response, want string) map[string]any {
			t.Helper()
			if r.Code != 200 || r.Data()["status"] != want {
				t.Fatalf("status %d %v, want 200 %s: %s", r.Code, r.Data()["status"], want, r.Raw)
			}
			return r.Data()
		}
		// open: reopen refused, close refused (not fulfilled).
		assertError(t, post("/reopen", nil), 400, "INVALID_STATUS_TRANSITION", "validation")
		assertError(t, post("/close", nil), 400, "INVALID_STATUS_TRANSITION", "validation")
		assertError(t, post("/cancel", map[string]any{"reason": "bored"}), 400, 400, "validation")
		// open → cancelled (reason, notify), then ORDER_ALREADY_CANCELLED, close refused.
		h.clock.Advance(time.Minute)
		c := status(post("/cancel", map[string]any{"reason": "fraudulent", "notify_customer": true}), "cancelled")
		if c["cancel_reason"] != "fraudulent" || c["cancelled_at"] != "2026-03-01T10:01:00Z" {
			t.Errorf("cancelled %v", c)
		}
		ev := h.LastEvent("order.cancelled", id)
		if ev["status"] != "cancelled" || ev["notify_customer"] != true || ev["restock"] != false || ev["cancel_reason"] != "fraudulent" {
			t.Errorf("order.cancelled %v", ev)
		}
		assertError(t, post("/cancel", nil), 409, "ORDER_ALREADY_CANCELLED", "conflict")
		assertError(t, post("/close", nil), 400, "INVALID_STATUS_TRANSITION", "validation")
		assertError(t, post("/fulfillments", nil), 409, "ORDER_ALREADY_CANCELLED", "conflict")
		// cancelled → open.
		r := status(post("/reopen", nil), "open")
		if r["cancelled_at"] != nil || r["cancel_reason"] != nil {
			t.Errorf("reopened %v", r)
		}
		h.LastEvent("order.reopened", id)
		// Default reason is other.
		if c := status(post("/cancel", nil), "cancelled"); c["cancel_reason"] != "other" {
			t.Errorf("default reason %v", c["cancel_reason"])
		}
		status(post("/reopen", nil), "open")
		// Fulfilled but unpaid: PAYMENT_REQUIRED (cancelling with fulfillments:
		// TestCancelWithFulfillments).
		h.Must(http.StatusCreated, http.MethodPost, "/api/v1/orders/"+id+"/fulfillments", map[string]any{}, "admin")
		assertError(t, post("/close", nil), 402, "PAYMENT_REQUIRED", "payment")
		h.Must(http.StatusCreated, http.MethodPost, "/api/v1/orders/"+id+"/transactions", map[string]any{"kind": "sale"}, "admin")
		h.clock.Advance(time.Minute)
		cl := status(post("/close", nil), "closed")
		if cl["closed_at"] != "2026-03-01T10:02:00Z" || cl["financial_status"] != "paid" || cl["fulfillment_status"] != "fulfilled" {
			t.Errorf("closed %v", cl)
		}
		h.LastEvent("order.closed", id)
		assertError(t, post("/close", nil), 409, "ORDER_ALREADY_CLOSED", "conflict")
		assertError(t, post("/cancel", nil), 400, "INVALID_STATUS_TRANSITION", "validation")
		assertError(t, post("/line_items", map[string]any{"product_id": prodMug, "quantity": 1}), 409, "ORDER_ALREADY_CLOSED", "conflict")
		// closed → open.
		if r := status(post("/reopen", nil), "open"); r["closed_at"] != nil {
			t.Errorf("reopened closed %v", r)
		}
		if n := len(h.Payloads("order.reopened", id)); n != 3 {
			t.Errorf("order.reopened written %d times, want 3", n)
		}
		for _, p := range []string{"/cancel", "/close", "/reopen"} {
			h.expectError(404, "ORDER_NOT_FOUND", "not_found", http.MethodPost, "/api/v1/orders/"+unknownID+p, nil, "admin")
			h.expectError(403, 403, "auth", http.MethodPost, "/api/v1/orders/"+id+p, nil, "reader")
		}
	})
}
