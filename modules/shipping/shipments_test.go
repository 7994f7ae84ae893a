package shipping_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/commerce/modules/shipping/adapters/ups"
	"github.com/gocommerce/commerce/modules/shipping/app"
	"github.com/gocommerce/commerce/modules/shipping/domain"
	"github.com/gocommerce/commerce/platform/httpxtest"
)

func address(country, zip string) map[string]any {
	return map[string]any{"name": "Ada Lovelace", "address1": "1 Main St", "city": "Springfield", "country": country, "zip": zip,
		"email": "ada@example.com", "phone": "+15550100", "residential": true}
}

func shipmentBody(extra map[string]any) map[string]any {
	b := map[string]any{
		"carrier": "ups", "service_code": "03",
		"ship_from": address("US", "10001"), "ship_to": address("US", "94105"),
		"packages": []any{map[string]any{"weight": 2, "weight_unit": "kg", "length": "30", "width": 20, "height": 10,
			"items": []any{map[string]any{"line_item_id": "li-1", "quantity": 2}}}},
	}
	return httpxtest.Override(b, extra)
}

func TestCreateShipmentWithTableCarrier(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		r := h.Must(201, "POST", "/api/v1/shipping/shipments", shipmentBody(map[string]any{
			"order_id": orderID, "reference": "PO-7", "notify_customer": true,
			"insurance": map[string]any{"amount": "150.00", "currency": "USD"},
			"options":   map[string]any{"signature_required": true, "saturday_delivery": true},
		}), "writer")
		s := r.Data()
		tn, _ := s["tracking_number"].(string)
		if s["status"] != "label_created" || !strings.HasPrefix(tn, "1Z") || len(tn) != 18 {
			t.Fatalf("shipment %v", s)
		}
		if s["tracking_url"] != "https://www.ups.com/track?tracknum="+tn {
			t.Errorf("tracking_url %v", s["tracking_url"])
		}
		label, _ := s["label_url"].(string)
		key := strings.TrimPrefix(label, "/uploads/")
		if file := h.storage.files[key]; !bytes.HasPrefix(file, []byte("%PDF-1.4")) || !bytes.Contains(file, []byte(tn)) {
			t.Errorf("label %q not stored as a PDF with the tracking number", label)
		}
		// UPS Ground domestic, 2 kg actual, 6000 cm³ / 5000 = 1.2 kg: bracket 2 → 12.90.
		if s["price"] != "12.90" || s["currency"] != "USD" || s["service_name"] != "UPS Ground" {
			t.Errorf("price %v %v %v", s["price"], s["currency"], s["service_name"])
		}
		if s["weight"] != "2" || s["weight_unit"] != "kg" || s["order_id"] != orderID || s["reference"] != "PO-7" || s["notify_customer"] != true {
			t.Errorf("fields %v", s)
		}
		dims := s["dimensions"].(map[string]any)
		if dims["length"] != "30" || dims["width"] != "20" || dims["unit"] != "cm" {
			t.Errorf("dimensions %v", dims)
		}
		pkgs := httpxtest.Objects(s["packages"])
		if len(pkgs) != 1 || pkgs[0]["tracking_number"] != tn || httpxtest.Objects(pkgs[0]["items"])[0]["line_item_id"] != "li-1" {
			t.Errorf("packages %v", pkgs)
		}
		if ins := s["insurance"].(map[string]any); ins["amount"] != "150.00" || ins["provider"] != "carrier" {
			t.Errorf("insurance %v", ins)
		}
		if o := s["options"].(map[string]any); o["signature_required"] != true || o["dry_ice"] != false {
			t.Errorf("options %v", o)
		}
		// Wednesday + 4 business days.
		if s["estimated_delivery"] != "2026-12-01T00:00:00Z" || s["shipped_at"] != nil || s["delivered_at"] != nil {
			t.Errorf("dates %v %v %v", s["estimated_delivery"], s["shipped_at"], s["delivered_at"])
		}
		if got := h.outbox(); len(got) != 1 || got[0] != "shipment.created" {
			t.Errorf("events %v", got)
		}
		// GET, with both includes.
		id := s["id"].(string)
		g := h.Must(200, "GET", "/api/v1/shipping/shipments/"+id+"?include=tracking_history,order", nil, "reader").Data()
		if g["tracking_number"] != tn || g["price"] != "12.90" {
			t.Errorf("get %v", g)
		}
		hist := httpxtest.Objects(g["tracking_history"])
		if len(hist) != 1 || hist[0]["status"] != "label_created" || hist[0]["source"] != "label" {
			t.Errorf("history %v", hist)
		}
		if o, _ := g["order"].(map[string]any); o["order_number"] != "1001" {
			t.Errorf("order %v", g["order"])
		}
		plain := h.Must(200, "GET", "/api/v1/shipping/shipments/"+id, nil, "reader").Data()
		if _, ok := plain["tracking_history"]; ok {
			t.Errorf("tracking_history without include")
		}
		if _, ok := plain["order"]; ok {
			t.Errorf("order without include")
		}
		// The order's customer sees it; another customer does not.
		h.Must(200, "GET", "/api/v1/shipping/shipments/"+id, nil, "customer")
		httpxtest.AssertError(t, h.Do("GET", "/api/v1/shipping/shipments/"+id, nil, "customer2"), 404, "SHIPMENT_NOT_FOUND", "not_found")
		// A customer may not create shipments.
		httpxtest.AssertError(t, h.Do("POST", "/api/v1/shipping/shipments", shipmentBody(nil), "customer"), 403, 403, "auth")
	})
}

