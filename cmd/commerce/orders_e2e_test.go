package main

import (
	"net/http"
	"testing"
)

// Orders meet catalog, inventory, payments and customers as wired in production.
func TestOrdersEndToEnd(t *testing.T) {
	onEachEngine(t, nil, func(t *testing.T, ta *testApp) {
		auth := ta.adminAuth()
		drain := func() { ta.relay(5) }
		pid := ta.createdID("/api/v1/products", map[string]any{"title": "Mug", "price": "10.00", "currency": "USD", "inventory_quantity": 5, "weight": "300", "weight_unit": "g"}, auth...)
		drain()
		cid := ta.createdID("/api/v1/customers", map[string]any{"email": "ada@example.com", "first_name": "Ada"}, auth...)
		order := ta.created("/api/v1/orders", map[string]any{"customer_id": cid, "inventory_behaviour": "decrement_obeying_policy",
			"line_items": []any{map[string]any{"product_id": pid, "quantity": 2}}, "shipping_lines": []any{map[string]any{"title": "Std", "price": "5.00"}}}, auth...)
		oid := order["id"].(string)
		if order["total_price"] != "25.00" || order["email"] != "ada@example.com" || order["total_weight"] != "0.600" || order["order_number"] != "1001" {
			t.Errorf("order %v", order)
		}
		// level checks the product's available stock after what.
		level := func(want float64, what string) {
			t.Helper()
			lvl := ta.do("GET", "/api/v1/inventory/"+pid, nil, auth...)
			if dataOf(t, lvl)["total_available"] != want {
				t.Errorf("level %s %s", what, lvl.Body)
			}
		}
		level(3, "after the order")
		short := ta.do("POST", "/api/v1/orders", map[string]any{"customer_id": cid, "inventory_behaviour": "decrement_obeying_policy",
			"line_items": []any{map[string]any{"product_id": pid, "quantity": 4}}}, auth...)
		if e := errorOf(t, short); short.Status != 400 || e["code"] != "INSUFFICIENT_INVENTORY" {
			t.Errorf("short %d %s", short.Status, short.Body)
		}
		ignID := ta.createdID("/api/v1/orders", map[string]any{"email": "g@example.com", "inventory_behaviour": "decrement_ignoring_policy",
			"line_items": []any{map[string]any{"product_id": pid, "quantity": 4}}}, auth...)
		level(0, "after ignoring")
		ta.must(http.StatusOK, "POST", "/api/v1/orders/"+ignID+"/cancel", map[string]any{"restock": true}, auth...)
		level(3, "after cancel restock")
		if r := ta.do("DELETE", "/api/v1/products/"+pid, nil, auth...); r.Status != http.StatusConflict {
			t.Errorf("delete product with orders %d %s", r.Status, r.Body)
		}
		pay := ta.do("POST", "/api/v1/payments", map[string]any{"gateway_id": "test", "amount": "25.00", "currency": "USD", "order_id": oid,
			"payment_method":  map[string]any{"type": "card", "card": map[string]any{"number": "4242424242424242", "exp_month": 12, "exp_year": 2035, "cvc": "123"}},
			"idempotency_key": "k1"}, auth...)
		if pay.Status != 200 && pay.Status != 201 {
			t.Fatalf("pay %d %s", pay.Status, pay.Body)
		}
		drain()
		got := dataOf(t, ta.do("GET", "/api/v1/orders/"+oid+"?include=transactions", nil, auth...))
		if got["financial_status"] != "paid" {
			t.Fatalf("after payment %v", got)
		}
		cust := ta.do("GET", "/api/v1/customers/"+cid+"?include=orders", nil, auth...)
		cd := dataOf(t, cust)
		if cd["orders_count"] != float64(1) || cd["total_spent"] != "25.00" || cd["last_order_name"] != "#1001" {
			t.Errorf("customer stats %s", cust.Body)
		}
		hist := ta.do("GET", "/api/v1/customers/"+cid+"/orders", nil, auth...)
		if hist.Status != 200 || len(hist.JSON(t)["data"].([]any)) != 1 {
			t.Errorf("history %d %s", hist.Status, hist.Body)
		}
		li := got["line_items"].([]any)[0].(map[string]any)["id"].(string)
		ta.created("/api/v1/orders/"+oid+"/refunds", map[string]any{"refund_line_items": []any{map[string]any{"line_item_id": li, "quantity": 1, "restock": true}}}, auth...)
		drain()
		got = dataOf(t, ta.do("GET", "/api/v1/orders/"+oid, nil, auth...))
		if got["financial_status"] != "partially_refunded" || got["total_refunded"] != "10.00" {
			t.Errorf("after refund %v %v", got["financial_status"], got["total_refunded"])
		}
		level(4, "after restock")
		if r := ta.do("DELETE", "/api/v1/customers/"+cid, nil, auth...); r.Status != http.StatusConflict {
			t.Errorf("delete customer with orders %d %s", r.Status, r.Body)
		}
		if r := ta.do("DELETE", "/api/v1/customers/"+cid+"?anonymize_orders=true", nil, auth...); r.Status != http.StatusNoContent {
			t.Errorf("delete customer anonymize %d %s", r.Status, r.Body)
		}
		got = dataOf(t, ta.do("GET", "/api/v1/orders/"+oid, nil, auth...))
		if got["customer_id"] != nil || got["email"] != "" {
			t.Errorf("anonymized %v %v", got["customer_id"], got["email"])
		}
	})
}
