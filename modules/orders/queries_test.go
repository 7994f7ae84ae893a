package orders_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/gocommerce/commerce/modules/orders"
	ordershttp "github.com/gocommerce/commerce/modules/orders/adapters/http"
	"github.com/gocommerce/commerce/modules/orders/api"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/httpxtest"
)

// TestQueries exercises api.Queries, which the catalog and customers adapters use.
func TestQueries(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		var q api.Queries = h.queries
		if has, err := q.ProductHasOrders(ctx, prodMug); err != nil || has {
			t.Fatalf("no orders yet: %v %v", has, err)
		}
		o1 := h.simple(1, map[string]any{"customer_id": custAda, "shipping_address": map[string]any{"city": "Berlin"}, "client_details": map[string]any{"browser_ip": "203.0.113.9"}})
		h.simple(2, map[string]any{"email": bobEmail})
		o3 := h.simple(3, map[string]any{"customer_id": custAda})
		h.pay(o3["id"].(string), "pay_1", "30.50")
		for _, c := range []struct {
			id   string
			want bool
		}{{prodMug, true}, {prodShirt, false}, {"not-a-uuid", false}} {
			if has, err := q.ProductHasOrders(ctx, c.id); err != nil || has != c.want {
				t.Errorf("ProductHasOrders(%s) = %v %v", c.id, has, err)
			}
		}
		for _, c := range []struct {
			id   string
			want bool
		}{{custAda, true}, {custBob, true}, {unknownID, false}, {"x", false}} {
			if has, err := q.CustomerHasOrders(ctx, c.id); err != nil || has != c.want {
				t.Errorf("CustomerHasOrders(%s) = %v %v", c.id, has, err)
			}
		}
		list, total, err := q.ListCustomerOrders(ctx, custAda, api.CustomerOrderFilter{}, 0, 10)
		if err != nil || total != 2 || len(list) != 2 || list[0].OrderNumber != "1003" || list[1].TotalPrice != "13.50" {
			t.Fatalf("ListCustomerOrders %v %d %+v", err, total, list)
		}
		if list, total, _ := q.ListCustomerOrders(ctx, custAda, api.CustomerOrderFilter{FinancialStatus: "paid"}, 0, 10); total != 1 || list[0].OrderNumber != "1003" {
			t.Errorf("paid filter %d %+v", total, list)
		}
		if list, total, _ := q.ListCustomerOrders(ctx, custAda, api.CustomerOrderFilter{Status: "open"}, 1, 1); total != 2 || len(list) != 1 || list[0].OrderNumber != "1001" {
			t.Errorf("page 2 %d %+v", total, list)
		}
		if _, _, err := q.ListCustomerOrders(ctx, custAda, api.CustomerOrderFilter{Status: "done"}, 0, 10); err == nil {
			t.Error("unknown status accepted")
		}
		exp, err := q.ExportCustomerOrders(ctx, custAda)
		if err != nil || len(exp) != 2 || exp[0].OrderNumber != "1003" || exp[0].Transactions == nil || len(*exp[0].Transactions) != 1 || exp[1].Fulfillments == nil {
			t.Fatalf("export %v %+v", err, exp)
		}
		got, err := q.GetOrder(ctx, "#1001")
		if err != nil || got.ID != o1["id"] {
			t.Fatalf("GetOrder %v", err)
		}
		if _, err := q.GetOrder(ctx, unknownID); !errors.Is(err, api.ErrOrderNotFound) {
			t.Errorf("GetOrder unknown: %v", err)
		}
		// Anonymize: personal data gone, the orders stay (detached from the customer).
		if err := h.db.InTx(ctx, func(ctx context.Context) error { return q.AnonymizeCustomerOrders(ctx, custAda) }); err != nil {
			t.Fatal(err)
		}
		a := h.get(o1["id"].(string))
		if a["customer_id"] != nil || a["email"] != "" || a["phone"] != "" || a["shipping_address"] != nil || a["client_details"] != nil || a["total_price"] != "13.50" {
			t.Errorf("anonymized %v", a)
		}
		if has, _ := q.CustomerHasOrders(ctx, custAda); has {
			t.Error("anonymized customer still has orders")
		}
		if has, _ := q.CustomerHasOrders(ctx, custBob); !has {
			t.Error("another customer's orders were anonymized")
		}
	})
}

