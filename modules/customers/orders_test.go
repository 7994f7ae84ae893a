package customers_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/ids"
)

// TestOrderStats feeds order events (the payload documented for the orders module)
// and checks the statistics fields, idempotency and ordering.
func TestOrderStats(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		ada := h.enabled("ada@example.com", nil)["id"].(string)
		bob := h.enabled("bob@example.com", nil)["id"].(string)
		stats := func(id string) map[string]any {
			t.Helper()
			return h.Must(200, http.MethodGet, "/api/v1/customers/"+id, nil, "admin").Data()
		}
		check := func(id string, count float64, spent, avg string, lastID any, lastName any) {
			t.Helper()
			d := stats(id)
			if d["orders_count"] != count || d["total_spent"] != spent || d["average_order_value"] != avg || d["last_order_id"] != lastID || d["last_order_name"] != lastName {
				t.Fatalf("stats: count %v spent %v avg %v last %v %v; want %v %v %v %v %v", d["orders_count"], d["total_spent"], d["average_order_value"],
					d["last_order_id"], d["last_order_name"], count, spent, avg, lastID, lastName)
			}
		}
		o1, o2 := ids.New(), ids.New()
		h.order("order.created", orderData(o1, ada, "1001", "19.99", "open", "pending", t0, t0))
		check(ada, 1, "0.00", "0.00", o1, "#1001")
		h.order("order.payment_received", orderData(o1, ada, "1001", "19.99", "open", "paid", t0, t0.Add(time.Minute)))
		check(ada, 1, "19.99", "19.99", o1, "#1001")
		// Re-delivery of the same event changes nothing.
		for range 3 {
			h.order("order.payment_received", orderData(o1, ada, "1001", "19.99", "open", "paid", t0, t0.Add(time.Minute)))
		}
		check(ada, 1, "19.99", "19.99", o1, "#1001")
		h.order("order.created", orderData(o2, ada, "1002", "10.00", "open", "paid", t0.Add(time.Hour), t0.Add(time.Hour)))
		check(ada, 2, "29.99", "15.00", o2, "#1002")
		// A stale version (older updated_at) is ignored.
		h.order("order.updated", orderData(o1, ada, "1001", "19.99", "open", "pending", t0, t0))
		check(ada, 2, "29.99", "15.00", o2, "#1002")
		// Cancellation removes the order from the count and the total.
		h.order("order.cancelled", orderData(o2, ada, "1002", "10.00", "cancelled", "voided", t0.Add(time.Hour), t0.Add(2*time.Hour)))
		check(ada, 1, "19.99", "19.99", o2, "#1002")
		// An order moved to another customer updates both.
		h.order("order.updated", orderData(o1, bob, "1001", "19.99", "open", "paid", t0, t0.Add(3*time.Hour)))
		check(ada, 0, "0.00", "0.00", o2, "#1002")
		check(bob, 1, "19.99", "19.99", o1, "#1001")
		// Guest orders and undecodable payloads are dropped without error.
		h.order("order.created", map[string]any{"id": ids.New(), "customer_id": nil, "total_price": "5", "created_at": t0.Format(time.RFC3339)})
		for _, bad := range []string{`{"id": 1}`, `{"id":"x","customer_id":"` + ada + `","total_price":"abc","created_at":"2026-01-01T00:00:00Z"}`, `[]`} {
			if err := h.sub.HandleOrder(context.Background(), event.Event{ID: "evt_x", Type: "order.created", Data: []byte(bad)}); err != nil {
				t.Fatalf("bad payload %s: %v", bad, err)
			}
		}
		check(ada, 0, "0.00", "0.00", o2, "#1002")
		if n := h.Count("customers_order_stats", "1 = 1"); n != 2 {
			t.Fatalf("order facts: %d", n)
		}
		// The module subscribes to the order events on the bus.
		bus := events.NewBus()
		h.sub.Subscribe(bus)
		raw := `{"id":"` + ids.New() + `","order_number":"1003","customer_id":"` + ada + `","total_price":"7.5","currency":"USD","status":"open","financial_status":"paid","created_at":"2026-03-02T00:00:00Z","updated_at":"2026-03-02T00:00:00Z"}`
		if err := bus.Dispatch(context.Background(), event.Event{ID: "evt_y", Type: "order.created", Data: []byte(raw)}); err != nil {
			t.Fatal(err)
		}
		if d := stats(ada); d["orders_count"] != float64(1) || d["total_spent"] != "7.50" || d["last_order_name"] != "#1003" {
			t.Fatalf("through the bus: %v", d)
		}
	})
}

