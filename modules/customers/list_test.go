package customers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/httpxtest"
)

// seedList creates four customers one hour apart with different profiles and orders.
func seedList(t *testing.T, h *harness) (ada, bob, cyd, dee string) {
	t.Helper()
	ada = h.enabled("ada@example.com", map[string]any{"first_name": "Ada", "last_name": "Lovelace", "phone": "+1 555 0100 001", "tags": []string{"VIP", "early"}, "accepts_marketing": true})["id"].(string)
	h.clock.Advance(time.Hour)
	bob = h.enabled("bob@shop.test", map[string]any{"first_name": "Bob", "last_name": "Babbage", "phone": "+1 555 0100 002", "tags": []string{"vip"}})["id"].(string)
	h.clock.Advance(time.Hour)
	cyd = h.createCustomer(map[string]any{"email": "cyd@example.com", "first_name": "Cyd", "last_name": "Charisse"})["id"].(string) // invited
	h.clock.Advance(time.Hour)
	dee = h.enabled("dee@example.com", map[string]any{"first_name": "Dee", "last_name": "100% Real_Name", "tags": "early"})["id"].(string)
	// Orders: ada 2 paid (30.00), bob 1 paid (100.00), dee 1 pending.
	h.order("order.created", orderData("a1", ada, "1001", "10.00", "open", "paid", t0, t0))
	h.order("order.created", orderData("a2", ada, "1002", "20.00", "open", "paid", t0.Add(time.Minute), t0.Add(time.Minute)))
	h.order("order.created", orderData("b1", bob, "1003", "100.00", "open", "paid", t0, t0))
	h.order("order.created", orderData("d1", dee, "1004", "5.00", "open", "pending", t0, t0))
	return ada, bob, cyd, dee
}

func TestListCustomers(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		ada, bob, cyd, dee := seedList(t, h)
		list := func(query string) httpxtest.Response {
			t.Helper()
			return h.Must(200, http.MethodGet, "/api/v1/customers?"+query, nil, "reader")
		}
		same := func(query string, want ...string) {
			t.Helper()
			got := strings.Join(httpxtest.IDs(list(query).List()), ",")
			if got != strings.Join(want, ",") {
				t.Errorf("?%s: got %s, want %s", query, got, strings.Join(want, ","))
			}
		}
		// Default: newest first; summary members.
		r := list("")
		if p := r.Pagination(); p["total"] != float64(4) || p["per_page"] != float64(20) || p["current_page"] != float64(1) || p["total_pages"] != float64(1) || p["has_next"] != false {
			t.Fatalf("pagination %v", p)
		}
		if got := httpxtest.Keys(r.List()[0]); got != "accepts_marketing,average_order_value,created_at,currency,default_address,email,first_name,id,language,last_name,last_order_id,last_order_name,orders_count,phone,state,tags,total_spent,updated_at,verified_email" {
			t.Fatalf("summary members %s", got)
		}
		same("", dee, cyd, bob, ada)
		same("order=asc", ada, bob, cyd, dee)
		same("sort=total_spent", bob, ada, dee, cyd)
		same("sort=total_spent&order=asc&state=enabled", dee, ada, bob)
		same("sort=orders_count", ada, dee, bob, cyd)
		same("sort=updated_at&order=asc", ada, bob, cyd, dee)

		// Filters.
		same("email=ADA@example.com", ada)
		same("phone=%2B1-555-0100-002", bob)
		same("state=invited", cyd)
		same("state=enabled,invited&order=asc", ada, bob, cyd, dee)
		same("accepts_marketing=true", ada)
		same("accepts_marketing=false", dee, cyd, bob)
		same("tags=vip", bob, ada)
		same("tags=VIP,early", ada)
		same("tags=early", dee, ada)
		same("min_orders=2", ada)
		same("min_orders=1", dee, bob, ada)
		same("min_total_spent=30", bob, ada)
		same("min_total_spent=30.01", bob)
		same("created_after="+url.QueryEscape(t0.Add(30*time.Minute).Format(time.RFC3339)), dee, cyd, bob)
		same("created_before="+url.QueryEscape(t0.Add(90*time.Minute).Format(time.RFC3339)), bob, ada)
		same("created_after=2026-03-01&created_before=2026-03-02", dee, cyd, bob, ada)
		same("created_after=2026-03-02")
		same("q=lovelace", ada)
		same("q=ada+lovelace", ada)
		same("q=LOVE", ada)
		same("q=shop.test", bob)
		same("q=0100002", bob)
		same("q=100%25", dee)
		same("q=real_name", dee)
		same("q=%25", dee)
		same("q=_", dee)
		same("q=nobody")
		same("tags=vip&min_orders=2&accepts_marketing=true&q=ada&state=enabled", ada)

		// updated_after sees a later update.
		h.clock.Advance(time.Hour)
		h.Must(200, http.MethodPut, "/api/v1/customers/"+cyd, map[string]any{"note": "called"}, "admin")
		same("updated_after="+url.QueryEscape(t0.Add(3*time.Hour+30*time.Minute).Format(time.RFC3339)), cyd)

		// Pagination.
		r = list("per_page=3&page=2&order=asc")
		if ids := httpxtest.IDs(r.List()); len(ids) != 1 || ids[0] != dee {
			t.Errorf("page 2: %v", ids)
		}
		if p := r.Pagination(); p["total"] != float64(4) || p["total_pages"] != float64(2) || p["has_prev"] != true || p["has_next"] != false || p["per_page"] != float64(3) {
			t.Errorf("page 2 meta %v", p)
		}
		if p := list("per_page=500").Pagination(); p["per_page"] != float64(100) {
			t.Errorf("per_page cap: %v", p)
		}

		// Bad parameters name the field.
		for q, field := range map[string]string{
			"page=0": "page", "per_page=x": "per_page", "state=frozen": "state", "accepts_marketing=maybe": "accepts_marketing",
			"min_orders=-1": "min_orders", "min_total_spent=abc": "min_total_spent", "min_total_spent=1e30": "min_total_spent", "created_after=yesterday": "created_after",
			"created_before=1": "created_before", "updated_after=x": "updated_after", "sort=name": "sort", "order=up": "order",
			"phone=12": "phone",
		} {
			r := h.Do(http.MethodGet, "/api/v1/customers?"+q, nil, "admin")
			assertError(t, r, 400, 400, "validation")
			if r.Fields()[field] == nil {
				t.Errorf("?%s: fields %v", q, r.Fields())
			}
		}

		// Only API keys and staff list customers.
		r = h.Do(http.MethodGet, "/api/v1/customers", nil, "cust:"+ada)
		if assertError(t, r, 403, 403, "auth"); !strings.HasPrefix(r.Err()["message"].(string), "Forbidden: Insufficient permissions. Required: customers:read") {
			t.Errorf("403 message %v", r.Err()["message"])
		}
		assertError(t, h.Do(http.MethodGet, "/api/v1/customers", nil, "orders"), 403, 403, "auth")
		h.Must(200, http.MethodGet, "/api/v1/customers", nil, "staff")
	})
}

