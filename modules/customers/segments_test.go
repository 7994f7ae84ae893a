package customers_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/ids"
)

// TestSegments creates segments over every kind of field and checks their members on
// the engine's SQL, the API's validation, and that values never reach the SQL text.
func TestSegments(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		ada, bob, cyd, dee := seedList(t, h) // created t0, +1h, +2h, +3h; clock at t0+3h
		h.order("order.created", orderData(ids.New(), bob, "1005", "0.01", "open", "paid", t0.Add(48*time.Hour), t0.Add(48*time.Hour)))
		h.clock.Advance(72 * time.Hour) // now t0+75h

		mkSegment := func(name string, query map[string]any) string {
			t.Helper()
			r := h.Must(201, http.MethodPost, "/api/v1/customers/segments", map[string]any{"name": name, "query": query}, "admin")
			d := r.Data()
			if httpxtest.Keys(d) != "created_at,id,name,query,updated_at" || d["name"] != name {
				t.Fatalf("segment %s", r.Raw)
			}
			return d["id"].(string)
		}
		members := func(id, query string, want ...string) {
			t.Helper()
			r := h.Must(200, http.MethodGet, "/api/v1/customers/segments/"+id+"/customers"+query, nil, "reader")
			if got := strings.Join(httpxtest.IDs(r.List()), ","); got != strings.Join(want, ",") {
				t.Errorf("segment %s%s: got %s, want %s", id, query, got, strings.Join(want, ","))
			}
			if r.Pagination()["total"] != float64(len(want)) && !strings.Contains(query, "per_page") {
				t.Errorf("total %v", r.Pagination()["total"])
			}
		}
		cases := []struct {
			query map[string]any
			want  []string
		}{
			{map[string]any{"orders_count": map[string]any{"gte": 2}}, []string{bob, ada}},
			{map[string]any{"orders_count": map[string]any{"gte": 1, "lte": 1}}, []string{dee}},
			{map[string]any{"orders_count": map[string]any{"in": []int{0, 1}}}, []string{dee, cyd}},
			{map[string]any{"orders_count": 0}, []string{cyd}},
			{map[string]any{"total_spent": map[string]any{"gte": "100.01"}}, []string{bob}},
			{map[string]any{"total_spent": map[string]any{"gte": 30, "lte": 30}}, []string{ada}},
			{map[string]any{"total_spent": map[string]any{"eq": "0"}}, []string{dee, cyd}},
			{map[string]any{"tags": map[string]any{"contains": "VIP"}}, []string{bob, ada}},
			{map[string]any{"tags": map[string]any{"in": []string{"early", "nothing"}}}, []string{dee, ada}},
			{map[string]any{"tags": map[string]any{"contains": "vip"}, "accepts_marketing": map[string]any{"eq": false}}, []string{bob}},
			{map[string]any{"accepts_marketing": true}, []string{ada}},
			{map[string]any{"state": map[string]any{"in": []string{"invited", "declined"}}}, []string{cyd}},
			{map[string]any{"state": "enabled", "email": map[string]any{"contains": "EXAMPLE"}}, []string{dee, ada}},
			{map[string]any{"email": map[string]any{"in": []string{"bob@shop.test", "CYD@example.com"}}}, []string{cyd, bob}},
			{map[string]any{"first_name": map[string]any{"contains": "y"}}, []string{cyd}},
			{map[string]any{"last_name": map[string]any{"contains": "100%"}}, []string{dee}},
			{map[string]any{"phone": map[string]any{"eq": "+1 555 0100 001"}}, []string{ada}},
			{map[string]any{"created_at": map[string]any{"gte": t0.Add(90 * time.Minute).Format(time.RFC3339)}}, []string{dee, cyd}},
			{map[string]any{"created_at": map[string]any{"lte": "2026-03-01T11:00:00Z"}}, []string{bob, ada}},
			{map[string]any{"created_at": map[string]any{"gte": "-3d"}}, []string{dee}},                // now-72h = t0+3h, inclusive
			{map[string]any{"last_order_at": map[string]any{"gte": "-2d"}}, []string{bob}},             // bob's order at t0+48h
			{map[string]any{"last_order_at": map[string]any{"lte": "2026-03-01"}}, nil},                // midnight: none before
			{map[string]any{"last_order_at": map[string]any{"lte": "2026-03-02"}}, []string{dee, ada}}, // never-ordered cyd excluded
			{map[string]any{"marketing_opt_in_at": map[string]any{"gte": "2026-01-01"}}, []string{ada}},
			{map[string]any{"verified_email": true, "tax_exempt": false, "currency": map[string]any{"in": []string{"usd", "eur"}}}, nil},
			{map[string]any{"language": map[string]any{"eq": "en"}}, nil},
			// Values are bound parameters: injection attempts match nothing and break nothing.
			{map[string]any{"tags": map[string]any{"contains": "x' OR '1'='1"}}, nil},
			{map[string]any{"email": map[string]any{"eq": "a@b.c'); DROP TABLE customers; --"}}, nil},
		}
		for i, c := range cases {
			id := mkSegment(fmt.Sprintf("segment %02d", i), c.query)
			members(id, "", c.want...)
		}
		if n := h.Count("customers", "1 = 1"); n != 4 {
			t.Fatalf("customers table: %d rows", n)
		}

		vip := mkSegment("VIPs", map[string]any{"tags": map[string]any{"contains": "vip"}})
		members(vip, "?sort=total_spent&order=asc", ada, bob)
		members(vip, "?per_page=1&page=2", ada)
		assertError(t, h.Do(http.MethodGet, "/api/v1/customers/segments/"+vip+"/customers?sort=name", nil, "admin"), 400, 400, "validation")

		// api.Segments answers membership now.
		var segs api.Segments = h.svc
		if in, err := segs.InSegment(context.Background(), vip, bob); err != nil || !in {
			t.Fatalf("InSegment(bob) = %v, %v", in, err)
		}
		if in, err := segs.InSegment(context.Background(), vip, cyd); err != nil || in {
			t.Fatalf("InSegment(cyd) = %v, %v", in, err)
		}
		if _, err := segs.InSegment(context.Background(), ids.New(), bob); !isErr(err, api.ErrSegmentNotFound) {
			t.Fatalf("unknown segment: %v", err)
		}

		// Get, list (by name), delete.
		d := h.Must(200, http.MethodGet, "/api/v1/customers/segments/"+vip, nil, "reader").Data()
		if d["name"] != "VIPs" || d["query"].(map[string]any)["tags"].(map[string]any)["contains"] != "vip" {
			t.Fatalf("get %v", d)
		}
		r := h.Must(200, http.MethodGet, "/api/v1/customers/segments?per_page=2", nil, "reader")
		if r.Pagination()["total"] != float64(len(cases)+1) || len(r.List()) != 2 || r.List()[0]["name"] != "segment 00" {
			t.Fatalf("list %s", r.Raw)
		}
		h.Must(204, http.MethodDelete, "/api/v1/customers/segments/"+vip, nil, "writer")
		assertError(t, h.Do(http.MethodGet, "/api/v1/customers/segments/"+vip, nil, "admin"), 404, "SEGMENT_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodDelete, "/api/v1/customers/segments/"+vip, nil, "admin"), 404, "SEGMENT_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodGet, "/api/v1/customers/segments/"+vip+"/customers", nil, "admin"), 404, "SEGMENT_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodGet, "/api/v1/customers/segments/nope", nil, "admin"), 404, "SEGMENT_NOT_FOUND", "not_found")

		// Validation: names are unique (any case); fields and operators are whitelisted.
		assertError(t, h.Do(http.MethodPost, "/api/v1/customers/segments", map[string]any{"name": "SEGMENT 01", "query": map[string]any{"orders_count": 1}}, "admin"), 409, "SEGMENT_NAME_TAKEN", "conflict")
		for field, body := range map[string]map[string]any{
			"name":                         {"query": map[string]any{"orders_count": 1}},
			"query":                        {"name": "q", "query": map[string]any{}},
			"query.password_hash":          {"name": "q", "query": map[string]any{"password_hash": map[string]any{"eq": "x"}}},
			"query.email) OR (1=1":         {"name": "q", "query": map[string]any{"email) OR (1=1": map[string]any{"eq": "x"}}},
			"query.orders_count.like":      {"name": "q", "query": map[string]any{"orders_count": map[string]any{"like": 1}}},
			"query.total_spent.gte":        {"name": "q", "query": map[string]any{"total_spent": map[string]any{"gte": "a lot"}}},
			"query.total_spent.lte":        {"name": "q", "query": map[string]any{"total_spent": map[string]any{"lte": "1e30"}}},
			"query.created_at.gte":         {"name": "q", "query": map[string]any{"created_at": map[string]any{"gte": "last week"}}},
			"query.accepts_marketing.eq":   {"name": "q", "query": map[string]any{"accepts_marketing": "yes"}},
			"query.state.in":               {"name": "q", "query": map[string]any{"state": map[string]any{"in": "enabled"}}},
			"query.orders_count.gte":       {"name": "q", "query": map[string]any{"orders_count": map[string]any{"gte": 1.5}}},
			"query.tags.contains":          {"name": "q", "query": map[string]any{"tags": map[string]any{"contains": 5}}},
			"query.last_order_at.contains": {"name": "q", "query": map[string]any{"last_order_at": map[string]any{"contains": "x"}}},
		} {
			r := h.Do(http.MethodPost, "/api/v1/customers/segments", body, "admin")
			if assertError(t, r, 400, 400, "validation"); r.Fields()[field] == nil {
				t.Errorf("%s: fields %v", field, r.Fields())
			}
		}

		// Segments are staff work.
		me := "cust:" + ada
		assertError(t, h.Do(http.MethodGet, "/api/v1/customers/segments", nil, me), 403, 403, "auth")
		assertError(t, h.Do(http.MethodPost, "/api/v1/customers/segments", map[string]any{"name": "mine", "query": map[string]any{"orders_count": 1}}, me), 403, 403, "auth")
		assertError(t, h.Do(http.MethodPost, "/api/v1/customers/segments", map[string]any{"name": "mine", "query": map[string]any{"orders_count": 1}}, "reader"), 403, 403, "auth")
		assertError(t, h.Do(http.MethodGet, "/api/v1/customers/segments", nil, "orders"), 403, 403, "auth")
	})
}