func TestOrderHistory(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		ada := h.enabled("ada@example.com", nil)["id"].(string)
		bob := h.enabled("bob@example.com", nil)["id"].(string)
		h.orders.orders[ada] = []ports_OrderSummary{orderSummary("o3", "1003"), orderSummary("o2", "1002"), orderSummary("o1", "1001")}
		base := "/api/v1/customers/" + ada + "/orders"

		r := h.Must(200, http.MethodGet, base+"?per_page=2&status=open&financial_status=paid", nil, "cust:"+ada)
		list := r.List()
		if len(list) != 2 || list[0]["order_number"] != "1003" || r.Pagination()["total"] != float64(3) || r.Pagination()["has_next"] != true {
			t.Fatalf("history: %s", r.Raw)
		}
		if httpxtest.Keys(list[0]) != "created_at,currency,email,financial_status,fulfillment_status,id,order_number,status,total_price,updated_at" || list[0]["total_price"] != "25.50" {
			t.Fatalf("order summary %v", list[0])
		}
		if h.orders.lastFilter.Status != "open" || h.orders.lastFilter.FinancialStatus != "paid" {
			t.Fatalf("filters passed to the port: %+v", h.orders.lastFilter)
		}
		if r := h.Must(200, http.MethodGet, "/api/v1/customers/"+bob+"/orders", nil, "reader"); len(r.List()) != 0 || r.Pagination()["total"] != float64(0) {
			t.Fatalf("no orders: %s", r.Raw)
		}
		for q, field := range map[string]string{"status=shipped": "status", "financial_status=free": "financial_status", "page=0": "page"} {
			r := h.Do(http.MethodGet, base+"?"+q, nil, "admin")
			if assertError(t, r, 400, 400, "validation"); r.Fields()[field] == nil {
				t.Errorf("?%s: %s", q, r.Raw)
			}
		}
		assertError(t, h.Do(http.MethodGet, base, nil, "cust:"+bob), 404, "CUSTOMER_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodGet, "/api/v1/customers/"+ids.New()+"/orders", nil, "admin"), 404, "CUSTOMER_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodGet, base, nil, "orders"), 403, 403, "auth")
	})
}

func TestDeleteCustomer(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		plain := h.enabled("plain@example.com", map[string]any{"tags": []string{"x"}, "addresses": []map[string]any{{"address1": "x", "city": "y", "country": "US"}}})["id"].(string)
		withStats := h.enabled("stats@example.com", nil)["id"].(string)
		withOrders := h.enabled("orders@example.com", nil)["id"].(string)
		h.order("order.created", orderData(ids.New(), withStats, "1001", "5", "cancelled", "voided", t0, t0))
		h.orders.has[withOrders] = true

		// Customers with orders (known to the orders module, or from order events) are refused...
		for _, id := range []string{withStats, withOrders} {
			assertError(t, h.Do(http.MethodDelete, "/api/v1/customers/"+id, nil, "admin"), 409, "CUSTOMER_HAS_ORDERS", "conflict")
			assertError(t, h.Do(http.MethodDelete, "/api/v1/customers/"+id+"?anonymize_orders=false", nil, "admin"), 409, "CUSTOMER_HAS_ORDERS", "conflict")
		}
		if _, ok := h.creds.get(t, withOrders); !ok {
			t.Fatal("a refused delete removed the login")
		}
		// ...unless anonymize_orders is given: the orders module anonymizes them.
		h.Must(204, http.MethodDelete, "/api/v1/customers/"+withOrders+"?anonymize_orders=true", nil, "staff")
		if len(h.orders.anonymized) != 1 || h.orders.anonymized[0] != withOrders {
			t.Fatalf("orders anonymized: %v", h.orders.anonymized)
		}
		h.Must(204, http.MethodDelete, "/api/v1/customers/"+withStats+"?anonymize_orders=1", nil, "writer")
		if n := h.Count("customers_order_stats", "customer_id = ?", withStats); n != 0 {
			t.Errorf("order facts left: %d", n)
		}
		if evs := h.Payloads("customer.deleted", withOrders); len(evs) != 1 || evs[0]["anonymize_orders"] != true || evs[0]["id"] != withOrders || httpxtest.Keys(evs[0]) != "anonymize_orders,deleted_at,id" {
			t.Fatalf("customer.deleted: %v", evs)
		}

		// A customer without orders goes with everything it owns.
		h.createCustomer(map[string]any{"email": "x@example.com"}) // unrelated
		h.Must(204, http.MethodDelete, "/api/v1/customers/"+plain, nil, "admin")
		for table, col := range map[string]string{"customers": "id", "customer_addresses": "customer_id", "customer_tags": "customer_id", "customers_account_tokens": "customer_id"} {
			if n := h.Count(table, col+" = ?", plain); n != 0 {
				t.Errorf("%s rows left: %d", table, n)
			}
		}
		if _, ok := h.creds.get(t, plain); ok {
			t.Error("login left")
		}
		var audit []struct{ Action, Actor, ActorKind string }
		if err := h.db.Gorm().Table("customers_privacy_audit").Where("customer_id = ?", plain).Find(&audit).Error; err != nil {
			t.Fatal(err)
		}
		if len(audit) != 1 || audit[0].Action != "delete" || audit[0].Actor != "key:AdMiN123" || audit[0].ActorKind != "api_key" {
			t.Fatalf("audit %+v", audit)
		}
		if evs := h.Payloads("customer.deleted", plain); len(evs) != 1 || evs[0]["anonymize_orders"] != false {
			t.Fatalf("customer.deleted: %v", evs)
		}
		assertError(t, h.Do(http.MethodGet, "/api/v1/customers/"+plain, nil, "admin"), 404, "CUSTOMER_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodDelete, "/api/v1/customers/"+plain, nil, "admin"), 404, "CUSTOMER_NOT_FOUND", "not_found")

		// Only staff and keys delete; bad flag.
		other := h.enabled("other@example.com", nil)["id"].(string)
		assertError(t, h.Do(http.MethodDelete, "/api/v1/customers/"+other, nil, "cust:"+other), 403, 403, "auth")
		assertError(t, h.Do(http.MethodDelete, "/api/v1/customers/"+other, nil, "reader"), 403, 403, "auth")
		r := h.Do(http.MethodDelete, "/api/v1/customers/"+other+"?anonymize_orders=perhaps", nil, "admin")
		if assertError(t, r, 400, 400, "validation"); r.Fields()["anonymize_orders"] == nil {
			t.Errorf("bad flag: %s", r.Raw)
		}
	})
}
