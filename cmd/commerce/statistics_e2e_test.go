package main

import (
	"context"
	"net/http"
	"testing"
	"time"

	identityapi "github.com/gocommerce/commerce/modules/identity/api"
	"github.com/gocommerce/commerce/platform/jobs"
)

// taskRecorder is a jobs.Registry that keeps the handlers (the test runs them).
type taskRecorder map[string]jobs.Handler

func (r taskRecorder) Handle(task string, h jobs.Handler) { r[task] = h }
func (r taskRecorder) Every(string, time.Duration)        {}

// Orders placed through the API reach the statistics by their events: the dashboard
// and the products report count them (the cancelled one only by status), and after the
// segments job a coupon for the vip segment applies to the vip customer's cart only.
func TestStatisticsEndToEnd(t *testing.T) {
	onEachEngine(t, nil, func(t *testing.T, ta *testApp) {
		ctx := context.Background()
		admin := ta.adminAuth()
		drain := func() { ta.relay(5) }
		pid := ta.createdID("/api/v1/products", map[string]any{"title": "Mug", "price": "10.00", "cost_price": "4.00", "currency": "USD",
			"inventory_quantity": 100}, admin...)
		register := func(email string) (string, []string) {
			t.Helper()
			s := ta.register(email)
			return s.id, bearer(s.access)
		}
		ada, adaAuth := register("ada@example.com")
		bob, bobAuth := register("bob@example.com")
		order := func(body map[string]any) string {
			t.Helper()
			return ta.createdID("/api/v1/orders", body, admin...)
		}
		order(map[string]any{"customer_id": ada, "line_items": []any{map[string]any{"product_id": pid, "quantity": 2}},
			"shipping_lines": []any{map[string]any{"title": "Std", "price": "5.00"}}})
		order(map[string]any{"customer_id": bob, "line_items": []any{map[string]any{"product_id": pid, "quantity": 1}}})
		guest := order(map[string]any{"email": "g@example.com", "line_items": []any{map[string]any{"product_id": pid, "quantity": 4}}})
		ta.must(http.StatusOK, "POST", "/api/v1/orders/"+guest+"/cancel", map[string]any{}, admin...)
		drain()

		d := ta.must(http.StatusOK, "GET", "/api/v1/admin/statistics/dashboard", nil, admin...)
		data := d.JSON(t)["data"].(map[string]any)
		sales := data["sales"].(map[string]any)
		if rev := sales["total_revenue"].(map[string]any); rev["amount"] != "35.00" || rev["currency"] != "USD" {
			t.Errorf("revenue %v", rev)
		}
		if n := sales["total_orders"].(map[string]any); n["count"] != float64(2) {
			t.Errorf("orders %v", n)
		}
		if s := data["orders"].(map[string]any)["by_status"].(map[string]any); s["cancelled"] != float64(1) || s["pending"] != float64(2) {
			t.Errorf("by_status %v", s)
		}
		top := data["products"].(map[string]any)["top_selling"].([]any)
		if len(top) != 1 || top[0].(map[string]any)["quantity_sold"] != float64(3) || top[0].(map[string]any)["revenue"] != "30.00" {
			t.Errorf("top_selling %v", top)
		}
		if c := data["customers"].(map[string]any); c["new_customers"] != float64(2) || c["conversion_rate"] != float64(100) {
			t.Errorf("customers %v", c)
		}
		pr := ta.do("GET", "/api/v1/admin/statistics/products", nil, admin...).JSON(t)["data"].(map[string]any)
		if tp := pr["top_products"].([]any)[0].(map[string]any); tp["profit"] != "18.00" || tp["margin"] != float64(60) || tp["title"] != "Mug" {
			t.Errorf("top product %v", tp)
		}
		_, key, err := ta.app.Identity.CreateAPIKey(ctx, identityapi.CreateAPIKeyCommand{Name: "catalog", Scopes: []string{"products:read"}})
		if err != nil {
			t.Fatal(err)
		}
		if r := ta.do("GET", "/api/v1/admin/statistics/sales", nil, "Authorization", "Bearer "+key); r.Status != http.StatusForbidden {
			t.Errorf("products:read key: %d %s", r.Status, r.Body)
		}

		// the segments job: Ada (25.00) is the top 5 percent of two buyers
		tasks := taskRecorder{}
		for _, m := range ta.app.Modules {
			if m.Name() == "statistics" {
				m.(interface{ RegisterJobs(jobs.Registry) }).RegisterJobs(tasks)
			}
		}
		if err := tasks["statistics:segments"](ctx, nil); err != nil {
			t.Fatal(err)
		}
		ta.created("/api/v1/coupons", map[string]any{"code": "VIPONLY", "type": "percentage", "value": "10", "is_active": true,
			"customer_eligibility": map[string]any{"customer_segments": []string{"vip"}}}, admin...)
		apply := func(auth []string) response {
			t.Helper()
			id, _ := ta.customerCart("", pid, 1, auth...)
			return ta.do("POST", "/api/v1/carts/"+id+"/coupon", map[string]any{"coupon_code": "VIPONLY"}, auth...)
		}
		if r := apply(adaAuth); r.Status != http.StatusOK {
			t.Errorf("vip customer: %d %s", r.Status, r.Body)
		}
		if r := apply(bobAuth); r.Status != http.StatusBadRequest {
			t.Errorf("customer outside vip: %d %s", r.Status, r.Body)
		}
	})
}
