package orders_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/orders/api"
	payments "github.com/gocommerce/commerce/modules/payments/api"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/ids"
)

func txKinds(o map[string]any) string {
	out := ""
	for _, t := range items(o, "transactions") {
		out += t["kind"].(string) + ":" + t["status"].(string) + ":" + t["amount"].(string) + " "
	}
	return out
}

func TestPaymentEvents(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		id := h.simple(2, map[string]any{"customer_id": custAda})["id"].(string) // 22.00
		// A failed attempt is recorded (risk counts them); nothing received.
		h.paymentEvent("payment.failed", map[string]any{"payment_id": "pay_f", "status": "failed", "amount": "22.00", "currency": "USD", "gateway": "test", "order_id": id, "error_code": "card_declined", "error_message": "declined"})
		o := h.get(id)
		if o["financial_status"] != "pending" || txKinds(o) != "sale:failure:22.00 " || items(o, "transactions")[0]["error_code"] != "card_declined" {
			t.Fatalf("after failure %v %s", o["financial_status"], txKinds(o))
		}
		// Part payment, then the rest; re-delivery counts nothing twice.
		h.pay(id, "pay_1", "10.00")
		h.pay(id, "pay_1", "10.00")
		if o := h.get(id); o["financial_status"] != "partially_paid" || o["total_outstanding"] != "12.00" {
			t.Fatalf("partial %v %v", o["financial_status"], o["total_outstanding"])
		}
		h.pay(id, "pay_2", "12.00")
		o = h.get(id)
		if o["financial_status"] != "paid" || o["total_outstanding"] != "0.00" || txKinds(o) != "sale:failure:22.00 sale:success:10.00 sale:success:12.00 " {
			t.Fatalf("paid %v %s", o["financial_status"], txKinds(o))
		}
		if n := len(h.Payloads("order.payment_received", id)); n != 2 {
			t.Errorf("order.payment_received %d, want 2", n)
		}
		if ev := h.LastEvent("order.payment_received", id); ev["financial_status"] != "paid" || ev["customer_id"] != custAda || ev["total_price"] != "22.00" {
			t.Errorf("payment_received data %v", ev)
		}
		// Payments for unknown orders, other currencies or without order are ignored.
		h.pay(unknownID, "pay_x", "1.00")
		h.paymentEvent("payment.succeeded", map[string]any{"payment_id": "pay_y", "amount": "1.00", "currency": "EUR", "order_id": id})
		h.paymentEvent("payment.succeeded", map[string]any{"payment_id": "pay_z", "amount": "1.00", "currency": "USD"})
		h.paymentEvent("payment.succeeded", map[string]any{"payment_id": "pay_z", "amount": "x", "currency": "USD", "order_id": id})
		if o := h.get(id); len(items(o, "transactions")) != 3 {
			t.Errorf("ignored payments recorded: %s", txKinds(o))
		}
		// A refund made through the payments API is recorded from refund.succeeded.
		h.paymentEvent("refund.succeeded", map[string]any{"refund_id": "ref_ext", "payment_id": "pay_2", "amount": "2.00", "currency": "USD", "status": "succeeded"})
		h.paymentEvent("refund.succeeded", map[string]any{"refund_id": "ref_ext", "payment_id": "pay_2", "amount": "2.00", "currency": "USD", "status": "succeeded"})
		o = h.get(id)
		if o["financial_status"] != "partially_refunded" || o["total_refunded"] != "2.00" {
			t.Errorf("external refund %v %v %s", o["financial_status"], o["total_refunded"], txKinds(o))
		}
		if ev := h.LastEvent("order.updated", id); ev["financial_status"] != "partially_refunded" {
			t.Errorf("order.updated after refund %v", ev["financial_status"])
		}
	})
}

