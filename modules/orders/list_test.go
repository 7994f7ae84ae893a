package orders_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/httpxtest"
)

func TestGetOrder(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		o := h.simple(2, nil)
		id := o["id"].(string)
		for _, key := range []string{id, "1001", url.PathEscape("#1001"), strings.ToUpper(id)} {
			r := h.Must(http.StatusOK, http.MethodGet, "/api/v1/orders/"+key, nil, "reader")
			if r.Data()["id"] != id || r.Data()["order_number"] != "1001" {
				t.Errorf("GET %s: %v", key, r.Data()["id"])
			}
			if _, ok := r.Data()["fulfillments"]; ok {
				t.Errorf("GET %s without include shows fulfillments", key)
			}
		}
		for _, key := range []string{unknownID, "9999", "abc", "0"} {
			h.expectError(404, "ORDER_NOT_FOUND", "not_found", http.MethodGet, "/api/v1/orders/"+key, nil, "reader")
		}
		h.Must(http.StatusCreated, http.MethodPost, "/api/v1/orders/"+id+"/notes", map[string]any{"body": "hello"}, "staff")
		r := h.Must(http.StatusOK, http.MethodGet, "/api/v1/orders/1001?include=fulfillments,refunds,transactions,notes", nil, "reader")
		for _, k := range []string{"fulfillments", "refunds", "transactions"} {
			if list, ok := r.Data()[k].([]any); !ok || len(list) != 0 {
				t.Errorf("include %s: %v", k, r.Data()[k])
			}
		}
		if notes := items(r.Data(), "notes"); len(notes) != 1 || notes[0]["body"] != "hello" || notes[0]["author"] != "staff@example.com" {
			t.Errorf("include notes: %v", r.Data()["notes"])
		}
		h.expectError(400, 400, "validation", http.MethodGet, "/api/v1/orders/1001?include=everything", nil, "reader")
		h.expectError(401, 401, "auth", http.MethodGet, "/api/v1/orders/1001", nil, "")
		h.expectError(401, 401, "auth", http.MethodGet, "/api/v1/orders/1001", nil, "bogus")
		h.expectError(403, 403, "auth", http.MethodGet, "/api/v1/orders/1001", nil, "products")
	})
}

func TestListOrders(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		// 1001 ada 13.50 (mug + 5.00 shipping), paid; 1002 bob 22.00 (2 mugs), cancelled;
		// 1003 guest 30.50 (3 mugs), fulfilled; 1004 ada 90.00 (10 mugs + 5.00).
		o1 := h.simple(1, map[string]any{"customer_id": custAda})
		h.clock.Advance(time.Hour)
		o2 := h.simple(2, map[string]any{"email": bobEmail})
		h.clock.Advance(time.Hour)
		o3 := h.simple(3, nil)
		h.clock.Advance(time.Hour)
		o4 := h.simple(10, map[string]any{"customer_id": custAda})
		h.clock.Advance(time.Hour)
		h.pay(o1["id"].(string), "pay_1", "13.50")
		h.Must(http.StatusOK, http.MethodPost, "/api/v1/orders/"+o2["id"].(string)+"/cancel", nil, "admin")
		h.Must(http.StatusCreated, http.MethodPost, "/api/v1/orders/"+o3["id"].(string)+"/fulfillments", nil, "admin")
		numbers := func(q string) string {
			t.Helper()
			r := h.Must(http.StatusOK, http.MethodGet, "/api/v1/orders"+q, nil, "reader")
			var out []string
			for _, o := range r.List() {
				out = append(out, o["order_number"].(string))
			}
			return strings.Join(out, ",")
		}
		cases := map[string]string{
			"":                                     "1004,1003,1002,1001",
			"?order=asc":                           "1001,1002,1003,1004",
			"?status=open":                         "1004,1003,1001",
			"?status=cancelled":                    "1002",
			"?status=any":                          "1004,1003,1002,1001",
			"?financial_status=paid":               "1001",
			"?financial_status=pending":            "1004,1003,1002",
			"?fulfillment_status=fulfilled":        "1003",
			"?fulfillment_status=unfulfilled":      "1004,1002,1001",
			"?customer_id=" + custAda:              "1004,1001",
			"?email=BOB@example.com":               "1002",
			"?order_number=1003":                   "1003",
			"?order_number=%231003":                "1003",
			"?min_total=22":                        "1004,1003,1002",
			"?max_total=22.00":                     "1002,1001",
			"?min_total=20&max_total=40":           "1003,1002",
			"?created_after=2026-03-01T11:00:00Z":  "1004,1003,1002",
			"?created_before=2026-03-01T12:00:00Z": "1002,1001",
			"?created_before=2026-03-01":           "",
			"?created_after=2026-03-02":            "",
			"?updated_after=2026-03-01T14:00:00Z":  "1003,1002,1001",
			"?sort=total_price":                    "1004,1003,1002,1001",
			"?sort=total_price&order=asc":          "1001,1002,1003,1004",
			"?sort=updated_at&order=asc":           "1004,1001,1002,1003",
			"?status=open&customer_id=" + custAda:  "1004,1001",
		}
		for q, want := range cases {
			if got := numbers(q); got != want {
				t.Errorf("GET /orders%s = %s, want %s", q, got, want)
			}
		}
		r := h.Must(http.StatusOK, http.MethodGet, "/api/v1/orders?per_page=3&page=2", nil, "reader")
		p := r.Pagination()
		if len(r.List()) != 1 || p["total"] != float64(4) || p["per_page"] != float64(3) || p["current_page"] != float64(2) ||
			p["total_pages"] != float64(2) || p["has_next"] != false || p["has_prev"] != true {
			t.Errorf("page 2: %v %v", len(r.List()), p)
		}
		s := h.Must(http.StatusOK, http.MethodGet, "/api/v1/orders?order_number=1004", nil, "reader").List()[0]
		if httpxtest.Keys(s) != "created_at,currency,email,financial_status,fulfillment_status,id,order_number,status,total_price,updated_at" ||
			s["id"] != o4["id"] || s["email"] != guestEmail || s["total_price"] != "90.00" || s["currency"] != "USD" || s["status"] != "open" ||
			s["financial_status"] != "pending" || s["fulfillment_status"] != "unfulfilled" || s["created_at"] != "2026-03-01T13:00:00Z" {
			t.Errorf("summary %v", s)
		}
		for _, q := range []string{"status=paid", "financial_status=done", "fulfillment_status=shipped", "customer_id=nope", "order_number=abc",
			"min_total=-1", "max_total=x", "min_total=1e30", "max_total=99999999999999999999", "created_after=yesterday", "created_before=1/2/2026", "updated_after=x", "sort=email", "order=up", "page=0", "per_page=x"} {
			r := h.expectError(400, 400, "validation", http.MethodGet, "/api/v1/orders?"+q, nil, "reader")
			name, _, _ := strings.Cut(q, "=")
			if _, ok := r.Fields()[name]; !ok {
				t.Errorf("?%s: fields %v", q, r.Fields())
			}
		}
		// A customer lists only its own orders, whatever customer_id says.
		if got := numbers(""); got == "" {
			t.Fatal("no orders")
		}
		r = h.Must(http.StatusOK, http.MethodGet, "/api/v1/orders?customer_id="+custBob, nil, "cust:"+custAda)
		if len(r.List()) != 2 || r.List()[0]["order_number"] != "1004" || r.Pagination()["total"] != float64(2) {
			t.Errorf("customer list %s", r.Raw)
		}
		h.expectError(401, 401, "auth", http.MethodGet, "/api/v1/orders", nil, "")
		h.expectError(403, 403, "auth", http.MethodGet, "/api/v1/orders", nil, "products")
	})
}