func TestCreateShipmentInternationalAndUnits(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		customs := map[string]any{"contents_type": "merchandise", "customs_certify": true, "customs_signer": "Ada Lovelace",
			"eel_pfc": "NOEEI 30.37(a)", "non_delivery_option": "return",
			"customs_items": []any{map[string]any{"description": "T-shirt", "quantity": 2, "value": "25.00", "currency": "USD",
				"hs_tariff_number": "6109.10", "origin_country": "us"}}}
		body := shipmentBody(map[string]any{"carrier": "dhl", "service_code": "P", "ship_to": address("DE", "10115"),
			"packages": []any{
				map[string]any{"weight": "3", "weight_unit": "lb"},
				map[string]any{"weight": 16, "weight_unit": "oz", "length": 10, "width": 8, "height": 4, "dimension_unit": "in"},
			}})
		// No customs declaration for an international shipment.
		r := h.Do("POST", "/api/v1/shipping/shipments", body, "writer")
		httpxtest.AssertError(t, r, 400, 400, "validation")
		if _, ok := r.Fields()["customs_info"]; !ok {
			t.Errorf("fields %v", r.Fields())
		}
		body["customs_info"] = customs
		s := h.Must(201, "POST", "/api/v1/shipping/shipments", body, "writer").Data()
		// 3 lb + 16 oz = 4 lb in the first package's unit.
		if s["weight"] != "4" || s["weight_unit"] != "lb" || s["dimensions"] != nil {
			t.Errorf("weight %v %v dims %v", s["weight"], s["weight_unit"], s["dimensions"])
		}
		pkgs := httpxtest.Objects(s["packages"])
		if len(pkgs) != 2 || pkgs[0]["tracking_number"] == pkgs[1]["tracking_number"] || pkgs[0]["tracking_number"] != s["tracking_number"] {
			t.Errorf("package tracking numbers %v", pkgs)
		}
		// DHL Express Worldwide, international: 62.00 + 9.10 × bracket, per package:
		// 3 lb = 1.36077711 kg → 1.5 (75.65); 16 oz = 0.45359237 kg but 10 × 8 × 4 in =
		// 5243.8605 cm³ / 5000 = 1.0488 kg → 1.5 (75.65).
		if s["price"] != "151.30" {
			t.Errorf("price %v", s["price"])
		}
		ci := s["customs_info"].(map[string]any)
		item := httpxtest.Objects(ci["customs_items"])[0]
		if item["hs_tariff_number"] != "610910" || item["origin_country"] != "US" || item["value"] != "25.00" || ci["restriction_type"] != "none" {
			t.Errorf("customs %v", ci)
		}
		// Without an order, include=order is null.
		g := h.Must(200, "GET", "/api/v1/shipping/shipments/"+s["id"].(string)+"?include=order", nil, "reader").Data()
		if o, present := g["order"]; !present || o != nil || g["order_id"] != nil {
			t.Errorf("order %v (%v), order_id %v", o, present, g["order_id"])
		}
		// Within the EU no customs declaration is needed.
		h.Must(201, "POST", "/api/v1/shipping/shipments", shipmentBody(map[string]any{"carrier": "dhl", "service_code": "U",
			"ship_from": address("DE", "10115"), "ship_to": address("FR", "75001")}), "writer")
	})
}