// TestPaymentEventsInOneBatch: a relay batch of payment events reads the recorded
// sales once; a sale recorded before (or earlier in the batch) is not recorded again,
// an authorization named only by payment.created is read and recorded, the others
// are recorded in order.
func TestPaymentEventsInOneBatch(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		paid := h.simple(1, nil)["id"].(string)
		authorized := h.simple(1, nil)["id"].(string)
		failed := h.simple(1, nil)["id"].(string)
		h.pay(paid, "pay_1", "13.50")
		h.payments.put(payments.Payment{ID: "pay_2", Status: payments.StatusRequiresCapture, Amount: d("13.5"), Currency: "USD", Gateway: "stripe", OrderID: authorized})
		ev := func(typ string, data map[string]any) event.Event {
			raw, err := json.Marshal(data)
			if err != nil {
				t.Fatal(err)
			}
			return event.Event{ID: "evt_" + ids.New(), Type: typ, Data: raw}
		}
		sale := func(pay, order string) map[string]any {
			return map[string]any{"payment_id": pay, "status": "succeeded", "amount": "13.50", "currency": "USD", "gateway": "test", "order_id": order}
		}
		batch := []event.Event{
			ev("payment.created", sale("pay_1", paid)), ev("payment.succeeded", sale("pay_1", paid)), // recorded before: skipped
			ev("payment.created", map[string]any{"payment_id": "pay_2", "status": "pending", "order_id": authorized}), // read: authorized
			ev("payment.failed", map[string]any{"payment_id": "pay_3", "status": "failed", "amount": "13.50", "currency": "USD", "order_id": failed,
				"error_code": "card_declined"}),
			ev("payment.succeeded", sale("pay_4", failed)), ev("payment.succeeded", sale("pay_4", failed)), // the second: a repeat
		}
		if err := h.sub.HandlePayments(t.Context(), batch); err != nil {
			t.Fatal(err)
		}
		if o := h.get(paid); txKinds(o) != "sale:success:13.50 " || len(h.Payloads("order.payment_received", paid)) != 1 {
			t.Errorf("paid before the batch: %s, %d payment_received", txKinds(o), len(h.Payloads("order.payment_received", paid)))
		}
		if o := h.get(authorized); o["financial_status"] != "authorized" || txKinds(o) != "authorization:success:13.50 " {
			t.Errorf("authorized in the batch: %v %s", o["financial_status"], txKinds(o))
		}
		if o := h.get(failed); o["financial_status"] != "paid" || txKinds(o) != "sale:failure:13.50 sale:success:13.50 " ||
			len(h.Payloads("order.payment_received", failed)) != 1 {
			t.Errorf("failed then paid in the batch: %v %s", o["financial_status"], txKinds(o))
		}
	})
}

