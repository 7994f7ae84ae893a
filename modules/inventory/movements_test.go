package inventory_test

import (
	"context"
	"testing"
	"time"

	"github.com/gocommerce/commerce/modules/inventory/api"
	"github.com/gocommerce/commerce/modules/inventory/domain"
	"github.com/gocommerce/commerce/platform/ids"
)

func TestMovementList(t *testing.T) {
	forEngine(t, func(t *testing.T, s *stack) {
		ctx := context.Background()
		berlin := s.location(map[string]any{"name": "Berlin"})
		mug := s.catalog.add("Mug", 1, domain.PolicyDeny, 1)
		yen := s.catalog.add("Teapot", 1, domain.PolicyDeny, 1)
		s.catalog.update(yen.ID, "Teapot", 1, "JPY")
		step := func(fn func() error) {
			t.Helper()
			if err := fn(); err != nil {
				t.Fatal(err)
			}
			s.clock.Advance(time.Hour)
		}
		// day 1 (2026-11-22 from 10:00): receive mug 10 (PO-1), adjust mug -1 lost, receive teapot 3 at 1500 yen
		step(func() error {
			_, err := s.svc.Receive(ctx, api.ReceiveCommand{ProductID: mug.ID, LocationID: defaultLoc, Quantity: 10, CostPerUnit: "1.255", Reference: "PO-1"})
			return err
		})
		step(func() error {
			_, err := s.svc.Adjust(ctx, api.AdjustCommand{ProductID: mug.ID, LocationID: defaultLoc, Adjustment: -1, Reason: "lost"})
			return err
		})
		step(func() error {
			_, err := s.svc.Receive(ctx, api.ReceiveCommand{ProductID: yen.ID, LocationID: berlin, Quantity: 3, CostPerUnit: "1500", Reference: "PO-2"})
			return err
		})
		// day 2: transfer 4 mugs to Berlin, adjust found +1 there
		s.clock.Advance(24 * time.Hour)
		step(func() error {
			_, err := s.svc.Transfer(ctx, api.TransferCommand{ProductID: mug.ID, FromLocationID: defaultLoc, ToLocationID: berlin, Quantity: 4, Reference: "TR-1"})
			return err
		})
		step(func() error {
			_, err := s.svc.Adjust(ctx, api.AdjustCommand{ProductID: mug.ID, LocationID: berlin, Adjustment: 1, Reason: "found", Notes: "behind shelf"})
			return err
		})
		// the product is renamed: lists show the current name
		s.catalog.update(mug.ID, "Big mug", 1, "USD")
		if err := s.svc.ProductChanged(ctx, mug.ID); err != nil {
			t.Fatal(err)
		}

		code, body := s.do("GET", "/api/v1/inventory/movements", "reader", nil)
		items := list(body)
		if code != 200 || len(items) != 6 || num(pagination(body)["total"]) != 6 {
			t.Fatalf("movements: %d %v", code, body)
		}
		newest := items[0]
		if newest["product_id"] != mug.ID || newest["product_name"] != "Big mug" || newest["variant_id"] != mug.variant(0) ||
			newest["location_id"] != berlin || newest["location_name"] != "Berlin" || num(newest["quantity"]) != 1 ||
			num(newest["quantity_before"]) != 4 || num(newest["quantity_after"]) != 5 || newest["movement_type"] != "found" ||
			newest["reason"] != "found" || newest["cost_per_unit"] != nil || newest["notes"] != "behind shelf" ||
			newest["reference"] != "" || newest["transfer_id"] != nil || newest["reservation_id"] != nil ||
			newest["created_by"] != "system" || newest["created_at"] != "2026-11-23T14:00:00Z" || !ids.Valid(newest["id"].(string)) {
			t.Fatalf("newest movement %v", newest)
		}
		oldest := items[5]
		if oldest["cost_per_unit"] != "1.255" || oldest["movement_type"] != "in" || oldest["reason"] != "received" || oldest["reference"] != "PO-1" {
			t.Fatalf("oldest movement %v", oldest)
		}
		if items[3]["cost_per_unit"] != "1500" {
			t.Fatalf("yen cost %v", items[3])
		}

		count := func(query string) int {
			t.Helper()
			code, body := s.do("GET", "/api/v1/inventory/movements?"+query, "reader", nil)
			if code != 200 {
				t.Fatalf("%s: %d %v", query, code, body)
			}
			if n := num(pagination(body)["total"]); n != len(list(body)) && len(list(body)) < 20 {
				t.Fatalf("%s: total %d but %d items", query, n, len(list(body)))
			}
			return num(pagination(body)["total"])
		}
		for query, want := range map[string]int{
			"product_id=" + mug.ID:                      5,
			"product_id=" + yen.ID:                      1,
			"variant_id=" + mug.variant(0):              5,
			"location_id=" + berlin:                     3,
			"movement_type=transfer":                    2,
			"movement_type=lost":                        1,
			"movement_type=in":                          2,
			"reference=TR-1":                            2,
			"reference=PO-1&movement_type=in":           1,
			"start_date=2026-11-23":                     3,
			"end_date=2026-11-22":                       3,
			"start_date=2026-11-22&end_date=2026-11-22": 3,
			"start_date=2026-11-22T11:00:00Z":           5,
			"end_date=2026-11-22T11:00:00Z":             2,
			"start_date=2026-11-25":                     0,
			"location_id=" + berlin + "&product_id=" + mug.ID + "&movement_type=transfer": 1,
		} {
			if got := count(query); got != want {
				t.Errorf("%s: %d movements, want %d", query, got, want)
			}
		}
		code, body = s.do("GET", "/api/v1/inventory/movements?order=asc&per_page=2&page=2&sort=created_at", "reader", nil)
		items = list(body)
		p := pagination(body)
		if code != 200 || len(items) != 2 || items[0]["reason"] != "received" || items[0]["product_id"] != yen.ID ||
			num(p["total_pages"]) != 3 || p["has_next"] != true || p["has_prev"] != true || num(p["per_page"]) != 2 {
			t.Fatalf("asc page 2: %d %v", code, body)
		}
		s.refusesQueries("/api/v1/inventory/movements", "movement_type=stolen", "sort=quantity", "order=sideways", "start_date=yesterday",
			"end_date=2026-13-01", "start_date=2026-11-23&end_date=2026-11-22", "product_id=x", "location_id=x", "per_page=0")
		if code, _ := s.do("GET", "/api/v1/inventory/movements", "other", nil); code != 403 {
			t.Fatalf("missing scope: %d", code)
		}
	})
}