func TestCreateShipmentBadInput(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		cases := []struct {
			body  map[string]any
			field string
		}{
			{shipmentBody(map[string]any{"carrier": nil}), "carrier"},
			{shipmentBody(map[string]any{"carrier": "royalmail"}), "carrier"},
			{shipmentBody(map[string]any{"service_code": nil}), "service_code"},
			{shipmentBody(map[string]any{"ship_from": nil}), "ship_from"},
			{shipmentBody(map[string]any{"ship_to": map[string]any{"name": "x", "address1": "y", "city": "z", "country": "US"}}), "ship_to.zip"},
			{shipmentBody(map[string]any{"ship_to": map[string]any{"address1": "y", "city": "z", "country": "US", "zip": "10001"}}), "ship_to.name"},
			{shipmentBody(map[string]any{"ship_from": address("ZZ", "1")}), "ship_from.country"},
			{shipmentBody(map[string]any{"packages": []any{}}), "packages"},
			{shipmentBody(map[string]any{"packages": []any{map[string]any{"weight_unit": "kg"}}}), "packages[0].weight"},
			{shipmentBody(map[string]any{"packages": []any{map[string]any{"weight": "-2"}}}), "packages[0].weight"},
			{shipmentBody(map[string]any{"packages": []any{map[string]any{"weight": 1, "weight_unit": "stone"}}}), "packages[0].weight_unit"},
			{shipmentBody(map[string]any{"packages": []any{map[string]any{"weight": 1, "length": 2}}}), "packages[0].width"},
			{shipmentBody(map[string]any{"packages": []any{map[string]any{"weight": 1, "items": []any{map[string]any{"line_item_id": "a", "quantity": 0}}}}}), "packages[0].items[0].quantity"},
			{shipmentBody(map[string]any{"insurance": map[string]any{"amount": "1.999"}}), "insurance.amount"},
			{shipmentBody(map[string]any{"order_id": "nope"}), "order_id"},
			{shipmentBody(map[string]any{"service_code": "NOPE"}), "service_code"},
			{shipmentBody(map[string]any{"service_code": "11"}), "service_code"}, // UPS Standard: not domestic
		}
		for _, c := range cases {
			r := h.Do("POST", "/api/v1/shipping/shipments", c.body, "writer")
			if r.Code != 400 {
				t.Errorf("%s: status %d %s", c.field, r.Code, r.Raw)
				continue
			}
			if _, ok := r.Fields()[c.field]; !ok {
				t.Errorf("%s: fields %v", c.field, r.Fields())
			}
		}
		r := h.Do("POST", "/api/v1/shipping/shipments", shipmentBody(map[string]any{"order_id": "0190a000-0000-7000-8000-00000000ffff"}), "writer")
		httpxtest.AssertError(t, r, 404, "ORDER_NOT_FOUND", "not_found")
		httpxtest.AssertError(t, h.Do("GET", "/api/v1/shipping/shipments/nope", nil, "reader"), 404, "SHIPMENT_NOT_FOUND", "not_found")
		httpxtest.AssertError(t, h.Do("GET", "/api/v1/shipping/shipments/0190a000-0000-7000-8000-00000000ffff?include=x", nil, "reader"), 400, 400, "validation")
		if got := h.outbox(); len(got) != 0 {
			t.Errorf("events of refused shipments: %v", got)
		}
	})
}

