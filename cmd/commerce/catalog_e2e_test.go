package main

import (
	"net/http"
	"testing"
)

// Catalog and inventory meet through catalog's api and events, wired as in production.
func TestCatalogInventoryEndToEnd(t *testing.T) {
	onEachEngine(t, nil, func(t *testing.T, ta *testApp) {
		auth := ta.adminAuth()

		product := ta.created("/api/v1/products", map[string]any{
			"title": "Linen Shirt", "price": "49.90", "currency": "EUR", "inventory_quantity": 20,
		}, auth...)
		id := product["id"].(string)
		if product["slug"] != "linen-shirt" || product["price"] != "49.90" || product["inventory_quantity"] != float64(20) {
			t.Errorf("product: %v", product)
		}

		// The relay delivers catalog.stock_set to inventory, which sets the default location.
		ta.relay(1)
		level := ta.must(http.StatusOK, "GET", "/api/v1/inventory/"+id+"?include_history=true", nil, auth...)
		data := dataOf(t, level)
		if data["total_available"] != float64(20) || data["stock_status"] != "in_stock" {
			t.Errorf("level after create: %s", level.Body)
		}
		locationID := data["locations"].([]any)[0].(map[string]any)["location_id"].(string)

		// A product-level adjustment flows back into the product's inventory_quantity.
		ta.must(http.StatusOK, "POST", "/api/v1/products/"+id+"/inventory/adjust", map[string]any{
			"location_id": locationID, "adjustment": -18, "reason": "damaged",
		}, auth...)
		got := ta.do("GET", "/api/v1/products/"+id, nil, auth...)
		if got.JSON(t)["data"].(map[string]any)["inventory_quantity"] != float64(2) {
			t.Errorf("product after adjust: %s", got.Body)
		}
		list := ta.do("GET", "/api/v1/products?inventory_status=low_stock", nil, auth...)
		if list.Status != http.StatusOK || len(list.JSON(t)["data"].([]any)) != 1 {
			t.Errorf("low stock list: %d %s", list.Status, list.Body)
		}
		// Overdrawing is refused and changes nothing.
		neg := ta.do("POST", "/api/v1/inventory/adjust", map[string]any{
			"product_id": id, "location_id": locationID, "adjustment": -5, "reason": "lost",
		}, auth...)
		if e := errorOf(t, neg); neg.Status != http.StatusBadRequest || e["code"] != "INVENTORY_NEGATIVE" {
			t.Errorf("negative: %d %s", neg.Status, neg.Body)
		}
		// Deleting the product removes its stock levels (through product.deleted).
		ta.must(http.StatusNoContent, "DELETE", "/api/v1/products/"+id, nil, auth...)
		ta.relay(1)
		if r := ta.do("GET", "/api/v1/inventory/"+id, nil, auth...); r.Status != http.StatusNotFound {
			t.Errorf("level after delete: %d %s", r.Status, r.Body)
		}
	})
}
