package inventory_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gocommerce/commerce/modules/inventory/api"
	"github.com/gocommerce/commerce/modules/inventory/domain"
	"github.com/gocommerce/commerce/platform/ids"
)

const defaultLoc = domain.DefaultLocationID

func TestAdjustSetReceive(t *testing.T) {
	forEngine(t, func(t *testing.T, s *stack) {
		a := s.catalog.add("Mug", 5, domain.PolicyDeny, 2)

		// adjust: every field of the spec's answer, and the movement behind it.
		code, body := s.do("POST", "/api/v1/inventory/adjust", "writer", map[string]any{
			"product_id": a.ID, "location_id": defaultLoc, "adjustment": 10, "reason": "found",
			"notes": "found in the back", "reference": "COUNT-1",
		})
		d := data(body)
		if code != 200 || !ids.Valid(fmt.Sprint(d["movement_id"])) || d["product_id"] != a.ID || d["variant_id"] != a.variant(0) ||
			d["location_id"] != defaultLoc || d["movement_type"] != "found" || num(d["adjustment"]) != 10 ||
			num(d["quantity_before"]) != 0 || num(d["quantity_after"]) != 10 || d["reason"] != "found" ||
			d["notes"] != "found in the back" || d["reference"] != "COUNT-1" || d["adjusted_by"] != "key:wr1" ||
			d["created_at"] != "2026-11-22T10:00:00Z" {
			t.Fatalf("adjust: %d %v", code, body)
		}
		events := s.Events(api.EventAdjusted)
		if len(events) != 1 || events[0].Data["movement_id"] != d["movement_id"] || num(events[0].Data["quantity_after"]) != 10 ||
			events[0].AggregateID != a.ID {
			t.Fatalf("inventory.adjusted events %v", events)
		}
		if got, _ := s.catalog.total(a.variant(0)); got != 10 {
			t.Fatalf("catalog total %d, want 10", got)
		}

		s.clock.Advance(1e9)
		code, body = s.do("POST", "/api/v1/inventory/adjust", "staff", map[string]any{
			"product_id": a.ID, "variant_id": a.variant(0), "location_id": defaultLoc, "adjustment": -3, "reason": "damaged",
		})
		if d := data(body); code != 200 || d["movement_type"] != "lost" || num(d["quantity_before"]) != 10 ||
			num(d["quantity_after"]) != 7 || num(d["adjustment"]) != -3 || d["adjusted_by"] != "ops@example.com" ||
			d["created_at"] != "2026-11-22T10:00:01Z" || d["notes"] != "" || d["reference"] != "" {
			t.Fatalf("adjust down: %d %v", code, body)
		}

		// refusals: the level does not move and nothing is recorded.
		for _, tc := range []struct {
			name   string
			body   map[string]any
			status int
			code   any
			field  string
		}{
			{"below zero", map[string]any{"product_id": a.ID, "location_id": defaultLoc, "adjustment": -8, "reason": "count"}, 400, "INVENTORY_NEGATIVE", ""},
			{"zero", map[string]any{"product_id": a.ID, "location_id": defaultLoc, "adjustment": 0, "reason": "count"}, 400, float64(400), "adjustment"},
			{"no adjustment", map[string]any{"product_id": a.ID, "location_id": defaultLoc, "reason": "count"}, 400, float64(400), "adjustment"},
			{"bad reason", map[string]any{"product_id": a.ID, "location_id": defaultLoc, "adjustment": 1, "reason": "stolen"}, 400, float64(400), "reason"},
			{"no reason", map[string]any{"product_id": a.ID, "location_id": defaultLoc, "adjustment": 1}, 400, float64(400), "reason"},
			{"no product", map[string]any{"location_id": defaultLoc, "adjustment": 1, "reason": "count"}, 400, float64(400), "product_id"},
			{"no location", map[string]any{"product_id": a.ID, "adjustment": 1, "reason": "count"}, 400, float64(400), "location_id"},
			{"bad product id", map[string]any{"product_id": "nope", "location_id": defaultLoc, "adjustment": 1, "reason": "count"}, 400, float64(400), "product_id"},
			{"unknown product", map[string]any{"product_id": ids.New(), "location_id": defaultLoc, "adjustment": 1, "reason": "count"}, 404, "PRODUCT_NOT_FOUND", ""},
			{"unknown variant", map[string]any{"product_id": a.ID, "variant_id": ids.New(), "location_id": defaultLoc, "adjustment": 1, "reason": "count"}, 404, "VARIANT_NOT_FOUND", ""},
			{"unknown location", map[string]any{"product_id": a.ID, "location_id": ids.New(), "adjustment": 1, "reason": "count"}, 404, "LOCATION_NOT_FOUND", ""},
			{"string adjustment", map[string]any{"product_id": a.ID, "location_id": defaultLoc, "adjustment": "1", "reason": "count"}, 400, float64(400), "adjustment"},
		} {
			code, body := s.do("POST", "/api/v1/inventory/adjust", "writer", tc.body)
			e, _ := body["error"].(map[string]any)
			fields, _ := e["fields"].(map[string]any)
			if code != tc.status || errCode(body) != tc.code || (tc.field != "" && fields[tc.field] == nil) {
				t.Errorf("%s: %d %v", tc.name, code, body)
			}
			if tc.code == "INVENTORY_NEGATIVE" && (num(e["status"]) != 400 || e["category"] != "validation") {
				t.Errorf("%s: envelope %v", tc.name, e)
			}
		}
		if available, _, _ := s.level(a.variant(0), defaultLoc); available != 7 {
			t.Fatalf("available after refusals %d, want 7", available)
		}
		if n := len(s.Payloads(api.EventAdjusted, "")); n != 2 {
			t.Fatalf("adjusted events %d, want 2", n)
		}

		// set (absolute) answers the adjust shape.
		code, body = s.do("POST", "/api/v1/inventory/set", "writer", map[string]any{
			"product_id": a.ID, "variant_id": a.variant(1), "location_id": defaultLoc, "quantity": 20, "reason": "count", "reference": "CC-9",
		})
		if d := data(body); code != 200 || d["variant_id"] != a.variant(1) || d["movement_type"] != "in" || num(d["adjustment"]) != 20 ||
			num(d["quantity_before"]) != 0 || num(d["quantity_after"]) != 20 || d["reason"] != "count" || d["reference"] != "CC-9" {
			t.Fatalf("set: %d %v", code, body)
		}
		code, body = s.do("POST", "/api/v1/inventory/set", "writer", map[string]any{
			"product_id": a.ID, "location_id": defaultLoc, "quantity": 4,
		})
		if d := data(body); code != 200 || d["movement_type"] != "out" || num(d["adjustment"]) != -3 ||
			num(d["quantity_before"]) != 7 || num(d["quantity_after"]) != 4 || d["reason"] != "count" {
			t.Fatalf("set down: %d %v", code, body)
		}
		code, body = s.do("POST", "/api/v1/inventory/set", "writer", map[string]any{"product_id": a.ID, "location_id": defaultLoc, "quantity": 4})
		if d := data(body); code != 200 || num(d["adjustment"]) != 0 || num(d["quantity_after"]) != 4 {
			t.Fatalf("set unchanged: %d %v", code, body)
		}
		if code, body := s.do("POST", "/api/v1/inventory/set", "writer", map[string]any{"product_id": a.ID, "location_id": defaultLoc, "quantity": -1}); code != 400 || errCode(body) != "INVENTORY_NEGATIVE" {
			t.Fatalf("set negative: %d %v", code, body)
		}
		if code, body := s.do("POST", "/api/v1/inventory/set", "writer", map[string]any{"product_id": a.ID, "location_id": defaultLoc}); code != 400 || errCode(body) != float64(400) {
			t.Fatalf("set without quantity: %d %v", code, body)
		}

		// receive
		code, body = s.do("POST", "/api/v1/inventory/receive", "writer", map[string]any{
			"product_id": a.ID, "location_id": defaultLoc, "quantity": 6, "cost_per_unit": "2.5", "reference": "PO-77", "notes": "pallet",
		})
		if d := data(body); code != 200 || !ids.Valid(fmt.Sprint(d["movement_id"])) || d["movement_type"] != "in" || num(d["quantity"]) != 6 ||
			num(d["quantity_before"]) != 4 || num(d["quantity_after"]) != 10 || d["cost_per_unit"] != "2.50" ||
			d["reference"] != "PO-77" || d["notes"] != "pallet" || d["created_at"] != "2026-11-22T10:00:01Z" ||
			d["product_id"] != a.ID || d["variant_id"] != a.variant(0) || d["location_id"] != defaultLoc {
			t.Fatalf("receive: %d %v", code, body)
		}
		received := s.Payloads(api.EventReceived, "")
		if len(received) != 1 || received[0]["cost_per_unit"] != "2.50" || num(received[0]["quantity_after"]) != 10 {
			t.Fatalf("inventory.received events %v", received)
		}
		code, body = s.do("POST", "/api/v1/inventory/receive", "writer", map[string]any{"product_id": a.ID, "location_id": defaultLoc, "quantity": 1})
		if d := data(body); code != 200 || d["cost_per_unit"] != nil || num(d["quantity_after"]) != 11 {
			t.Fatalf("receive without cost: %d %v", code, body)
		}
		for name, b := range map[string]map[string]any{
			"zero":          {"product_id": a.ID, "location_id": defaultLoc, "quantity": 0},
			"negative":      {"product_id": a.ID, "location_id": defaultLoc, "quantity": -2},
			"negative cost": {"product_id": a.ID, "location_id": defaultLoc, "quantity": 1, "cost_per_unit": "-1"},
			"bad cost":      {"product_id": a.ID, "location_id": defaultLoc, "quantity": 1, "cost_per_unit": "abc"},
			"huge cost":     {"product_id": a.ID, "location_id": defaultLoc, "quantity": 1, "cost_per_unit": "99999999999999999999"},
		} {
			code, body := s.do("POST", "/api/v1/inventory/receive", "writer", b)
			want := any("INVALID_QUANTITY")
			if strings.HasSuffix(name, " cost") {
				want = float64(400)
			}
			if code != 400 || errCode(body) != want {
				t.Errorf("receive %s: %d %v", name, code, body)
			}
		}

		// a backorder product may go below zero.
		b := s.catalog.add("Preorder", 0, domain.PolicyContinue, 1)
		code, body = s.do("POST", "/api/v1/inventory/adjust", "writer", map[string]any{"product_id": b.ID, "location_id": defaultLoc, "adjustment": -2, "reason": "other"})
		if d := data(body); code != 200 || num(d["quantity_after"]) != -2 || d["movement_type"] != "out" {
			t.Fatalf("backorder adjust: %d %v", code, body)
		}
		code, body = s.do("POST", "/api/v1/inventory/set", "writer", map[string]any{"product_id": b.ID, "location_id": defaultLoc, "quantity": -5})
		if d := data(body); code != 200 || num(d["quantity_after"]) != -5 {
			t.Fatalf("backorder set: %d %v", code, body)
		}

		// scopes
		if code, body := s.do("POST", "/api/v1/inventory/adjust", "reader", map[string]any{}); code != 403 ||
			body["error"].(map[string]any)["message"] != "Forbidden: Insufficient permissions. Required: inventory:write" {
			t.Fatalf("reader adjusting: %d %v", code, body)
		}
		if code, _ := s.do("POST", "/api/v1/inventory/set", "", map[string]any{}); code != 401 {
			t.Fatalf("anonymous set: %d", code)
		}
		if code, _ := s.do("POST", "/api/v1/inventory/receive", "other", map[string]any{}); code != 403 {
			t.Fatalf("other scope receive: %d", code)
		}

		for _, v := range []string{a.variant(0), a.variant(1), b.variant(0)} {
			s.checkLedger(v)
		}
	})
}