func TestCustomerAccess(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		mine := h.simple(1, map[string]any{"customer_id": custAda})["id"].(string)
		theirs := h.simple(1, map[string]any{"customer_id": custBob})["id"].(string)
		ada := "cust:" + custAda
		h.Must(http.StatusOK, http.MethodGet, "/api/v1/orders/"+mine+"?include=fulfillments,refunds,transactions", nil, ada)
		h.Must(http.StatusOK, http.MethodGet, "/api/v1/orders/1001/fulfillments", nil, ada)
		h.Must(http.StatusOK, http.MethodGet, "/api/v1/orders/1001/refunds", nil, ada)
		h.Must(http.StatusOK, http.MethodGet, "/api/v1/orders/1001/transactions", nil, ada)
		for _, p := range []string{"", "/fulfillments", "/refunds", "/transactions"} {
			h.expectError(404, "ORDER_NOT_FOUND", "not_found", http.MethodGet, "/api/v1/orders/"+theirs+p, nil, ada)
		}
		h.expectError(404, "ORDER_NOT_FOUND", "not_found", http.MethodGet, "/api/v1/orders/1002", nil, ada)
		// Staff-only reads.
		h.expectError(403, 403, "auth", http.MethodGet, "/api/v1/orders/"+mine+"?include=notes", nil, ada)
		h.expectError(403, 403, "auth", http.MethodGet, "/api/v1/orders/"+mine+"/notes", nil, ada)
		h.expectError(403, 403, "auth", http.MethodGet, "/api/v1/orders/"+mine+"/risks", nil, ada)
		// No changes: the default customer scopes lack orders:write, and a customer token
		// that has it is still refused (403 whatever the order, even its own).
		writes := []struct{ method, path string }{
			{http.MethodPut, ""}, {http.MethodPatch, ""}, {http.MethodPost, "/cancel"}, {http.MethodPost, "/close"}, {http.MethodPost, "/reopen"},
			{http.MethodPost, "/line_items"}, {http.MethodPost, "/fulfillments"}, {http.MethodPost, "/notes"}, {http.MethodPost, "/refunds"},
			{http.MethodPost, "/refunds/calculate"}, {http.MethodPost, "/transactions"},
		}
		for _, w := range writes {
			for _, cred := range []string{ada, "custw:" + custAda} {
				for _, id := range []string{mine, theirs} {
					h.expectError(403, 403, "auth", w.method, "/api/v1/orders/"+id+w.path, map[string]any{"body": "x", "product_id": prodMug, "quantity": 1, "kind": "sale"}, cred)
				}
			}
		}
		// reader keys read but do not write.
		h.expectError(403, 403, "auth", http.MethodPost, "/api/v1/orders/"+mine+"/cancel", nil, "reader")
		if n := len(h.Events()); n != 2 {
			t.Errorf("%d events (only the two order.created expected)", n)
		}
	})
}
