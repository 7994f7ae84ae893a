package main

import (
	"context"
	"net/http"
	"testing"

	"github.com/gocommerce/commerce/modules/subscriptions"
)

// Subscriptions wired as in production, on the real payments (the test gateway's
// saved cards), orders, catalog, customers and notifications modules: the first cycle
// billed at create pays and makes a paid order; a declined saved card puts the
// subscription in dunning; the customer changes the card, the admin retries and it
// recovers (the first dunning email went through the notifications module); the
// customer's export holds the subscription with its invoices.
func TestSubscriptionsEndToEnd(t *testing.T) {
	onEachEngine(t, nil, func(t *testing.T, ta *testApp) {
		e := checkoutOn(ta)
		pid := e.product("10.00", 100)
		// buys is a customer's paid order of one unit: their credentials and the order's id.
		buys := func(s shopper) (creds []string, orderID string) {
			t.Helper()
			creds = bearer(s.access)
			cartID, _ := ta.customerCart("USD", pid, 1, creds...)
			done := ta.must(http.StatusOK, "POST", "/api/v1/checkout/complete", map[string]any{"cart_id": cartID, "shipping_address": usAddress, "payment_method": card("4242424242424242")}, creds...)
			return creds, dataOf(t, done)["order"].(map[string]any)["id"].(string)
		}
		ada := ta.register("ada@example.com")
		adaAuth, orderID := buys(ada)
		save := func(number string) string {
			t.Helper()
			r := e.do("POST", "/api/v1/payments/saved-methods", map[string]any{"gateway_id": "test",
				"payment_method_data": map[string]any{"type": "card", "card": map[string]any{"number": number, "exp_month": 12, "exp_year": 2030, "cvc": "123", "name": "Ada"}}}, adaAuth...)
			if r.Status != http.StatusCreated && r.Status != http.StatusOK {
				t.Fatalf("save card: %d %s", r.Status, r.Body)
			}
			tok, _ := r.JSON(t)["token"].(string)
			if tok == "" {
				t.Fatalf("no token: %s", r.Body)
			}
			return tok
		}
		good, declined := save("4242424242424242"), save("4000000000000002")
		create := func(token string) map[string]any {
			t.Helper()
			r := e.do("POST", "/api/v1/subscriptions", map[string]any{"customer_id": ada.id, "order_id": orderID, "product_id": pid,
				"interval": "monthly", "interval_count": 1, "currency": "USD", "amount": "10.00", "setup_fee": "2.50",
				"payment_method_id": token, "gateway": "test"}, adaAuth...)
			if r.Status != http.StatusCreated {
				t.Fatalf("create: %d %s", r.Status, r.Body)
			}
			return r.JSON(t)["subscription"].(map[string]any)
		}
		invoices := func(id string) []any {
			t.Helper()
			return ta.must(http.StatusOK, "GET", "/api/v1/subscriptions/"+id+"/invoices", nil, adaAuth...).JSON(t)["invoices"].([]any)
		}

		// Paid at once: an order paid by the cycle's payment.
		paid := create(good)
		if paid["status"] != "active" || paid["current_cycle"] != float64(1) {
			t.Fatalf("paid subscription %v", paid)
		}
		inv := invoices(paid["id"].(string))[0].(map[string]any)
		if inv["status"] != "paid" || inv["total"] != "12.50" || inv["order_id"] == nil || inv["payment_id"] == nil {
			t.Fatalf("invoice %v", inv)
		}
		o := ta.must(http.StatusOK, "GET", "/api/v1/orders/"+inv["order_id"].(string), nil, e.admin...)
		if ord := dataOf(t, o); ord["financial_status"] != "paid" || ord["total_price"] != "12.50" || ord["source_name"] != "subscription" {
			t.Errorf("cycle order %v", ord)
		}

		// Another customer cannot subscribe with Ada's saved card (nor be charged to it).
		bob := ta.register("bob@example.com")
		bobAuth, bobOrderID := buys(bob)
		steal := e.do("POST", "/api/v1/subscriptions", map[string]any{"customer_id": bob.id, "order_id": bobOrderID,
			"product_id": pid, "interval": "monthly", "interval_count": 1, "currency": "USD", "amount": "10.00",
			"payment_method_id": good, "gateway": "test"}, bobAuth...)
		if e := errorOf(t, steal); steal.Status != http.StatusBadRequest || e["fields"].(map[string]any)["payment_method_id"] == nil {
			t.Fatalf("Bob subscribing with Ada's card: %d %s", steal.Status, steal.Body)
		}
		var charged int64
		if err := ta.app.DB.Gorm().Raw("SELECT COUNT(*) FROM payments_payments WHERE saved_method_token = ? AND status = 'succeeded'", good).Scan(&charged).Error; err != nil {
			t.Fatal(err)
		}
		if charged != 1 { // Ada's own first cycle
			t.Fatalf("Ada's saved card was charged %d times, want 1 (her own subscription)", charged)
		}

		// Declined: past_due; the customer changes the card, the admin retries.
		failing := create(declined)
		id := failing["id"].(string)
		if failing["status"] != "past_due" {
			t.Fatalf("declined subscription %v", failing)
		}
		if inv := invoices(id)[0].(map[string]any); inv["status"] != "failed" || inv["failure_reason"] != "card_declined" {
			t.Fatalf("declined invoice %v", inv)
		}
		if n := e.count("SELECT COUNT(*) FROM notifications WHERE template_id = ? AND recipient = ?", "dunning_first_html", "ada@example.com"); n != 1 {
			t.Errorf("dunning emails through notifications: %d", n)
		}
		rows := e.do("GET", "/api/v1/admin/dunning/failed-payments", nil, e.admin...)
		if list, _ := rows.JSON(t)["data"].([]any); rows.Status != http.StatusOK || len(list) != 1 {
			t.Fatalf("failed payments: %d %s", rows.Status, rows.Body)
		}
		ta.must(http.StatusOK, "PATCH", "/api/v1/subscriptions/"+id, map[string]any{"payment_method_id": good}, adaAuth...) // the card changed
		r := e.do("POST", "/api/v1/admin/dunning/subscriptions/"+id+"/retry", nil, e.admin...)
		if r.Status != http.StatusOK || r.JSON(t)["status"] != "succeeded" {
			t.Fatalf("retry: %d %s", r.Status, r.Body)
		}
		got := e.do("GET", "/api/v1/subscriptions/"+id, nil, adaAuth...).JSON(t)["subscription"].(map[string]any)
		if got["status"] != "active" || got["current_cycle"] != float64(1) {
			t.Fatalf("recovered %v", got)
		}
		// The worker's sweep has nothing due.
		for _, m := range ta.app.Modules {
			if s, ok := m.(*subscriptions.Module); ok {
				if _, err := s.Service().BillDue(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
		}
		e.drain()

		// The export holds both subscriptions with their invoices.
		ex := e.do("POST", "/api/v1/customers/"+ada.id+"/export", nil, e.admin...)
		subs, _ := dataOf(t, ex)["subscriptions"].([]any)
		if len(subs) != 2 {
			t.Fatalf("export subscriptions %s", ex.Body)
		}
		for _, s := range subs {
			if invs, _ := s.(map[string]any)["invoices"].([]any); len(invs) != 1 {
				t.Errorf("exported subscription %v", s)
			}
		}
	})
}
