package orders_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/ids"
)

// shipmentCreated feeds shipping's shipment.created for an order through the
// subscriber: a UPS shipment whose one package carries items (none: the whole order).
func (h *harness) shipmentCreated(orderID, tracking string, items ...map[string]any) {
	h.t.Helper()
	shipment := map[string]any{"id": ids.New(), "order_id": orderID, "carrier": "ups", "tracking_number": tracking,
		"tracking_url": "https://www.ups.com/track?tracknum=" + tracking, "status": "label_created", "notify_customer": true,
		"packages": []any{map[string]any{"id": ids.New(), "tracking_number": tracking, "weight": "1", "weight_unit": "kg", "items": items}}}
	raw, err := json.Marshal(map[string]any{"shipment": shipment, "previous_status": "label_created"})
	if err != nil {
		h.t.Fatal(err)
	}
	if err := h.sub.HandleShipmentCreated(context.Background(), event.Event{ID: "evt_" + ids.New(), Type: "shipment.created", Data: raw}); err != nil {
		h.t.Fatal(err)
	}
}

// A shipment with an order id becomes a fulfillment of its items with the carrier's
// tracking (decision 0157); the same event again changes nothing; a later shipment
// without items ships the rest.
func TestShipmentRecordsFulfillmentTracking(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		o := h.simple(3, nil)
		id := o["id"].(string)
		line := items(o, "line_items")[0]["id"].(string)
		h.shipmentCreated(id, "1Z999AA10123456784", map[string]any{"line_item_id": line, "quantity": 1})
		h.shipmentCreated(id, "1Z999AA10123456784", map[string]any{"line_item_id": line, "quantity": 1}) // delivered twice
		got := h.get(id)
		fs := items(got, "fulfillments")
		if len(fs) != 1 || got["fulfillment_status"] != "partial" {
			t.Fatalf("fulfillments %v status %v", fs, got["fulfillment_status"])
		}
		f := fs[0]
		if f["tracking_company"] != "UPS" || f["tracking_number"] != "1Z999AA10123456784" || f["status"] != "success" ||
			f["tracking_url"] != "https://www.ups.com/track?tracknum=1Z999AA10123456784" || f["notify_customer"] != true {
			t.Errorf("fulfillment %v", f)
		}
		if ls := items(f, "line_items"); len(ls) != 1 || ls[0]["id"] != line || httpxtest.Num(ls[0]["quantity"]) != 1 {
			t.Errorf("fulfillment lines %v", ls)
		}
		if evs := h.Payloads("order.fulfillment_created", id); len(evs) != 1 {
			t.Errorf("fulfillment_created events %d", len(evs))
		}
		h.shipmentCreated(id, "1Z999AA10123456785")
		got = h.get(id)
		if fs := items(got, "fulfillments"); len(fs) != 2 || got["fulfillment_status"] != "fulfilled" || fs[1]["tracking_number"] != "1Z999AA10123456785" ||
			httpxtest.Num(items(fs[1], "line_items")[0]["quantity"]) != 2 {
			t.Errorf("after the second shipment %v %v", got["fulfillment_status"], fs)
		}
	})
}

// A shipment for an order fulfilled by hand without tracking puts its tracking on
// that fulfillment; one for a cancelled order is dropped without an error.
func TestShipmentTracksAHandMadeFulfillment(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		id := h.simple(1, nil)["id"].(string)
		fid := h.Must(http.StatusCreated, http.MethodPost, "/api/v1/orders/"+id+"/fulfillments", map[string]any{}, "writer").Data()["id"]
		h.shipmentCreated(id, "1Z999AA10123456786")
		fs := items(h.get(id), "fulfillments")
		if len(fs) != 1 || fs[0]["id"] != fid || fs[0]["tracking_number"] != "1Z999AA10123456786" || fs[0]["tracking_company"] != "UPS" {
			t.Fatalf("fulfillments %v", fs)
		}
		if evs := h.Payloads("order.fulfillment_updated", id); len(evs) != 1 {
			t.Errorf("fulfillment_updated events %d", len(evs))
		}
		other := h.simple(1, nil)["id"].(string)
		h.Must(http.StatusOK, http.MethodPost, "/api/v1/orders/"+other+"/cancel", nil, "admin")
		h.shipmentCreated(other, "1Z999AA10123456787")
		h.shipmentCreated(unknownID, "1Z999AA10123456788")
		if fs := items(h.get(other), "fulfillments"); len(fs) != 0 {
			t.Errorf("cancelled order fulfilled %v", fs)
		}
	})
}
