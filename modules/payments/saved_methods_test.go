package payments_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/ids"
)

// TestSavedMethods: save, list (own only), default handling, delete, paying with a saved
// card and save_payment_method.
func TestSavedMethods(t *testing.T) {
	eachStack(t, stackOptions{}, func(t *testing.T, s *stack) {
		save := func(cred, number string, def bool) httpxtest.Response {
			t.Helper()
			return s.do(http.MethodPost, "/api/v1/payments/saved-methods", cred, map[string]any{
				"gateway_id": "test", "payment_method_data": card(number), "set_as_default": def,
			})
		}
		r := save("alice", "4242 4242 4242 4242", false)
		if r.Code != 201 {
			t.Fatalf("save: %d %s", r.Code, r.Raw)
		}
		if got := keys(r.Body); !slices.Equal(got, []string{"expires_at", "payment_method", "token"}) {
			t.Fatalf("save keys %v", got)
		}
		first, _ := r.Body["token"].(string)
		if !strings.HasPrefix(first, "pm_") || !ids.Valid(strings.TrimPrefix(first, "pm_")) {
			t.Fatalf("token %q", first)
		}
		pm := sub(r.Body, "payment_method")
		if pm["method_type"] != "card" || pm["last_four"] != "4242" || pm["card_brand"] != "visa" || pm["exp_month"] != "12" ||
			pm["exp_year"] != "2030" || pm["cardholder_name"] != "Ada Lovelace" || pm["is_default"] != true {
			t.Fatalf("saved payment_method %v (first method is the default)", pm)
		}
		if mustTime(t, r.Body["expires_at"]).Format("2006-01-02") != "2031-01-01" {
			t.Fatalf("expires_at %v", r.Body["expires_at"])
		}
		second := save("alice", "5555555555554444", true).Body["token"].(string)
		third := save("alice", "4000000000000002", false).Body["token"].(string)
		if r := save("bob", "4242424242424242", false); r.Code != 201 {
			t.Fatalf("bob saves: %d", r.Code)
		}
		list := s.do(http.MethodGet, "/api/v1/payments/saved-methods", "alice", nil)
		items, _ := list.Body["data"].([]any)
		if list.Code != 200 || len(items) != 3 || sub(sub(list.Body, "meta"), "pagination")["total"] != float64(3) {
			t.Fatalf("list: %d %s", list.Code, list.Raw)
		}
		top := items[0].(map[string]any)
		if top["token"] != second || top["is_default"] != true || top["card_brand"] != "mastercard" || top["last_four"] != "4444" {
			t.Fatalf("default first: %v", top)
		}
		for _, k := range []string{"token", "method_type", "last_four", "card_brand", "exp_month", "exp_year", "cardholder_name", "is_default", "expires_at"} {
			if _, ok := top[k]; !ok {
				t.Errorf("saved method lacks %s", k)
			}
		}
		defaults := 0
		for _, it := range items {
			if it.(map[string]any)["is_default"] == true {
				defaults++
			}
		}
		if defaults != 1 {
			t.Fatalf("defaults: %d", defaults)
		}
		if b := s.do(http.MethodGet, "/api/v1/payments/saved-methods", "bob", nil); len(b.Body["data"].([]any)) != 1 {
			t.Fatalf("bob's list: %s", b.Raw)
		}
		if r := s.do(http.MethodGet, "/api/v1/payments/saved-methods?per_page=1&page=2", "alice", nil); len(r.Body["data"].([]any)) != 1 {
			t.Fatalf("paged: %s", r.Raw)
		}

		// Pay with a saved card: own token only.
		pay := map[string]any{"amount": "12.00", "currency": "USD", "payment_method": map[string]any{"type": "saved_card", "token": second}}
		r = s.do(http.MethodPost, "/api/v1/payments", "alice", pay)
		if r.Code != 200 || sub(r.Body, "payment_method")["last_four"] != "4444" || sub(r.Body, "payment_method")["token"] != second {
			t.Fatalf("pay with saved card: %d %s", r.Code, r.Raw)
		}
		if r := s.do(http.MethodPost, "/api/v1/payments", "bob", pay); r.Code != 400 || errCode(r) != "INVALID_PAYMENT_METHOD" {
			t.Fatalf("bob uses alice's card: %d %s", r.Code, r.Raw)
		}
		// The merchant may charge the customer's saved card for that customer.
		mpay := map[string]any{"amount": "12.00", "currency": "USD", "customer_id": aliceID, "payment_method": map[string]any{"type": "card", "token": second}}
		if r := s.do(http.MethodPost, "/api/v1/payments", "merchant", mpay); r.Code != 200 {
			t.Fatalf("merchant charges saved card: %d %s", r.Code, r.Raw)
		}
		// A saved declining card still declines.
		pay["payment_method"] = map[string]any{"type": "saved_card", "token": third}
		if r := s.do(http.MethodPost, "/api/v1/payments", "alice", pay); r.Code != 402 || r.Body["error_code"] != "card_declined" {
			t.Fatalf("saved declining card: %d %s", r.Code, r.Raw)
		}

		// Delete: another's token is not found; deleting the default promotes the newest.
		if r := s.do(http.MethodDelete, "/api/v1/payments/saved-methods/"+second, "bob", nil); r.Code != 404 || errCode(r) != "PAYMENT_METHOD_NOT_FOUND" {
			t.Fatalf("bob deletes: %d %s", r.Code, r.Raw)
		}
		d := s.do(http.MethodDelete, "/api/v1/payments/saved-methods/"+second, "alice", nil)
		if d.Code != 200 || d.Body["success"] != true || d.Body["token"] != second || d.Body["message"] == "" {
			t.Fatalf("delete: %d %s", d.Code, d.Raw)
		}
		list = s.do(http.MethodGet, "/api/v1/payments/saved-methods", "alice", nil)
		items = list.Body["data"].([]any)
		if len(items) != 2 || items[0].(map[string]any)["token"] != third || items[0].(map[string]any)["is_default"] != true ||
			items[1].(map[string]any)["token"] != first || items[1].(map[string]any)["is_default"] != false {
			t.Fatalf("after deleting the default: %s", list.Raw)
		}
		if r := s.do(http.MethodDelete, "/api/v1/payments/saved-methods/"+second, "alice", nil); r.Code != 404 {
			t.Fatalf("delete twice: %d", r.Code)
		}

		// save_payment_method keeps the card and answers its token.
		body := payBody("9.99", "4000 0000 0000 3055")
		body["save_payment_method"] = true
		r = s.do(http.MethodPost, "/api/v1/payments", "alice", body)
		tok, _ := sub(r.Body, "payment_method")["token"].(string)
		if r.Code != 200 || !strings.HasPrefix(tok, "pm_") {
			t.Fatalf("save_payment_method: %d %s", r.Code, r.Raw)
		}
		list = s.do(http.MethodGet, "/api/v1/payments/saved-methods", "alice", nil)
		if len(list.Body["data"].([]any)) != 3 {
			t.Fatalf("saved by payment: %s", list.Raw)
		}
		// ... also after 3D Secure.
		body = payBody("9.99", "4000002500003155")
		body["save_payment_method"] = true
		r = s.do(http.MethodPost, "/api/v1/payments", "alice", body)
		done := s.do(http.MethodPost, "/api/v1/payments/"+r.Body["payment_id"].(string)+"/complete", "alice", map[string]any{
			"action_type": "three_d_secure", "action_data": map[string]any{"payment_intent": sub(r.Body, "action_data")["payment_intent"]},
		})
		if tok, _ := sub(done.Body, "payment_method")["token"].(string); done.Code != 200 || !strings.HasPrefix(tok, "pm_") {
			t.Fatalf("save after 3DS: %d %s", done.Code, done.Raw)
		}
		// Invalid cards and gateways.
		if r := save("alice", "1234567812345678", false); r.Code != 400 || errCode(r) != "INVALID_PAYMENT_METHOD" {
			t.Fatalf("save invalid: %d %s", r.Code, r.Raw)
		}
		if r := s.do(http.MethodPost, "/api/v1/payments/saved-methods", "alice", map[string]any{"gateway_id": "paypal", "payment_method_data": card("4242424242424242")}); r.Code != 404 || errCode(r) != "GATEWAY_NOT_FOUND" {
			t.Fatalf("save on disabled gateway: %d %s", r.Code, r.Raw)
		}
		if r := s.do(http.MethodPost, "/api/v1/payments/saved-methods", "reader", map[string]any{"payment_method_data": card("4242424242424242")}); r.Code != 403 {
			t.Fatalf("reader saves: %d", r.Code)
		}
	})
}