func TestLocations(t *testing.T) {
	forEngine(t, func(t *testing.T, s *stack) {

		code, body := s.do("GET", "/api/v1/inventory/locations", "reader", nil)
		items := list(body)
		if code != 200 || len(items) != 1 || items[0]["id"] != defaultLoc || items[0]["name"] != "Default location" ||
			items[0]["is_default"] != true || items[0]["is_active"] != true || items[0]["code"] != "default" ||
			items[0]["created_at"] != "2026-01-01T00:00:00Z" || num(pagination(body)["total"]) != 1 {
			t.Fatalf("default location: %d %v", code, body)
		}

		s.clock.Advance(time.Minute)
		code, body = s.do("POST", "/api/v1/inventory/locations", "writer", map[string]any{
			"name": " Berlin Warehouse ", "code": "BER-1", "address1": "Hauptstr. 1", "address2": "Hof", "city": "Berlin",
			"province": "BE", "country": "de", "zip": "10115", "phone": "+49 30 1234",
		})
		d := data(body)
		if code != 201 || !ids.Valid(d["id"].(string)) || d["name"] != "Berlin Warehouse" || d["code"] != "BER-1" ||
			d["address1"] != "Hauptstr. 1" || d["address2"] != "Hof" || d["city"] != "Berlin" || d["province"] != "BE" ||
			d["country"] != "DE" || d["zip"] != "10115" || d["phone"] != "+49 30 1234" || d["is_active"] != true ||
			d["is_default"] != false || d["created_at"] != "2026-11-22T10:01:00Z" || d["updated_at"] != "2026-11-22T10:01:00Z" {
			t.Fatalf("create: %d %v", code, body)
		}
		code, body = s.do("POST", "/api/v1/inventory/locations", "writer", map[string]any{"name": "Annex", "is_active": false})
		if d := data(body); code != 201 || d["code"] != nil || d["is_active"] != false {
			t.Fatalf("create without code: %d %v", code, body)
		}
		if code, body := s.do("POST", "/api/v1/inventory/locations", "writer", map[string]any{"name": "Other", "code": "BER-1"}); code != 409 || errCode(body) != "LOCATION_CODE_TAKEN" {
			t.Fatalf("duplicate code: %d %v", code, body)
		}
		if code, body := s.do("POST", "/api/v1/inventory/locations", "writer", map[string]any{"name": "Other", "code": "default"}); code != 409 || errCode(body) != "LOCATION_CODE_TAKEN" {
			t.Fatalf("default's code: %d %v", code, body)
		}
		for name, b := range map[string]map[string]any{
			"no name":     {"code": "X"},
			"blank name":  {"name": "  "},
			"bad country": {"name": "X", "country": "Germany"},
			"not a bool":  {"name": "X", "is_active": "yes"},
		} {
			if code, body := s.do("POST", "/api/v1/inventory/locations", "writer", b); code != 400 || errCode(body) != float64(400) {
				t.Errorf("%s: %d %v", name, code, body)
			}
		}
		code, body = s.do("GET", "/api/v1/inventory/locations", "reader", nil)
		items = list(body)
		if code != 200 || len(items) != 3 || items[0]["id"] != defaultLoc || items[1]["name"] != "Annex" || items[2]["name"] != "Berlin Warehouse" {
			t.Fatalf("list: %d %v", code, body)
		}
		code, body = s.do("GET", "/api/v1/inventory/locations?is_active=false", "reader", nil)
		if items := list(body); code != 200 || len(items) != 1 || items[0]["name"] != "Annex" {
			t.Fatalf("inactive: %d %v", code, body)
		}
		code, body = s.do("GET", "/api/v1/inventory/locations?per_page=1&page=3", "reader", nil)
		if items := list(body); code != 200 || len(items) != 1 || items[0]["name"] != "Berlin Warehouse" || num(pagination(body)["total_pages"]) != 3 {
			t.Fatalf("paged: %d %v", code, body)
		}
		if code, _ := s.do("GET", "/api/v1/inventory/locations?is_active=maybe", "reader", nil); code != 400 {
			t.Fatalf("bad filter: %d", code)
		}
		if code, _ := s.do("POST", "/api/v1/inventory/locations", "reader", map[string]any{"name": "X"}); code != 403 {
			t.Fatalf("reader creating: %d", code)
		}
		if code, _ := s.do("GET", "/api/v1/inventory/locations", "", nil); code != 401 {
			t.Fatalf("anonymous: %d", code)
		}
	})
}