func TestAuthorizationCaptureVoid(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		id := h.simple(2, nil)["id"].(string)
		id2 := h.simple(1, nil)["id"].(string)
		// An authorization raises only payment.created: the order reads the payment.
		h.payments.put(payments.Payment{ID: "pay_a", Status: payments.StatusRequiresCapture, Amount: d("22"), Currency: "USD", Gateway: "stripe", OrderID: id})
		h.payments.put(payments.Payment{ID: "pay_b", Status: payments.StatusRequiresCapture, Amount: d("13.5"), Currency: "USD", Gateway: "stripe", OrderID: id2})
		h.payments.put(payments.Payment{ID: "pay_p", Status: payments.StatusPending, Amount: d("13.5"), Currency: "USD", Gateway: "stripe", OrderID: id2})
		h.paymentEvent("payment.created", map[string]any{"payment_id": "pay_a", "status": "pending", "amount": "22.00", "currency": "USD", "order_id": id})
		h.paymentEvent("payment.created", map[string]any{"payment_id": "pay_b", "status": "pending", "amount": "13.50", "currency": "USD", "order_id": id2})
		h.paymentEvent("payment.created", map[string]any{"payment_id": "pay_p", "status": "pending", "amount": "13.50", "currency": "USD", "order_id": id2})
		h.paymentEvent("payment.created", map[string]any{"payment_id": "pay_unknown", "status": "pending", "amount": "1.00", "currency": "USD", "order_id": id2})
		o := h.get(id)
		if o["financial_status"] != "authorized" || txKinds(o) != "authorization:success:22.00 " {
			t.Fatalf("authorized %v %s", o["financial_status"], txKinds(o))
		}
		auth := items(o, "transactions")[0]
		if auth["payment_id"] != "pay_a" || auth["gateway"] != "stripe" {
			t.Errorf("authorization %v", auth)
		}
		base := "/api/v1/orders/" + id + "/transactions"
		// Mark as paid is for pending orders only; capture needs a parent.
		h.expectError(400, "INVALID_STATUS_TRANSITION", "validation", http.MethodPost, base, map[string]any{"kind": "sale"}, "writer")
		h.expectError(400, 400, "validation", http.MethodPost, base, map[string]any{"kind": "capture"}, "writer")
		h.expectError(400, 400, "validation", http.MethodPost, base, map[string]any{"kind": "refund"}, "writer")
		h.expectError(404, "TRANSACTION_NOT_FOUND", "not_found", http.MethodPost, base, map[string]any{"kind": "capture", "parent_id": unknownID}, "writer")
		h.expectError(400, "INVALID_PRICE", "validation", http.MethodPost, base, map[string]any{"kind": "capture", "parent_id": auth["id"], "amount": "30.00"}, "writer")
		// Capture through the payments port: the capture is recorded, and the later
		// payment.succeeded event of the capture changes nothing.
		r := h.Must(http.StatusCreated, http.MethodPost, base, map[string]any{"kind": "capture", "parent_id": auth["id"]}, "writer")
		if c := r.Data(); c["kind"] != "capture" || c["status"] != "success" || c["amount"] != "22.00" || c["parent_id"] != auth["id"] || c["payment_id"] != "pay_a" {
			t.Errorf("capture %v", c)
		}
		if len(h.payments.captures) != 1 || h.payments.captures[0].PaymentID != "pay_a" {
			t.Errorf("captures %v", h.payments.captures)
		}
		h.pay(id, "pay_a", "22.00")
		o = h.get(id)
		if o["financial_status"] != "paid" || txKinds(o) != "authorization:success:22.00 capture:success:22.00 " {
			t.Errorf("captured %v %s", o["financial_status"], txKinds(o))
		}
		if n := len(h.Payloads("order.payment_received", id)); n != 1 {
			t.Errorf("order.payment_received %d", n)
		}
		h.expectError(400, "INVALID_STATUS_TRANSITION", "validation", http.MethodPost, base, map[string]any{"kind": "capture", "parent_id": auth["id"]}, "writer")
		// Void the other order's authorization (by its payment id).
		r = h.Must(http.StatusCreated, http.MethodPost, "/api/v1/orders/"+id2+"/transactions", map[string]any{"kind": "void", "parent_id": "pay_b"}, "writer")
		if r.Data()["kind"] != "void" || len(h.payments.cancels) != 1 {
			t.Errorf("void %v %v", r.Data(), h.payments.cancels)
		}
		h.paymentEvent("payment.canceled", map[string]any{"payment_id": "pay_b", "status": "canceled", "amount": "13.50", "currency": "USD", "order_id": id2})
		o2 := h.get(id2)
		if o2["financial_status"] != "voided" || txKinds(o2) != "authorization:success:13.50 void:success:13.50 " {
			t.Errorf("voided %v %s", o2["financial_status"], txKinds(o2))
		}
		if ev := h.LastEvent("order.updated", id2); ev["financial_status"] != "voided" {
			t.Errorf("order.updated %v", ev["financial_status"])
		}
		// Mark as paid: a manual sale of the outstanding amount.
		id3 := h.simple(1, nil)["id"].(string)
		h.expectError(400, 400, "validation", http.MethodPost, "/api/v1/orders/"+id3+"/transactions", map[string]any{"kind": "sale", "gateway": "stripe"}, "writer")
		h.expectError(400, "INVALID_PRICE", "validation", http.MethodPost, "/api/v1/orders/"+id3+"/transactions", map[string]any{"kind": "sale", "amount": "99.00"}, "writer")
		r = h.Must(http.StatusCreated, http.MethodPost, "/api/v1/orders/"+id3+"/transactions", map[string]any{"kind": "sale", "amount": "3.50"}, "writer")
		if r.Data()["gateway"] != "manual" || r.Data()["amount"] != "3.50" || r.Data()["payment_id"] != nil {
			t.Errorf("manual sale %v", r.Data())
		}
		h.Must(http.StatusCreated, http.MethodPost, "/api/v1/orders/"+id3+"/transactions", map[string]any{"kind": "sale"}, "writer")
		l := h.Must(http.StatusOK, http.MethodGet, "/api/v1/orders/"+id3+"/transactions", nil, "reader")
		if len(l.List()) != 2 || l.List()[1]["amount"] != "10.00" || h.get(id3)["financial_status"] != "paid" {
			t.Errorf("transactions %s", l.Raw)
		}
		if n := len(h.Payloads("order.payment_received", id3)); n != 2 {
			t.Errorf("order.payment_received %d", n)
		}
	})
}