func sign(body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	return hex.EncodeToString(mac.Sum(nil))
}

func (h *harness) webhook(carrier string, body any, signature string) httpxtest.Response {
	h.t.Helper()
	raw := httpxtest.Encode(h.t, body)
	if signature == "" {
		signature = sign(raw)
	}
	return h.Do("POST", "/api/v1/shipping/webhooks/"+carrier, raw, "X-Shipping-Signature: "+signature)
}

func TestWebhookMovesTheStatusMachine(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		s := h.Must(201, "POST", "/api/v1/shipping/shipments", shipmentBody(map[string]any{"order_id": orderID}), "writer").Data()
		id, tn := s["id"].(string), s["tracking_number"].(string)
		ev := func(status string, at time.Time) map[string]any {
			return map[string]any{"status": status, "code": strings.ToUpper(status), "description": status, "location": "Memphis, TN, US", "occurred_at": at.Format(time.RFC3339)}
		}
		// Bad signature, unknown carrier, unknown tracking number.
		httpxtest.AssertError(t, h.webhook("ups", map[string]any{"tracking_number": tn, "events": []any{ev("in_transit", t0)}}, "deadbeef"), 400, "INVALID_SIGNATURE", "validation")
		httpxtest.AssertError(t, h.webhook("royalmail", map[string]any{"tracking_number": tn}, ""), 400, "INVALID_CARRIER", "validation")
		httpxtest.AssertError(t, h.webhook("fedex", map[string]any{"tracking_number": tn, "events": []any{ev("in_transit", t0)}}, ""), 404, "SHIPMENT_NOT_FOUND", "not_found")
		r := h.webhook("ups", map[string]any{"tracking_number": tn, "events": []any{map[string]any{"status": "lost"}}}, "")
		httpxtest.AssertError(t, r, 400, 400, "validation")

		steps := []struct{ status, event string }{
			{"in_transit", "shipment.in_transit"},
			{"out_for_delivery", "shipment.out_for_delivery"},
			{"delivered", "shipment.delivered"},
		}
		for i, st := range steps {
			at := t0.Add(time.Duration(i+1) * time.Hour)
			r := h.webhook("ups", map[string]any{"tracking_number": tn, "events": []any{ev(st.status, at)}}, "")
			if r.Code != 200 || r.Body["status"] != st.status || r.Body["shipment_id"] != id {
				t.Fatalf("%s: %d %s", st.status, r.Code, r.Raw)
			}
			// The same scan again changes nothing.
			h.webhook("ups", map[string]any{"tracking_number": tn, "events": []any{ev(st.status, at)}}, "")
		}
		// Delivered is final: a late exception is recorded but moves nothing.
		h.webhook("ups", map[string]any{"tracking_number": tn, "status": "exception", "occurred_at": t0.Add(5 * time.Hour).Format(time.RFC3339)}, "")
		g := h.Must(200, "GET", "/api/v1/shipping/shipments/"+id+"?include=tracking_history", nil, "admin").Data()
		if g["status"] != "delivered" || g["shipped_at"] != "2026-11-25T11:00:00Z" || g["delivered_at"] != "2026-11-25T13:00:00Z" {
			t.Errorf("shipment %v %v %v", g["status"], g["shipped_at"], g["delivered_at"])
		}
		if hist := httpxtest.Objects(g["tracking_history"]); len(hist) != 5 || hist[1]["location"] != "Memphis, TN, US" || hist[1]["source"] != "webhook" {
			t.Errorf("history %v", hist)
		}
		want := []string{"shipment.created", "shipment.in_transit", "shipment.out_for_delivery", "shipment.delivered"}
		if got := h.outbox(); strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("events %v, want %v", got, want)
		}
	})
}

