package main

import (
	"net/http"
	"testing"
)

// Orders meet catalog, inventory, payments and customers as wired in production.
func TestOrdersEndToEnd(t *testing.T) {
	t.Parallel()
	onEachEngine(t, nil, func(t *testing.T, ta *testApp) {
		auth := ta.adminAuth()
		drain := func() { ta.relay(5) }
		p := ta.do("POST", "/api/v1/products", map[string]any{"title": "Mug", "price": "10.00", "currency": "USD", "inventory_quantity": 5, "weight": "300", "weight_unit": "g"}, auth...)
		if p.Status != 201 {
			t.Fatalf("product %d %s", p.Status, p.Body)
		}
		pid := p.JSON(t)["data"].(map[string]any)["id"].(string)
		drain()
		c := ta.do("POST", "/api/v1/customers", map[string]any{"email": "ada@example.com", "first_name": "Ada"}, auth...)
		if c.Status != 201 {
			t.Fatalf("customer %d %s", c.Status, c.Body)
		}
		cid := c.JSON(t)["data"].(map[string]any)["id"].(string)
		o := ta.do("POST", "/api/v1/orders", map[string]any{"customer_id": cid, "inventory_behaviour": "decrement_obeying_policy",
			"line_items": []any{map[string]any{"product_id": pid, "quantity": 2}}, "shipping_lines": []any{map[string]any{"title": "Std", "price": "5.00"}}}, auth...)
		if o.Status != 201 {
			t.Fatalf("order %d %s", o.Status, o.Body)
		}
		order := o.JSON(t)["data"].(map[string]any)
		oid := order["id"].(string)
		if order["total_price"] != "25.00" || order["email"] != "ada@example.com" || order["total_weight"] != "0.600" || order["order_number"] != "1001" {
			t.Errorf("order %s", o.Body)
		}
		lvl := ta.do("GET", "/api/v1/inventory/"+pid, nil, auth...)
		if lvl.JSON(t)["data"].(map[string]any)["total_available"] != float64(3) {
			t.Errorf("level %s", lvl.Body)
		}
		short := ta.do("POST", "/api/v1/orders", map[string]any{"customer_id": cid, "inventory_behaviour": "decrement_obeying_policy",
			"line_items": []any{map[string]any{"product_id": pid, "quantity": 4}}}, auth...)
		if e := errorOf(t, short); short.Status != 400 || e["code"] != "INSUFFICIENT_INVENTORY" {
			t.Errorf("short %d %s", short.Status, short.Body)
		}
		ign := ta.do("POST", "/api/v1/orders", map[string]any{"email": "g@example.com", "inventory_behaviour": "decrement_ignoring_policy",
			"line_items": []any{map[string]any{"product_id": pid, "quantity": 4}}}, auth...)
		if ign.Status != 201 {
			t.Fatalf("ignoring %d %s", ign.Status, ign.Body)
		}
		lvl = ta.do("GET", "/api/v1/inventory/"+pid, nil, auth...)
		if lvl.JSON(t)["data"].(map[string]any)["total_available"] != float64(0) {
			t.Errorf("level after ignoring %s", lvl.Body)
		}
		ignID := ign.JSON(t)["data"].(map[string]any)["id"].(string)
		if r := ta.do("POST", "/api/v1/orders/"+ignID+"/cancel", map[string]any{"restock": true}, auth...); r.Status != 200 {
			t.Fatalf("cancel %d %s", r.Status, r.Body)
		}
		lvl = ta.do("GET", "/api/v1/inventory/"+pid, nil, auth...)
		if lvl.JSON(t)["data"].(map[string]any)["total_available"] != float64(3) {
			t.Errorf("level after cancel restock %s", lvl.Body)
		}
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
		got := ta.do("GET", "/api/v1/orders/"+oid+"?include=transactions", nil, auth...).JSON(t)["data"].(map[string]any)
		if got["financial_status"] != "paid" {
			t.Fatalf("after payment %v", got)
		}
		cust := ta.do("GET", "/api/v1/customers/"+cid+"?include=orders", nil, auth...)
		cd := cust.JSON(t)["data"].(map[string]any)
		if cd["orders_count"] != float64(1) || cd["total_spent"] != "25.00" || cd["last_order_name"] != "#1001" {
			t.Errorf("customer stats %s", cust.Body)
		}
		hist := ta.do("GET", "/api/v1/customers/"+cid+"/orders", nil, auth...)
		if hist.Status != 200 || len(hist.JSON(t)["data"].([]any)) != 1 {
			t.Errorf("history %d %s", hist.Status, hist.Body)
		}
		li := got["line_items"].([]any)[0].(map[string]any)["id"].(string)
		ref := ta.do("POST", "/api/v1/orders/"+oid+"/refunds", map[string]any{"refund_line_items": []any{map[string]any{"line_item_id": li, "quantity": 1, "restock": true}}}, auth...)
		if ref.Status != 201 {
			t.Fatalf("refund %d %s", ref.Status, ref.Body)
		}
		drain()
		got = ta.do("GET", "/api/v1/orders/"+oid, nil, auth...).JSON(t)["data"].(map[string]any)
		if got["financial_status"] != "partially_refunded" || got["total_refunded"] != "10.00" {
			t.Errorf("after refund %v %v", got["financial_status"], got["total_refunded"])
		}
		lvl = ta.do("GET", "/api/v1/inventory/"+pid, nil, auth...)
		if lvl.JSON(t)["data"].(map[string]any)["total_available"] != float64(4) {
			t.Errorf("level after restock %s", lvl.Body)
		}
		if r := ta.do("DELETE", "/api/v1/customers/"+cid, nil, auth...); r.Status != http.StatusConflict {
			t.Errorf("delete customer with orders %d %s", r.Status, r.Body)
		}
		if r := ta.do("DELETE", "/api/v1/customers/"+cid+"?anonymize_orders=true", nil, auth...); r.Status != http.StatusNoContent {
			t.Errorf("delete customer anonymize %d %s", r.Status, r.Body)
		}
		got = ta.do("GET", "/api/v1/orders/"+oid, nil, auth...).JSON(t)["data"].(map[string]any)
		if got["customer_id"] != nil || got["email"] != "" {
			t.Errorf("anonymized %v %v", got["customer_id"], got["email"])
		}
	})
}