func TestRefunds(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		// 2 shirts S (19.99) + 1 mug (8.50), 6.00 shipping, 10% tax, 2.00 discount,
		// claimed from stock: subtotal 48.48, tax round((48.48 - 2.00) × 0.1) = 4.65,
		// total 57.13.
		o := h.create(map[string]any{
			"email": guestEmail, "inventory_behaviour": "decrement_obeying_policy",
			"line_items":     []any{map[string]any{"product_id": prodShirt, "variant_id": varShirtS, "quantity": 2}, map[string]any{"product_id": prodMug, "quantity": 1}},
			"shipping_lines": []any{map[string]any{"title": "Express", "price": "6.00"}},
			"tax_lines":      []any{map[string]any{"title": "Tax", "rate": "0.1"}},
			"discount_codes": []any{map[string]any{"code": "TWO", "amount": "2.00"}},
		})
		id := o["id"].(string)
		if o["total_price"] != "57.13" || h.inventory.level(varShirtS) != 8 {
			t.Fatalf("order total %v, shirt stock %d", o["total_price"], h.inventory.level(varShirtS))
		}
		shirt, mug := items(o, "line_items")[0]["id"].(string), items(o, "line_items")[1]["id"].(string)
		base := "/api/v1/orders/" + id + "/refunds"
		one := map[string]any{"refund_line_items": []any{map[string]any{"line_item_id": shirt, "quantity": 1, "restock": true}}, "shipping": map[string]any{"full_refund": true}}
		// Unpaid: nothing can be refunded.
		h.expectError(400, "REFUND_EXCEEDS_TOTAL", "validation", http.MethodPost, base, one, "writer")
		h.pay(id, "pay_1", "57.13")
		// Calculate: the shirt 19.99 less its discount share round(2.00 × 19.99 / 48.48) =
		// 0.82 → 19.17; tax 4.65 × 19.17 / 46.48 = 1.92; shipping 6.00; total 27.09.
		c := h.Must(http.StatusOK, http.MethodPost, base+"/calculate", one, "writer").Data()
		want := map[string]any{"order_id": id, "currency": "USD", "subtotal": "19.17", "total_tax": "1.92", "amount": "27.09", "maximum_refundable": "57.13"}
		for k, v := range want {
			if c[k] != v {
				t.Errorf("calculate %s = %v, want %v", k, c[k], v)
			}
		}
		if sh, _ := c["shipping"].(map[string]any); sh["amount"] != "6.00" || sh["maximum_refundable"] != "6.00" {
			t.Errorf("calculate shipping %v", c["shipping"])
		}
		if ls := items(c, "refund_line_items"); len(ls) != 1 || ls[0]["subtotal"] != "19.17" || ls[0]["total_tax"] != "1.92" || ls[0]["restock"] != true {
			t.Errorf("calculate lines %v", c["refund_line_items"])
		}
		sugg := items(c, "transactions")
		if len(sugg) != 1 || sugg[0]["kind"] != "suggested_refund" || sugg[0]["amount"] != "27.09" || sugg[0]["maximum_refundable"] != "57.13" || sugg[0]["payment_id"] != "pay_1" {
			t.Errorf("suggested %v", sugg)
		}
		if len(h.payments.refunds) != 0 || len(h.Events("order.refund_created")) != 0 {
			t.Fatal("calculate changed something")
		}
		// Errors.
		h.expectError(404, "LINE_ITEM_NOT_FOUND", "not_found", http.MethodPost, base+"/calculate", map[string]any{"refund_line_items": []any{map[string]any{"line_item_id": unknownID, "quantity": 1}}}, "writer")
		h.expectError(400, "INVALID_QUANTITY", "validation", http.MethodPost, base, map[string]any{"refund_line_items": []any{map[string]any{"line_item_id": shirt, "quantity": 3}}}, "writer")
		h.expectError(400, "INVALID_QUANTITY", "validation", http.MethodPost, base, map[string]any{"refund_line_items": []any{map[string]any{"line_item_id": shirt, "quantity": 0}}}, "writer")
		h.expectError(400, "REFUND_EXCEEDS_TOTAL", "validation", http.MethodPost, base, map[string]any{"shipping": map[string]any{"amount": "6.01"}}, "writer")
		parent := items(h.get(id), "transactions")[0]["id"].(string)
		h.expectError(400, "REFUND_EXCEEDS_TOTAL", "validation", http.MethodPost, base, map[string]any{"transactions": []any{map[string]any{"parent_id": parent, "amount": "57.14", "kind": "refund"}}}, "writer")
		h.expectError(400, 400, "validation", http.MethodPost, base, map[string]any{"transactions": []any{map[string]any{"parent_id": unknownID, "amount": "1.00"}}}, "writer")
		h.expectError(400, 400, "validation", http.MethodPost, base, map[string]any{"transactions": []any{map[string]any{"parent_id": parent, "amount": "1.00", "kind": "sale"}}}, "writer")
		h.expectError(400, 400, "validation", http.MethodPost, base, map[string]any{}, "writer")
		h.expectError(400, "INVALID_PRICE", "validation", http.MethodPost, base, map[string]any{"transactions": []any{map[string]any{"parent_id": parent, "amount": "1.001"}}}, "writer")
		// Create: money back at the gateway, the shirt restocked, partially_refunded.
		r := h.Must(http.StatusCreated, http.MethodPost, base, map[string]any{
			"note": "damaged", "notify_customer": true, "refund_line_items": one["refund_line_items"], "shipping": one["shipping"],
		}, "writer").Data()
		if r["status"] != "success" || r["amount"] != "27.09" || r["note"] != "damaged" || r["notify_customer"] != true || r["processed_at"] == nil {
			t.Errorf("refund %v", r)
		}
		rtx := items(r, "transactions")
		if len(rtx) != 1 || rtx[0]["kind"] != "refund" || rtx[0]["status"] != "success" || rtx[0]["amount"] != "27.09" || rtx[0]["parent_id"] != parent || rtx[0]["payment_refund_id"] != "ref_1" {
			t.Errorf("refund transactions %v", rtx)
		}
		if len(h.payments.refunds) != 1 || h.payments.refunds[0].PaymentID != "pay_1" || h.payments.refunds[0].Amount != "27.09" ||
			h.payments.refunds[0].Metadata["order_id"] != id || h.payments.refunds[0].Metadata["order_transaction_id"] != rtx[0]["id"] {
			t.Errorf("gateway refunds %+v", h.payments.refunds)
		}
		if h.inventory.level(varShirtS) != 9 {
			t.Errorf("shirt stock after restock %d", h.inventory.level(varShirtS))
		}
		got := h.get(id)
		if got["financial_status"] != "partially_refunded" || got["total_refunded"] != "27.09" || items(got, "line_items")[0]["refunded_quantity"] != float64(1) {
			t.Errorf("after refund %v %v", got["financial_status"], got["total_refunded"])
		}
		if refunds := items(got, "refunds"); len(refunds) != 1 || refunds[0]["id"] != r["id"] {
			t.Errorf("include refunds %v", got["refunds"])
		}
		ev := h.LastEvent("order.refund_created", id)
		if ev["id"] != r["id"] || ev["amount"] != "27.09" || ev["order_number"] != "1001" {
			t.Errorf("order.refund_created %v", ev)
		}
		if ev := h.LastEvent("order.updated", id); ev["financial_status"] != "partially_refunded" {
			t.Errorf("order.updated %v", ev["financial_status"])
		}
		// The payments module's refund.succeeded for this refund changes nothing more.
		h.paymentEvent("refund.succeeded", map[string]any{"refund_id": "ref_1", "payment_id": "pay_1", "amount": "27.09", "currency": "USD",
			"metadata": map[string]any{"order_id": id, "order_transaction_id": rtx[0]["id"]}})
		if got := h.get(id); got["total_refunded"] != "27.09" || len(h.Payloads("order.refund_created", id)) != 1 {
			t.Errorf("re-delivered refund counted: %v", got["total_refunded"])
		}
		// Shipping was refunded in full already.
		h.expectError(400, "REFUND_EXCEEDS_TOTAL", "validation", http.MethodPost, base, map[string]any{"shipping": map[string]any{"amount": "0.01"}}, "writer")
		// A gateway failure: 402, the refund is failed, its quantities are back, no event.
		h.payments.refundStatus = "error"
		two := map[string]any{"refund_line_items": []any{map[string]any{"line_item_id": mug, "quantity": 1, "restock": true}}}
		h.expectError(402, "PROCESSING_ERROR", "payment", http.MethodPost, base, two, "writer")
		got = h.get(id)
		if items(got, "line_items")[1]["refunded_quantity"] != float64(0) || got["total_refunded"] != "27.09" || h.inventory.level(varMug) != 4 {
			t.Errorf("failed refund left traces %v %v mug %d", items(got, "line_items")[1]["refunded_quantity"], got["total_refunded"], h.inventory.level(varMug))
		}
		if refunds := items(got, "refunds"); len(refunds) != 2 || refunds[1]["status"] != "failed" {
			t.Errorf("failed refund %v", got["refunds"])
		}
		// A refund the provider settles later stays pending until refund.succeeded.
		h.payments.refundStatus = "pending"
		p := h.Must(http.StatusCreated, http.MethodPost, base, two, "writer").Data()
		if p["status"] != "pending" || h.inventory.level(varMug) != 4 || len(h.Payloads("order.refund_created", id)) != 1 {
			t.Fatalf("pending refund %v", p)
		}
		ptx := items(p, "transactions")[0]
		h.paymentEvent("refund.succeeded", map[string]any{"refund_id": ptx["payment_refund_id"], "payment_id": "pay_1", "amount": ptx["amount"], "currency": "USD",
			"metadata": map[string]any{"order_id": id, "order_transaction_id": ptx["id"]}})
		got = h.get(id)
		if refunds := items(got, "refunds"); refunds[2]["status"] != "success" || h.inventory.level(varMug) != 5 || len(h.Payloads("order.refund_created", id)) != 2 {
			t.Errorf("settled later: %v mug %d", refunds[2], h.inventory.level(varMug))
		}
		// Refund the rest with an explicit transaction: refunded.
		h.payments.refundStatus = payments.StatusSucceeded
		rest := decimal.RequireFromString("57.13").Sub(decimal.RequireFromString(got["total_refunded"].(string))).StringFixed(2)
		h.Must(http.StatusCreated, http.MethodPost, base, map[string]any{"transactions": []any{map[string]any{"parent_id": parent, "amount": rest, "kind": "refund", "gateway": "test"}}}, "writer")
		if got := h.get(id); got["financial_status"] != "refunded" || got["total_refunded"] != "57.13" {
			t.Errorf("fully refunded %v %v", got["financial_status"], got["total_refunded"])
		}
		h.expectError(400, "REFUND_EXCEEDS_TOTAL", "validation", http.MethodPost, base, map[string]any{"transactions": []any{map[string]any{"parent_id": parent, "amount": "0.01"}}}, "writer")
		l := h.Must(http.StatusOK, http.MethodGet, base, nil, "reader")
		if len(l.List()) != 4 || l.Pagination()["total"] != float64(4) {
			t.Errorf("list %d", len(l.List()))
		}
		h.expectError(404, "ORDER_NOT_FOUND", "not_found", http.MethodPost, "/api/v1/orders/"+unknownID+"/refunds", one, "writer")
	})
}