// The periodic job asks a live carrier about shipments due and applies its answer;
// a carrier that skips out_for_delivery still ends delivered.
func TestTrackingJobPollsLiveCarriers(t *testing.T) {
	t.Parallel()
	carriers := func() app.Carriers { return app.Carriers{tables()[0], &stubCarrier{code: domain.FedEx}} }
	eachEngineWith(t, carriers, func(t *testing.T, h *harness) {
		s := h.Must(201, "POST", "/api/v1/shipping/shipments", shipmentBody(map[string]any{"carrier": "fedex", "service_code": "FEDEX_GROUND"}), "writer").Data()
		id := s["id"].(string)
		if s["label_url"] != "/uploads/shipping-label-"+id+".png" || s["price"] != "12.34" {
			t.Errorf("live label %v %v", s["label_url"], s["price"])
		}
		fedex := h.svcCarrier(domain.FedEx)
		fedex.mu.Lock()
		fedex.events = []domain.TrackingEvent{
			{Status: domain.StatusInTransit, Code: "IT", Description: "In transit", OccurredAt: t0.Add(time.Hour)},
			{Status: domain.StatusDelivered, Code: "DL", Description: "Delivered", OccurredAt: t0.Add(30 * time.Hour)},
		}
		fedex.mu.Unlock()
		// Not due yet: nothing asked.
		if err := h.jobs.Handle(t.Context(), nil); err != nil {
			t.Fatal(err)
		}
		if fedex.calls != 0 {
			t.Fatalf("polled before tracking_interval: %d", fedex.calls)
		}
		h.clock.Advance(2 * time.Hour)
		if err := h.jobs.Handle(t.Context(), nil); err != nil {
			t.Fatal(err)
		}
		g := h.Must(200, "GET", "/api/v1/shipping/shipments/"+id+"?include=tracking_history", nil, "reader").Data()
		if g["status"] != "delivered" || g["delivered_at"] != "2026-11-26T16:00:00Z" || len(httpxtest.Objects(g["tracking_history"])) != 3 {
			t.Errorf("after poll %v", g)
		}
		// Delivered: no more polls.
		h.clock.Advance(5 * time.Hour)
		if err := h.jobs.Handle(t.Context(), nil); err != nil {
			t.Fatal(err)
		}
		if fedex.calls != 1 {
			t.Errorf("calls %d", fedex.calls)
		}
		if got := h.outbox(); strings.Join(got, ",") != "shipment.created,shipment.delivered" {
			t.Errorf("events %v", got)
		}
	})
}

// A carrier that refuses the label is a 400 with its message; one that is down is a
// 503; nothing is stored either way.
func TestCreateShipmentCarrierFailures(t *testing.T) {
	t.Parallel()
	carriers := func() app.Carriers {
		return app.Carriers{
			&stubCarrier{code: domain.UPS, err: domain.ErrCarrierRejected.WithMessage("ups: 120100 Missing or invalid shipper number")},
			&stubCarrier{code: domain.FedEx, err: domain.ErrCarrierUnavailable.WithMessage("fedex: 503 Service Unavailable")},
		}
	}
	eachEngineWith(t, carriers, func(t *testing.T, h *harness) {
		r := h.Do("POST", "/api/v1/shipping/shipments", shipmentBody(nil), "writer")
		httpxtest.AssertError(t, r, 400, "CARRIER_REJECTED", "validation")
		if !strings.Contains(r.Err()["message"].(string), "Missing or invalid shipper number") {
			t.Errorf("message %v", r.Err()["message"])
		}
		r = h.Do("POST", "/api/v1/shipping/shipments", shipmentBody(map[string]any{"carrier": "fedex", "service_code": "FEDEX_GROUND"}), "writer")
		if r.Code != 503 || r.Err()["code"] != "CARRIER_UNAVAILABLE" {
			t.Errorf("unavailable: %d %s", r.Code, r.Raw)
		}
		// USPS is not configured in this set.
		r = h.Do("POST", "/api/v1/shipping/shipments", shipmentBody(map[string]any{"carrier": "usps", "service_code": "PRIORITY_MAIL"}), "writer")
		httpxtest.AssertError(t, r, 400, "INVALID_CARRIER", "validation")
		if got := h.outbox(); len(got) != 0 || len(h.storage.files) != 0 {
			t.Errorf("stored after failures: %v %d", got, len(h.storage.files))
		}
	})
}