func TestSearchCustomers(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		ada, bob, cyd, dee := seedList(t, h)
		search := func(body map[string]any, want ...string) {
			t.Helper()
			r := h.Must(200, http.MethodPost, "/api/v1/customers/search", body, "reader")
			if got := strings.Join(httpxtest.IDs(r.List()), ","); got != strings.Join(want, ",") {
				t.Errorf("%v: got %s, want %s", body, got, strings.Join(want, ","))
			}
			if p := r.Pagination(); p["total"] != float64(len(want)) && body["per_page"] == nil {
				t.Errorf("%v: total %v", body, p["total"])
			}
		}
		search(map[string]any{}, dee, cyd, bob, ada)
		search(map[string]any{"query": "lovelace"}, ada)
		search(map[string]any{"query": "example.com"}, dee, cyd, ada)
		search(map[string]any{"query": "tag:vip"}, bob, ada)
		search(map[string]any{"query": "state:invited"}, cyd)
		search(map[string]any{"query": "email:shop first_name:bo"}, bob)
		search(map[string]any{"query": "last_name:\"100% real\""}, dee)
		search(map[string]any{"query": "accepts_marketing:true"}, ada)
		search(map[string]any{"query": "phone:0100001"}, ada)
		search(map[string]any{"filters": map[string]any{"accepts_marketing": false, "min_orders": 1}}, dee, bob)
		search(map[string]any{"filters": map[string]any{"tags": []string{"vip"}}, "sort": map[string]any{"field": "total_spent", "order": "desc"}}, bob, ada)
		search(map[string]any{"filters": map[string]any{"tags": "early"}, "sort": map[string]any{"field": "created_at", "order": "asc"}}, ada, dee)
		search(map[string]any{"query": "example", "filters": map[string]any{"min_total_spent": "1", "state": "enabled"}}, ada)
		search(map[string]any{"sort": map[string]any{"field": "orders_count"}, "per_page": 2}, ada, dee)

		r := h.Must(200, http.MethodPost, "/api/v1/customers/search?per_page=1&page=3", map[string]any{"sort": map[string]any{"order": "asc"}}, "reader")
		if ids := httpxtest.IDs(r.List()); len(ids) != 1 || ids[0] != cyd || r.Pagination()["current_page"] != float64(3) {
			t.Errorf("query-string paging: %v %v", ids, r.Pagination())
		}
		for body, field := range map[string]map[string]any{
			"sort.field":         {"sort": map[string]any{"field": "name"}},
			"sort.order":         {"sort": map[string]any{"order": "sideways"}},
			"filters.min_orders": {"filters": map[string]any{"min_orders": -1}},
			"filters.state":      {"filters": map[string]any{"state": "frozen"}},
			"query":              {"query": "state:frozen"},
			"page":               {"page": 0},
		} {
			r := h.Do(http.MethodPost, "/api/v1/customers/search", field, "admin")
			assertError(t, r, 400, 400, "validation")
			if r.Fields()[body] == nil {
				t.Errorf("%s: fields %v", body, r.Fields())
			}
		}
		assertError(t, h.Do(http.MethodPost, "/api/v1/customers/search", map[string]any{"filters": map[string]any{"min_orders": "many"}}, "admin"), 400, 400, "validation")
		assertError(t, h.Do(http.MethodPost, "/api/v1/customers/search", map[string]any{}, "cust:"+ada), 403, 403, "auth")
		assertError(t, h.Do(http.MethodPost, "/api/v1/customers/search", map[string]any{}, "orders"), 403, 403, "auth")
	})
}