func TestManualRefund(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		id := h.simple(1, nil)["id"].(string)
		h.Must(http.StatusCreated, http.MethodPost, "/api/v1/orders/"+id+"/transactions", map[string]any{"kind": "sale"}, "writer")
		r := h.Must(http.StatusCreated, http.MethodPost, "/api/v1/orders/"+id+"/refunds", map[string]any{"shipping": map[string]any{"full_refund": true}}, "writer").Data()
		if r["status"] != "success" || r["amount"] != "5.00" || items(r, "transactions")[0]["gateway"] != "manual" || len(h.payments.refunds) != 0 {
			t.Errorf("manual refund %v", r)
		}
		if got := h.get(id); got["financial_status"] != "partially_refunded" {
			t.Errorf("status %v", got["financial_status"])
		}
		// An items-only refund (no money) succeeds at once and restocks nothing unclaimed.
		r = h.Must(http.StatusCreated, http.MethodPost, "/api/v1/orders/"+id+"/refunds", map[string]any{
			"refund_line_items": []any{map[string]any{"line_item_id": items(h.get(id), "line_items")[0]["id"], "quantity": 1, "restock": true}}, "transactions": []any{},
		}, "writer").Data()
		if r["status"] != "success" || r["amount"] != "0.00" || h.inventory.level(varMug) != 5 {
			t.Errorf("items-only refund %v mug %d", r, h.inventory.level(varMug))
		}
		if got := h.get(id); items(got, "line_items")[0]["fulfillable_quantity"] != float64(0) || got["fulfillment_status"] != "unfulfilled" {
			t.Errorf("refunded item still fulfillable %v", items(got, "line_items")[0])
		}
	})
}