// Two carrier reports about one shipment at once: both are recorded, the newest wins.
func TestConcurrentTrackingUpdates(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		s := h.Must(201, "POST", "/api/v1/shipping/shipments", shipmentBody(nil), "writer").Data()
		tn := s["tracking_number"].(string)
		done := make(chan int, 2)
		for i, st := range []string{"in_transit", "out_for_delivery"} {
			go func() {
				body := map[string]any{"tracking_number": tn, "status": st, "occurred_at": t0.Add(time.Duration(i+1) * time.Hour).Format(time.RFC3339)}
				done <- h.webhook("ups", body, "").Code
			}()
		}
		for range 2 {
			if code := <-done; code != 200 {
				t.Errorf("status %d", code)
			}
		}
		g := h.Must(200, "GET", "/api/v1/shipping/shipments/"+s["id"].(string)+"?include=tracking_history", nil, "reader").Data()
		if g["status"] != "out_for_delivery" || len(httpxtest.Objects(g["tracking_history"])) != 3 {
			t.Errorf("after concurrent updates %v %v", g["status"], g["tracking_history"])
		}
	})
}

// UPS Track Alert pushes its own body with the subscription's credential header.
func TestCarrierNativePush(t *testing.T) {
	t.Parallel()
	carriers := func() app.Carriers {
		return app.Carriers{&stubCarrier{code: domain.UPS, push: (&ups.Carrier{}).ParsePush}, tables()[1]}
	}
	eachEngineWith(t, carriers, func(t *testing.T, h *harness) {
		s := h.Must(201, "POST", "/api/v1/shipping/shipments", shipmentBody(nil), "writer").Data()
		push := func(carrier, credential string, body string) httpxtest.Response {
			return h.Do("POST", "/api/v1/shipping/webhooks/"+carrier, body, "Credential: "+credential)
		}
		body := `{"trackingNumber":"` + s["tracking_number"].(string) + `","localActivityDate":"20261127","localActivityTime":"093000",
			"gmtActivityDate":"20261127","gmtActivityTime":"143000","activityLocation":{"city":"San Francisco","stateProvince":"CA","postalCode":"94105","country":"US"},
			"activityStatus":{"type":"D","code":"KB","description":"DELIVERED"}}`
		httpxtest.AssertError(t, push("ups", "wrong", body), 400, "INVALID_SIGNATURE", "validation")
		r := push("ups", secret, body)
		if r.Code != 200 || r.Body["status"] != "delivered" {
			t.Fatalf("push %d %s", r.Code, r.Raw)
		}
		g := h.Must(200, "GET", "/api/v1/shipping/shipments/"+s["id"].(string), nil, "reader").Data()
		if g["delivered_at"] != "2026-11-27T14:30:00Z" {
			t.Errorf("delivered_at %v", g["delivered_at"])
		}
		// FedEx runs on its table here: it pushes nothing native.
		httpxtest.AssertError(t, push("fedex", secret, body), 400, "INVALID_CARRIER", "validation")
		r = push("ups", secret, `{"activityStatus":{}}`)
		if r.Code != 400 {
			t.Errorf("bad push %d %s", r.Code, r.Raw)
		}
	})
}
