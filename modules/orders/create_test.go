package orders_test

import (
	"net/http"
	"testing"

	"github.com/gocommerce/commerce/platform/httpxtest"
)

func TestCreateOrder(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		body := map[string]any{
			"email": "Someone@Example.com", "customer_id": custAda,
			"line_items": []any{
				map[string]any{"product_id": prodShirt, "variant_id": varShirtS, "quantity": 2},
				map[string]any{"product_id": prodMug, "quantity": 1, "price": "7.50"},
				map[string]any{"product_id": prodEbook, "quantity": 1},
			},
			"shipping_address": map[string]any{"first_name": "Ada", "last_name": "L", "address1": "1 Main St", "city": "Berlin", "province": "BE", "country_code": "de", "zip": "10115"},
			"billing_address":  map[string]any{"first_name": "Ada", "country": "DE"},
			"shipping_lines":   []any{map[string]any{"title": "Standard", "price": "4.99", "code": "STD", "source": "dhl"}},
			"tax_lines":        []any{map[string]any{"title": "VAT", "rate": 0.19}, map[string]any{"title": "Eco fee", "price": "0.50"}},
			"discount_codes":   []any{map[string]any{"code": "SPRING10", "amount": "4.75", "type": "percentage"}},
			"note":             "gift wrap", "note_attributes": map[string]any{"gift": "yes"}, "tags": "vip, wholesale",
			"metafields": map[string]any{"erp_id": 42}, "source_name": "pos", "send_receipt": true,
			"client_details": map[string]any{"browser_ip": "203.0.113.9", "user_agent": "test"},
		}
		r := h.Must(http.StatusCreated, http.MethodPost, "/api/v1/orders", body, "admin")
		o := r.Data()
		// subtotal 2 × 19.99 + 7.50 + 5.00 = 52.48; discount 4.75; taxable lines 47.48 less
		// their share of the discount round(4.75 × 47.48 / 52.48) = 4.30 → 43.18 × 0.19 = 8.20;
		// tax 8.20 + 0.50; total 52.48 - 4.75 + 8.70 + 4.99 = 61.42.
		want := map[string]any{
			"order_number": "1001", "name": "#1001", "customer_id": custAda, "email": "Someone@Example.com", "phone": "+4930123",
			"status": "open", "financial_status": "pending", "fulfillment_status": "unfulfilled", "currency": "USD",
			"subtotal_price": "52.48", "subtotal": "52.48", "total_discounts": "4.75", "discount_total": "4.75", "total_tax": "8.70",
			"total_shipping": "4.99", "total_price": "61.42", "total_refunded": "0.00", "total_outstanding": "61.42",
			"total_weight": "0.854", "total_items": float64(4), "note": "gift wrap", "coupon_code": "SPRING10",
			"source_name": "pos", "inventory_behaviour": "bypass", "cancel_reason": nil, "closed_at": nil, "cancelled_at": nil,
			"cart_token": "", "checkout_token": "", "referring_site": "", "landing_site": "",
			"created_at": "2026-03-01T10:00:00Z", "updated_at": "2026-03-01T10:00:00Z", "processed_at": "2026-03-01T10:00:00Z",
		}
		for k, v := range want {
			if o[k] != v {
				t.Errorf("%s = %#v, want %#v", k, o[k], v)
			}
		}
		if httpxtest.Keys(o) != "applied_coupons,billing_address,cancel_reason,cancelled_at,cart_token,checkout_token,client_details,closed_at,coupon_code,created_at,currency,customer_id,discount_codes,discount_total,email,financial_status,fulfillment_status,id,inventory_behaviour,landing_site,line_items,metafields,name,note,note_attributes,order_number,phone,processed_at,referring_site,shipping_address,shipping_lines,source_name,status,subtotal,subtotal_price,tags,tax_lines,total_discounts,total_items,total_outstanding,total_price,total_refunded,total_shipping,total_tax,total_weight,updated_at" {
			t.Errorf("order keys: %s", httpxtest.Keys(o))
		}
		lines := items(o, "line_items")
		if len(lines) != 3 {
			t.Fatalf("lines %v", lines)
		}
		l0 := lines[0]
		if l0["product_id"] != prodShirt || l0["variant_id"] != varShirtS || l0["title"] != "Shirt" || l0["variant_title"] != "S" || l0["sku"] != "SHIRT-S" ||
			l0["quantity"] != float64(2) || l0["price"] != "19.99" || l0["total"] != "39.98" || l0["requires_shipping"] != true || l0["is_gift_card"] != false ||
			l0["fulfillable_quantity"] != float64(2) || l0["fulfilled_quantity"] != float64(0) || l0["refunded_quantity"] != float64(0) {
			t.Errorf("line 0: %v", l0)
		}
		if httpxtest.Keys(l0) != "fulfillable_quantity,fulfilled_quantity,id,is_gift_card,price,product_id,quantity,refunded_quantity,requires_shipping,sku,taxable,title,total,variant_id,variant_title" {
			t.Errorf("line keys %s", httpxtest.Keys(l0))
		}
		if lines[1]["variant_id"] != varMug || lines[1]["variant_title"] != "" || lines[1]["price"] != "7.50" || lines[2]["requires_shipping"] != false || lines[2]["taxable"] != false {
			t.Errorf("lines 1, 2: %v %v", lines[1], lines[2])
		}
		ship, _ := o["shipping_address"].(map[string]any)
		if ship["state"] != "BE" || ship["country"] != "DE" || ship["zip"] != "10115" || httpxtest.Keys(ship) != "address1,address2,city,company,country,first_name,last_name,phone,state,zip" {
			t.Errorf("shipping address %v", ship)
		}
		sl := items(o, "shipping_lines")
		if len(sl) != 1 || sl[0]["title"] != "Standard" || sl[0]["price"] != "4.99" || sl[0]["code"] != "STD" || sl[0]["source"] != "dhl" || sl[0]["id"] == "" {
			t.Errorf("shipping lines %v", sl)
		}
		tl := items(o, "tax_lines")
		if len(tl) != 2 || tl[0]["rate"] != "0.19" || tl[0]["price"] != "8.20" || tl[1]["rate"] != "0" || tl[1]["price"] != "0.50" {
			t.Errorf("tax lines %v", tl)
		}
		dc := items(o, "discount_codes")
		if len(dc) != 1 || dc[0]["code"] != "SPRING10" || dc[0]["amount"] != "4.75" || dc[0]["type"] != "percentage" {
			t.Errorf("discount codes %v", dc)
		}
		if tags, _ := o["tags"].([]any); len(tags) != 2 || tags[0] != "vip" || tags[1] != "wholesale" {
			t.Errorf("tags %v", o["tags"])
		}
		// order.created carries the order resource, send_receipt, and what coupons reads.
		evs := h.Payloads("order.created", o["id"].(string))
		if len(evs) != 1 {
			t.Fatalf("order.created events: %d", len(evs))
		}
		ev := evs[0]
		for _, k := range []string{"id", "order_number", "customer_id", "email", "coupon_code", "discount_codes", "discount_total", "subtotal", "total_price", "currency", "created_at", "updated_at", "status", "financial_status", "line_items"} {
			if _, ok := ev[k]; !ok {
				t.Errorf("order.created lacks %s", k)
			}
		}
		if ev["send_receipt"] != true || ev["total_price"] != "61.42" || ev["customer_id"] != custAda || ev["order_number"] != "1001" || ev["coupon_code"] != "SPRING10" {
			t.Errorf("order.created data %v", ev)
		}
		if ac := items(ev, "applied_coupons"); len(ac) != 1 || ac[0]["code"] != "SPRING10" || ac[0]["discount_amount"] != "4.75" {
			t.Errorf("applied_coupons %v", ev["applied_coupons"])
		}
		// The next order is 1002; guests are linked to a customer by email.
		o2 := h.simple(1, map[string]any{"email": bobEmail})
		if o2["order_number"] != "1002" || o2["customer_id"] != custBob || o2["total_price"] != "13.50" || o2["total_weight"] != "0.454" {
			t.Errorf("second order %v %v %v %v", o2["order_number"], o2["customer_id"], o2["total_price"], o2["total_weight"])
		}
		o3 := h.simple(1, nil)
		if o3["customer_id"] != nil || o3["email"] != guestEmail || o3["coupon_code"] != nil || o3["order_number"] != "1003" {
			t.Errorf("guest order %v %v %v", o3["customer_id"], o3["email"], o3["coupon_code"])
		}
		// Admin-only: staff and orders:admin may create.
		h.Must(http.StatusCreated, http.MethodPost, "/api/v1/orders", map[string]any{"email": guestEmail, "line_items": []any{map[string]any{"product_id": prodMug, "quantity": 1}}}, "staff")
		h.Must(http.StatusCreated, http.MethodPost, "/api/v1/orders", map[string]any{"email": guestEmail, "line_items": []any{map[string]any{"product_id": prodMug, "quantity": 1}}}, "ordersadmin")
	})
}