func TestRisks(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		clean := h.simple(1, map[string]any{"billing_address": map[string]any{"country": "DE"}, "shipping_address": map[string]any{"country": "DE"}})["id"].(string)
		r := h.Must(http.StatusOK, http.MethodGet, "/api/v1/orders/"+clean+"/risks", nil, "reader").Data()
		if r["order_id"] != clean || r["score"] != float64(0) || r["recommendation"] != "accept" || len(items(r, "reasons")) != 0 || r["assessed_at"] != "2026-03-01T10:00:00Z" {
			t.Errorf("clean %v", r)
		}
		// Disposable email, countries differ, three failed payments: cancel.
		risky := h.simple(1, map[string]any{"email": "x@mailinator.com", "billing_address": map[string]any{"country": "US"}, "shipping_address": map[string]any{"country": "NG"}})["id"].(string)
		for i := range 3 {
			h.paymentEvent("payment.failed", map[string]any{"payment_id": fmt.Sprint("pay_", i), "amount": "13.50", "currency": "USD", "order_id": risky})
		}
		r = h.Must(http.StatusOK, http.MethodGet, "/api/v1/orders/"+risky+"/risks", nil, "reader").Data()
		var codes []string
		for _, x := range items(r, "reasons") {
			codes = append(codes, x["code"].(string))
		}
		if r["score"] != float64(85) || r["recommendation"] != "cancel" || strings.Join(codes, ",") != "billing_shipping_country_mismatch,many_failed_payment_attempts,disposable_email_domain" {
			t.Errorf("risky %v", r)
		}
		// Large: at least 1000.00 while the store has fewer than 10 orders.
		large := h.simple(117, nil)["id"].(string) // 117 × 8.50 + 5.00 = 999.50
		if r := h.Must(http.StatusOK, http.MethodGet, "/api/v1/orders/"+large+"/risks", nil, "reader").Data(); r["score"] != float64(0) {
			t.Errorf("999.50 is large: %v", r)
		}
		large = h.simple(118, nil)["id"].(string) // 1008.00
		if r := h.Must(http.StatusOK, http.MethodGet, "/api/v1/orders/"+large+"/risks", nil, "reader").Data(); r["score"] != float64(25) || items(r, "reasons")[0]["code"] != "unusually_large_order" {
			t.Errorf("1008.00 is not large: %v", r)
		}
		h.expectError(404, "ORDER_NOT_FOUND", "not_found", http.MethodGet, "/api/v1/orders/"+unknownID+"/risks", nil, "reader")
	})
}

// TestEveryOrderEvent checks that each order.* event of Part 2 is written to the outbox
// by the operation its suffix names.
func TestEveryOrderEvent(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		id := h.simple(1, nil)["id"].(string)
		base := "/api/v1/orders/" + id
		h.Must(http.StatusOK, http.MethodPut, base, map[string]any{"note": "x"}, "admin")
		h.Must(http.StatusOK, http.MethodPost, base+"/cancel", nil, "admin")
		h.Must(http.StatusOK, http.MethodPost, base+"/reopen", nil, "admin")
		h.pay(id, "pay_1", "13.50")
		f := h.Must(http.StatusCreated, http.MethodPost, base+"/fulfillments", nil, "admin").Data()["id"].(string)
		h.Must(http.StatusOK, http.MethodPut, base+"/fulfillments/"+f, map[string]any{"tracking_number": "1"}, "admin")
		h.Must(http.StatusOK, http.MethodPost, base+"/fulfillments/"+f+"/cancel", nil, "admin")
		h.Must(http.StatusCreated, http.MethodPost, base+"/fulfillments", nil, "admin")
		h.Must(http.StatusOK, http.MethodPost, base+"/close", nil, "admin")
		h.Must(http.StatusCreated, http.MethodPost, base+"/refunds", map[string]any{"shipping": map[string]any{"full_refund": true}}, "admin")
		h.Must(http.StatusCreated, http.MethodPost, base+"/notes", map[string]any{"body": "done"}, "admin")
		for _, e := range []string{"order.created", "order.updated", "order.cancelled", "order.closed", "order.reopened", "order.payment_received",
			"order.fulfillment_created", "order.fulfillment_updated", "order.fulfillment_cancelled", "order.refund_created", "order.note_created"} {
			evs := h.Payloads(e, id)
			if len(evs) == 0 {
				t.Errorf("%s not written", e)
				continue
			}
			// The order events customers reads carry the order resource (decision 0044).
			if strings.HasPrefix(e, "order.") && !strings.Contains(e, "fulfillment") && !strings.Contains(e, "refund") && !strings.Contains(e, "note") {
				for _, k := range []string{"id", "order_number", "customer_id", "total_price", "currency", "status", "financial_status", "created_at", "updated_at"} {
					if _, ok := evs[0][k]; !ok {
						t.Errorf("%s lacks %s", e, k)
					}
				}
			}
		}
	})
}

// TestOpenAPIFragment checks that the fragment merges into a valid document and
// documents every route the handler registers.
func TestOpenAPIFragment(t *testing.T) {
	t.Parallel()
	if n := httpxtest.AssertRoutesDocumented(t, orders.NewModule(ordershttp.NewHandler(nil, nil), nil), "/api/v1/orders"); n != 27 {
		t.Errorf("%d orders routes registered, want 27", n)
	}
	m := orders.NewModule(nil, nil)
	if m.Name() != "orders" || m.Migrations().Module != "orders" {
		t.Errorf("module %q / %q", m.Name(), m.Migrations().Module)
	}
	if !errors.Is(apperr.New(apperr.NotFound, "ORDER_NOT_FOUND", "x"), api.ErrOrderNotFound) {
		t.Error("api.ErrOrderNotFound code")
	}
}
