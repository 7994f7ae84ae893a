package inventory_test

import (
	"testing"
	"time"

	"github.com/gocommerce/commerce/modules/inventory/api"
	"github.com/gocommerce/commerce/platform/ids"
)

func TestTransferAndProductRoutes(t *testing.T) {
	forEngine(t, func(t *testing.T, s *stack) {
		berlin := s.location(map[string]any{"name": "Berlin", "code": "BER"})
		closed := s.location(map[string]any{"name": "Closed", "is_active": false})
		p := s.stocked("Chair", 1, 2, 10)
		v := p.variant(0)
		s.clock.Advance(time.Second)

		code, body := s.do("POST", "/api/v1/inventory/transfer", "writer", map[string]any{
			"product_id": p.ID, "variant_id": v, "from_location_id": defaultLoc, "to_location_id": berlin, "quantity": 4,
			"reference": "TR-1", "notes": "restock Berlin",
		})
		d := data(body)
		tid, _ := d["transfer_id"].(string)
		if code != 200 || !ids.Valid(tid) || d["product_id"] != p.ID || d["variant_id"] != v || d["from_location_id"] != defaultLoc ||
			d["to_location_id"] != berlin || num(d["quantity"]) != 4 || d["status"] != "completed" || d["reference"] != "TR-1" ||
			d["notes"] != "restock Berlin" || d["created_at"] != "2026-11-22T10:00:01Z" || d["completed_at"] != "2026-11-22T10:00:01Z" ||
			d["reason"] != "transfer" || d["transferred_by"] != "key:wr1" {
			t.Fatalf("transfer: %d %v", code, body)
		}
		if a, _, _ := s.level(v, defaultLoc); a != 6 {
			t.Fatalf("source %d", a)
		}
		if a, _, _ := s.level(v, berlin); a != 4 {
			t.Fatalf("destination %d", a)
		}
		if got, _ := s.catalog.total(v); got != 10 {
			t.Fatalf("catalog total %d, want 10 (a transfer keeps the sum)", got)
		}
		ms := s.movements(v)
		if len(ms) != 3 || ms[1].MovementType != "transfer" || ms[1].Quantity != -4 || ms[1].QuantityBefore != 10 || ms[1].QuantityAfter != 6 ||
			ms[2].MovementType != "transfer" || ms[2].Quantity != 4 || ms[2].LocationID != berlin ||
			ms[1].TransferID == nil || *ms[1].TransferID != tid || ms[2].TransferID == nil || *ms[2].TransferID != tid {
			t.Fatalf("transfer movements %+v", ms)
		}
		if evs := s.Payloads(api.EventTransferred, ""); len(evs) != 1 || evs[0]["transfer_id"] != tid || num(evs[0]["quantity"]) != 4 {
			t.Fatalf("inventory.transferred events %v", evs)
		}

		for name, tc := range map[string]struct {
			body   map[string]any
			status int
			code   any
		}{
			"more than there is": {map[string]any{"product_id": p.ID, "from_location_id": defaultLoc, "to_location_id": berlin, "quantity": 7}, 400, "INVENTORY_NEGATIVE"},
			"zero":               {map[string]any{"product_id": p.ID, "from_location_id": defaultLoc, "to_location_id": berlin, "quantity": 0}, 400, "INVALID_QUANTITY"},
			"same location":      {map[string]any{"product_id": p.ID, "from_location_id": berlin, "to_location_id": berlin, "quantity": 1}, 400, float64(400)},
			"inactive target":    {map[string]any{"product_id": p.ID, "from_location_id": defaultLoc, "to_location_id": closed, "quantity": 1}, 400, "LOCATION_INACTIVE"},
			"unknown source":     {map[string]any{"product_id": p.ID, "from_location_id": ids.New(), "to_location_id": berlin, "quantity": 1}, 404, "LOCATION_NOT_FOUND"},
			"no target":          {map[string]any{"product_id": p.ID, "from_location_id": defaultLoc, "quantity": 1}, 400, float64(400)},
			"unknown product":    {map[string]any{"product_id": ids.New(), "from_location_id": defaultLoc, "to_location_id": berlin, "quantity": 1}, 404, "PRODUCT_NOT_FOUND"},
		} {
			if code, body := s.do("POST", "/api/v1/inventory/transfer", "writer", tc.body); code != tc.status || errCode(body) != tc.code {
				t.Errorf("transfer %s: %d %v", name, code, body)
			}
		}
		if a, _, _ := s.level(v, defaultLoc); a != 6 || len(s.Payloads(api.EventTransferred, "")) != 1 {
			t.Fatalf("refused transfers changed stock: %d", a)
		}

		// product-level routes answer the same shapes.
		code, body = s.do("POST", "/api/v1/products/"+p.ID+"/inventory/adjust", "writer", map[string]any{"location_id": berlin, "adjustment": -1, "reason": "broken in transit"})
		if d := data(body); code != 200 || d["product_id"] != p.ID || d["variant_id"] != v || d["location_id"] != berlin ||
			num(d["adjustment"]) != -1 || num(d["quantity_before"]) != 4 || num(d["quantity_after"]) != 3 ||
			d["reason"] != "broken in transit" || d["movement_type"] != "out" || !ids.Valid(d["movement_id"].(string)) {
			t.Fatalf("product adjust: %d %v", code, body)
		}
		code, body = s.do("POST", "/api/v1/products/"+p.ID+"/inventory/adjust", "writer", map[string]any{"adjustment": 2})
		if d := data(body); code != 200 || d["location_id"] != defaultLoc || d["reason"] != "other" || num(d["quantity_after"]) != 8 {
			t.Fatalf("product adjust at the default location: %d %v", code, body)
		}
		code, body = s.do("POST", "/api/v1/products/"+p.ID+"/inventory/adjust", "writer", map[string]any{"adjustment": -1, "reason": "lost", "variant_id": p.variant(1)})
		if code != 400 || errCode(body) != "INVENTORY_NEGATIVE" {
			t.Fatalf("product adjust below zero: %d %v", code, body)
		}
		code, body = s.do("POST", "/api/v1/products/"+p.ID+"/inventory/set", "writer", map[string]any{"location_id": berlin, "quantity": 9, "reason": "cycle count"})
		if d := data(body); code != 200 || num(d["quantity_before"]) != 3 || num(d["quantity_after"]) != 9 || num(d["adjustment"]) != 6 ||
			d["reason"] != "cycle count" || d["movement_type"] != "in" {
			t.Fatalf("product set: %d %v", code, body)
		}
		code, body = s.do("POST", "/api/v1/products/"+p.ID+"/inventory/transfer", "writer", map[string]any{
			"from_location_id": berlin, "to_location_id": defaultLoc, "quantity": 5, "reason": "consolidate",
		})
		if d := data(body); code != 200 || d["from_location_id"] != berlin || d["to_location_id"] != defaultLoc || num(d["quantity"]) != 5 ||
			d["status"] != "completed" || d["reason"] != "consolidate" || !ids.Valid(d["transfer_id"].(string)) {
			t.Fatalf("product transfer: %d %v", code, body)
		}
		if a, _, _ := s.level(v, berlin); a != 4 {
			t.Fatalf("berlin after transfer back %d", a)
		}
		for _, path := range []string{"/adjust", "/set", "/transfer"} {
			if code, body := s.do("POST", "/api/v1/products/"+ids.New()+"/inventory"+path, "writer", map[string]any{
				"adjustment": 1, "quantity": 1, "from_location_id": defaultLoc, "to_location_id": berlin,
			}); code != 404 || errCode(body) != "PRODUCT_NOT_FOUND" {
				t.Errorf("%s unknown product: %d %v", path, code, body)
			}
			if code, body := s.do("POST", "/api/v1/products/not-a-uuid/inventory"+path, "writer", map[string]any{
				"adjustment": 1, "quantity": 1, "from_location_id": defaultLoc, "to_location_id": berlin,
			}); code != 404 || errCode(body) != "PRODUCT_NOT_FOUND" {
				t.Errorf("%s malformed product id: %d %v", path, code, body)
			}
			if code, body := s.do("POST", "/api/v1/products/"+p.ID+"/inventory"+path, "writer", map[string]any{}); code != 400 || errCode(body) != float64(400) {
				t.Errorf("%s empty body: %d %v", path, code, body)
			}
			if code, _ := s.do("POST", "/api/v1/products/"+p.ID+"/inventory"+path, "reader", map[string]any{}); code != 403 {
				t.Errorf("%s reader: %d", path, code)
			}
			if code, _ := s.do("POST", "/api/v1/products/"+p.ID+"/inventory"+path, "", map[string]any{}); code != 401 {
				t.Errorf("%s anonymous: %d", path, code)
			}
		}
		s.checkLedger(v)
		s.checkLedger(p.variant(1))
	})
}