// An order created with its payment (checkout's charge) is paid at once, in the create:
// order.created shows it paid and order.payment_received follows; the payment's later
// events record nothing again. A payment of another order is not recorded.
func TestCreateOrderWithPayment(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		orderID, otherID := ids.New(), ids.New()
		h.payments.put(payments.Payment{ID: "pay_c", Status: payments.StatusSucceeded, Amount: d("22"), Currency: "USD", Gateway: "test", OrderID: orderID})
		h.payments.put(payments.Payment{ID: "pay_o", Status: payments.StatusSucceeded, Amount: d("22"), Currency: "USD", Gateway: "test", OrderID: otherID})
		cmd := func(id, paymentID string) api.CreateOrderCommand {
			return api.CreateOrderCommand{ID: id, Email: guestEmail, PaymentID: paymentID,
				LineItems:     []api.LineItemInput{{ProductID: prodMug, Quantity: 2}},
				ShippingLines: []api.ShippingLineInput{{Title: "Standard", Price: "5.00"}}}
		}
		o, err := h.svc.CreateOrder(context.Background(), cmd(orderID, "pay_c"))
		if err != nil {
			t.Fatal(err)
		}
		if o.FinancialStatus != "paid" {
			t.Fatalf("created %s", o.FinancialStatus)
		}
		got := h.get(orderID)
		if txKinds(got) != "sale:success:22.00 " || items(got, "transactions")[0]["gateway"] != "test" {
			t.Errorf("transactions %s", txKinds(got))
		}
		if ev := h.LastEvent("order.created", orderID); ev["financial_status"] != "paid" {
			t.Errorf("order.created %v", ev["financial_status"])
		}
		if n := len(h.Payloads("order.payment_received", orderID)); n != 1 {
			t.Errorf("order.payment_received %d, want 1", n)
		}
		h.pay(orderID, "pay_c", "22.00")
		if err := h.svc.SyncPayment(context.Background(), "pay_c"); err != nil {
			t.Fatal(err)
		}
		if got := h.get(orderID); txKinds(got) != "sale:success:22.00 " || len(h.Payloads("order.payment_received", orderID)) != 1 || len(h.Payloads("order.updated", orderID)) != 0 {
			t.Errorf("re-delivered payment %s", txKinds(got))
		}
		// Another order's payment is not this order's.
		other, err := h.svc.CreateOrder(context.Background(), cmd(ids.New(), "pay_o"))
		if err != nil || other.FinancialStatus != "pending" {
			t.Errorf("another order's payment: %v %v", other.FinancialStatus, err)
		}
	})
}