func TestCreateOrderErrors(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		line := func(extra map[string]any) map[string]any {
			l := map[string]any{"product_id": prodMug, "quantity": 1}
			for k, v := range extra {
				l[k] = v
			}
			return l
		}
		order := func(extra map[string]any, lines ...map[string]any) map[string]any {
			if lines == nil {
				lines = []map[string]any{line(nil)}
			}
			ls := make([]any, len(lines))
			for i, l := range lines {
				ls[i] = l
			}
			b := map[string]any{"email": guestEmail, "line_items": ls}
			for k, v := range extra {
				b[k] = v
			}
			return b
		}
		post := func(status int, code any, category string, body any, cred string) httpxtest.Response {
			t.Helper()
			return h.expectError(status, code, category, http.MethodPost, "/api/v1/orders", body, cred)
		}
		// Authentication and the admin-only rule.
		post(401, 401, "auth", order(nil), "")
		r := post(403, 403, "auth", order(nil), "writer")
		if r.Err()["message"] != "Forbidden: Insufficient permissions. Required: admin or orders:admin" {
			t.Errorf("403 message %v", r.Err()["message"])
		}
		post(403, 403, "auth", order(nil), "cust:"+custAda)
		post(403, 403, "auth", order(nil), "custw:"+custAda)
		// Validation.
		r = post(400, 400, "validation", map[string]any{"email": guestEmail}, "admin")
		if _, ok := r.Fields()["line_items"]; !ok {
			t.Errorf("fields %v", r.Fields())
		}
		r = post(400, 400, "validation", order(nil, map[string]any{"quantity": 1}), "admin")
		if _, ok := r.Fields()["line_items[0].variant_id"]; !ok {
			t.Errorf("fields %v", r.Fields())
		}
		r = post(400, 400, "validation", order(nil, map[string]any{"product_id": prodMug}), "admin")
		if _, ok := r.Fields()["line_items[0].quantity"]; !ok {
			t.Errorf("fields %v", r.Fields())
		}
		post(400, "INVALID_QUANTITY", "validation", order(nil, line(map[string]any{"quantity": 0})), "admin")
		post(400, "INVALID_QUANTITY", "validation", order(nil, line(map[string]any{"quantity": 10000})), "admin")
		post(404, "PRODUCT_NOT_FOUND", "not_found", order(nil, line(map[string]any{"product_id": unknownID})), "admin")
		r = post(404, "VARIANT_NOT_FOUND", "not_found", order(nil, line(map[string]any{"product_id": prodShirt})), "admin")
		if _, ok := r.Fields()["line_items[0].variant_id"]; !ok {
			t.Errorf("fields %v", r.Fields())
		}
		post(404, "VARIANT_NOT_FOUND", "not_found", order(nil, line(map[string]any{"product_id": prodShirt, "variant_id": varMug})), "admin")
		post(400, "INVALID_PRICE", "validation", order(nil, line(map[string]any{"price": "1.999"})), "admin")
		post(400, "INVALID_PRICE", "validation", order(nil, line(map[string]any{"price": "-1"})), "admin")
		r = post(400, 400, "validation", order(nil, line(map[string]any{"price": 1.5})), "admin")
		if len(r.Fields()) == 0 {
			t.Errorf("a JSON number price names no field: %s", r.Raw)
		}
		post(400, "INVALID_CURRENCY", "validation", order(map[string]any{"currency": "XYZ"}), "admin")
		post(400, "INVALID_CURRENCY", "validation", order(nil, line(nil), map[string]any{"product_id": prodYen, "quantity": 1}), "admin")
		post(400, 400, "validation", order(map[string]any{"inventory_behaviour": "sometimes"}), "admin")
		post(400, "INVALID_EMAIL", "validation", order(map[string]any{"email": "nope"}), "admin")
		post(400, 400, "validation", order(map[string]any{"email": ""}), "admin")
		post(404, "CUSTOMER_NOT_FOUND", "not_found", order(map[string]any{"customer_id": unknownID}), "admin")
		post(400, 400, "validation", order(map[string]any{"customer_id": "nope"}), "admin")
		post(400, 400, "validation", order(map[string]any{"shipping_lines": []any{map[string]any{"price": "1.00"}}}), "admin")
		post(400, "INVALID_PRICE", "validation", order(map[string]any{"shipping_lines": []any{map[string]any{"title": "x", "price": "abc"}}}), "admin")
		post(400, 400, "validation", order(map[string]any{"tax_lines": []any{map[string]any{"title": "VAT", "rate": "2"}}}), "admin")
		post(400, 400, "validation", order(map[string]any{"discount_codes": []any{map[string]any{"code": "BIG", "amount": "100.00"}}}), "admin")
		post(400, 400, "validation", order(map[string]any{"discount_codes": []any{map[string]any{"code": "X", "amount": "1.00", "type": "magic"}}}), "admin")
		post(400, 400, "validation", "{not json", "admin")
		// Nothing was created, no number was used, no event was written.
		if n := h.Count("orders", "1 = 1"); n != 0 {
			t.Errorf("%d orders created by refused requests", n)
		}
		if n := len(h.Events()); n != 0 {
			t.Errorf("%d events written by refused requests", n)
		}
		if o := h.simple(1, nil); o["order_number"] != "1001" {
			t.Errorf("first order after refusals is %v", o["order_number"])
		}
		// A product in another currency may be sold with an explicit price; the order's
		// currency may be given (JPY has no minor units).
		o := h.create(order(map[string]any{"currency": "jpy"}, map[string]any{"product_id": prodYen, "quantity": 2}))
		if o["currency"] != "JPY" || o["total_price"] != "2400" {
			t.Errorf("JPY order %v %v", o["currency"], o["total_price"])
		}
		o = h.create(order(nil, line(nil), map[string]any{"product_id": prodYen, "quantity": 1, "price": "9.00"}))
		if o["currency"] != "USD" || o["total_price"] != "17.50" {
			t.Errorf("mixed order %v %v", o["currency"], o["total_price"])
		}
	})
}
