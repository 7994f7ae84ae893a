package main

import (
	"testing"
)

// A shipment created for an order (built-in UPS table) shows on the order as a
// fulfillment with the shipment's tracking once the relay delivers shipment.created
// (decision 0157).
func TestShipmentTrackingOnItsOrder(t *testing.T) {
	onEachEngine(t, nil, func(t *testing.T, ta *testApp) {
		auth := ta.adminAuth()
		drain := func() { ta.relay(3) }
		pid := ta.createdID("/api/v1/products", map[string]any{"title": "Mug", "price": "10.00", "currency": "USD", "weight": "300", "weight_unit": "g"}, auth...)
		drain()
		order := ta.created("/api/v1/orders", map[string]any{"email": "ada@example.com",
			"line_items": []any{map[string]any{"product_id": pid, "quantity": 2}}}, auth...)
		oid, line := order["id"].(string), order["line_items"].([]any)[0].(map[string]any)["id"].(string)
		addr := func(zip string) map[string]any {
			return map[string]any{"name": "Ada", "address1": "1 Main St", "city": "New York", "state": "NY", "country": "US", "zip": zip}
		}
		shipment := ta.created("/api/v1/shipping/shipments", map[string]any{"order_id": oid, "carrier": "ups", "service_code": "03",
			"ship_from": addr("10001"), "ship_to": addr("10002"), "packages": []any{map[string]any{"weight": "0.6", "weight_unit": "kg",
				"items": []any{map[string]any{"line_item_id": line, "quantity": 2}}}}}, auth...)
		drain()
		got := dataOf(t, ta.do("GET", "/api/v1/orders/"+oid+"?include=fulfillments", nil, auth...))
		fs, _ := got["fulfillments"].([]any)
		if len(fs) != 1 || got["fulfillment_status"] != "fulfilled" {
			t.Fatalf("order after the shipment: %v %v", got["fulfillment_status"], fs)
		}
		f := fs[0].(map[string]any)
		if f["tracking_number"] != shipment["tracking_number"] || f["tracking_url"] != shipment["tracking_url"] || f["tracking_company"] != "UPS" {
			t.Errorf("fulfillment %v, shipment %v", f, shipment)
		}
	})
}