// A caller that has just recorded the payment and read the lines' variants (checkout)
// passes them: the order is built from them without reading the payment or the
// catalog (docs/decisions/0229). Neither the product nor the payment exists in the
// fakes here: a read would find neither.
func TestCreateOrderWithKnownPaymentAndVariants(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		orderID, productID, variantID := ids.New(), ids.New(), ids.New()
		line := api.LineItemInput{ProductID: productID, VariantID: variantID, Quantity: 2, Price: "10.00"}
		cmd := api.CreateOrderCommand{ID: orderID, Email: guestEmail, PaymentID: "pay_k", LineItems: []api.LineItemInput{line},
			ShippingLines: []api.ShippingLineInput{{Title: "Standard", Price: "5.00"}}}
		if _, err := h.svc.CreateOrder(context.Background(), cmd); err == nil {
			t.Fatal("an unknown product was not read from the catalog")
		}
		cmd.LineItems[0].Variant = &api.LineVariant{ProductTitle: "Known", VariantTitle: "Large", SKU: "K-L", Currency: "USD", Price: d("12.00"),
			Weight: d("300"), WeightUnit: "g", RequiresShipping: true, Taxable: true, Tracked: true}
		cmd.Payment = &api.KnownPayment{ID: "pay_k", Status: payments.StatusSucceeded, Amount: d("25"), Currency: "USD", Gateway: "test", OrderID: orderID}
		o, err := h.svc.CreateOrder(context.Background(), cmd)
		if err != nil {
			t.Fatal(err)
		}
		if o.FinancialStatus != "paid" {
			t.Fatalf("created %s", o.FinancialStatus)
		}
		got := h.get(orderID)
		li := items(got, "line_items")[0]
		if li["title"] != "Known" || li["variant_title"] != "Large" || li["sku"] != "K-L" || li["price"] != "10.00" || got["total_weight"] != "0.600" {
			t.Errorf("line %v, total weight %v", li, got["total_weight"])
		}
		if txKinds(got) != "sale:success:25.00 " || items(got, "transactions")[0]["gateway"] != "test" {
			t.Errorf("transactions %s", txKinds(got))
		}
		// A known payment of another order is not recorded.
		other := ids.New()
		cmd.ID, cmd.Payment.OrderID = other, orderID
		if o, err := h.svc.CreateOrder(context.Background(), cmd); err != nil || o.FinancialStatus != "pending" {
			t.Errorf("another order's payment: %v %v", o.FinancialStatus, err)
		}
	})
}
