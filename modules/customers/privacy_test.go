package customers_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/ids"
)

func TestExport(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		id := h.enabled("ada@example.com", map[string]any{"accepts_marketing": true, "tags": []string{"vip"}, "metafields": map[string]any{"k": "v"},
			"addresses": []map[string]any{{"address1": "1 Main", "city": "Boston", "country": "US"}}})["id"].(string)
		bob := h.enabled("bob@example.com", nil)["id"].(string)
		h.order("order.created", orderData("o1", id, "1001", "12.50", "open", "paid", t0, t0))
		h.orders.orders[id] = []ports_OrderSummary{orderSummary("o1", "1001")}
		h.Must(202, http.MethodPost, "/api/v1/customers/recover", map[string]any{"email": "ada@example.com"}, "")
		h.clock.Advance(time.Minute)

		// The customer exports its own data.
		r := h.Must(200, http.MethodPost, "/api/v1/customers/"+id+"/export", nil, "cust:"+id)
		d := r.Data()
		if httpxtest.Keys(d) != "account,addresses,carts,consents,customer,exported_at,notifications,order_stats,orders,privacy_audit,subscriptions" {
			t.Fatalf("export members %s", httpxtest.Keys(d))
		}
		c := d["customer"].(map[string]any)
		if httpxtest.Keys(c) != customerKeys || c["email"] != "ada@example.com" || c["metafields"].(map[string]any)["k"] != "v" || c["orders_count"] != float64(1) {
			t.Fatalf("export customer %v", c)
		}
		if a := d["addresses"].([]any); len(a) != 1 || a[0].(map[string]any)["city"] != "Boston" {
			t.Fatalf("addresses %v", a)
		}
		if cons := d["consents"].(map[string]any); cons["accepts_marketing"] != true || cons["marketing_opt_in_at"] != "2026-03-01T10:00:00Z" {
			t.Fatalf("consents %v", cons)
		}
		acc := d["account"].(map[string]any)
		if acc["state"] != "enabled" || acc["has_password"] != true || acc["anonymized_at"] != nil {
			t.Fatalf("account %v", acc)
		}
		if tok := acc["pending_tokens"].([]any); len(tok) != 1 || httpxtest.Keys(tok[0].(map[string]any)) != "created_at,expires_at,purpose" || tok[0].(map[string]any)["purpose"] != "password_reset" {
			t.Fatalf("pending tokens %v", tok)
		}
		if st := d["order_stats"].([]any); len(st) != 1 || st[0].(map[string]any)["total_price"] != "12.50" || st[0].(map[string]any)["order_number"] != "1001" {
			t.Fatalf("order_stats %v", st)
		}
		if o := d["orders"].([]any); len(o) != 1 || o[0].(map[string]any)["id"] != "o1" {
			t.Fatalf("orders %v", o)
		}
		for _, k := range []string{"carts", "subscriptions", "notifications"} {
			if v, ok := d[k].([]any); !ok || len(v) != 0 {
				t.Errorf("%s = %v", k, d[k])
			}
		}
		audit := d["privacy_audit"].([]any)
		if len(audit) != 1 || audit[0].(map[string]any)["action"] != "export" || audit[0].(map[string]any)["actor"] != "customer:"+id || audit[0].(map[string]any)["actor_kind"] != "customer" ||
			audit[0].(map[string]any)["created_at"] != "2026-03-01T10:01:00Z" {
			t.Fatalf("audit %v", audit)
		}
		if evs := h.Payloads("customer.exported", id); len(evs) != 1 || evs[0]["actor"] != "customer:"+id || httpxtest.Keys(evs[0]) != "actor,customer_id,exported_at" {
			t.Fatalf("customer.exported %v", evs)
		}
		// Staff exports any customer; the trail grows; others' records are not found.
		d = h.Must(200, http.MethodPost, "/api/v1/customers/"+id+"/export", nil, "staff").Data()
		if a := d["privacy_audit"].([]any); len(a) != 2 || a[1].(map[string]any)["actor"] != "staff:s1" {
			t.Fatalf("audit after staff export %v", a)
		}
		assertError(t, h.Do(http.MethodPost, "/api/v1/customers/"+bob+"/export", nil, "cust:"+id), 404, "CUSTOMER_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodPost, "/api/v1/customers/"+ids.New()+"/export", nil, "admin"), 404, "CUSTOMER_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodPost, "/api/v1/customers/"+id+"/export", nil, "reader"), 403, 403, "auth")
	})
}

func TestAnonymize(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		id := h.enabled("ada@example.com", map[string]any{"first_name": "Ada", "last_name": "Lovelace", "phone": "+15550000000", "note": "vip caller",
			"accepts_marketing": true, "tags": []string{"vip"}, "metafields": map[string]any{"dob": "1815-12-10"},
			"addresses": []map[string]any{{"address1": "1 Main", "city": "Boston", "country": "US", "first_name": "Ada"}}})["id"].(string)
		h.order("order.created", orderData("o1", id, "1001", "12.50", "open", "paid", t0, t0))
		h.Must(202, http.MethodPost, "/api/v1/customers/recover", map[string]any{"email": "ada@example.com"}, "")

		assertError(t, h.Do(http.MethodPost, "/api/v1/customers/"+id+"/anonymize", nil, "cust:"+id), 403, 403, "auth")
		assertError(t, h.Do(http.MethodPost, "/api/v1/customers/"+id+"/anonymize", nil, "reader"), 403, 403, "auth")
		assertError(t, h.Do(http.MethodPost, "/api/v1/customers/"+ids.New()+"/anonymize", nil, "admin"), 404, "CUSTOMER_NOT_FOUND", "not_found")

		d := h.Must(200, http.MethodPost, "/api/v1/customers/"+id+"/anonymize", nil, "admin").Data()
		if !regexp.MustCompile(`^anonymized-[0-9a-f]{24}@invalid$`).MatchString(d["email"].(string)) {
			t.Fatalf("email %v", d["email"])
		}
		for k, v := range map[string]any{"first_name": "", "last_name": "", "phone": "", "note": "", "state": "disabled", "accepts_marketing": false,
			"marketing_opt_in_at": nil, "default_address": nil, "orders_count": float64(1), "total_spent": "12.50", "last_order_id": "o1"} {
			if d[k] != v {
				t.Errorf("%s = %v, want %v", k, d[k], v)
			}
		}
		if len(d["tags"].([]any)) != 0 || len(d["addresses"].([]any)) != 0 || len(d["metafields"].(map[string]any)) != 0 {
			t.Errorf("tags/addresses/metafields kept: %v", d)
		}
		// Nothing of the old data is left in the customer's rows; the login and tokens are gone.
		for _, needle := range []string{"ada@example.com", "Lovelace", "5550000000", "vip caller", "1815"} {
			for table, col := range map[string]string{"customers": "id", "customer_addresses": "customer_id"} {
				var rows []map[string]any
				if err := h.db.Gorm().Table(table).Where(col+" = ?", id).Find(&rows).Error; err != nil {
					t.Fatal(err)
				}
				for _, row := range rows {
					for k, v := range row {
						if s, ok := v.(string); ok && strings.Contains(s, needle) {
							t.Errorf("%s.%s still holds %q", table, k, needle)
						}
					}
				}
			}
		}
		if n := h.Count("customer_tags", "customer_id = ?", id); n != 0 {
			t.Errorf("tag rows %d", n)
		}
		if _, ok := h.creds.get(t, id); ok {
			t.Error("login kept")
		}
		if n := h.Count("customers_account_tokens", "customer_id = ?", id); n != 0 {
			t.Errorf("tokens kept: %d", n)
		}
		if n := h.Count("customers_order_stats", "customer_id = ?", id); n != 1 {
			t.Errorf("order history not kept: %d", n)
		}
		if evs := h.Payloads("customer.anonymized", id); len(evs) != 1 || evs[0]["email"] != d["email"] {
			t.Fatalf("customer.anonymized %v", evs)
		}
		if evs := h.Payloads("customer.disabled", id); len(evs) != 1 {
			t.Fatalf("customer.disabled %v", evs)
		}
		var audit []struct{ Action, Actor string }
		if err := h.db.Gorm().Table("customers_privacy_audit").Where("customer_id = ?", id).Find(&audit).Error; err != nil || len(audit) != 1 || audit[0].Action != "anonymize" || audit[0].Actor != "key:AdMiN123" {
			t.Fatalf("audit %+v %v", audit, err)
		}
		// The old email is free again and finds nobody; the record cannot be re-enabled or re-invited.
		assertError(t, h.Do(http.MethodGet, "/api/v1/customers/ada@example.com", nil, "admin"), 404, "CUSTOMER_NOT_FOUND", "not_found")
		h.enabled("ada@example.com", nil)
		assertError(t, h.Do(http.MethodPost, "/api/v1/customers/"+id+"/send_invite", nil, "admin"), 400, "INVALID_STATE_TRANSITION", "validation")
		assertError(t, h.Do(http.MethodPut, "/api/v1/customers/"+id, map[string]any{"state": "enabled"}, "admin"), 400, "INVALID_STATE_TRANSITION", "validation")
		// The export shows the anonymized record.
		exp := h.Must(200, http.MethodPost, "/api/v1/customers/"+id+"/export", nil, "admin").Data()
		if acc := exp["account"].(map[string]any); acc["anonymized_at"] == nil || acc["has_password"] != false {
			t.Fatalf("export after anonymize %v", acc)
		}
	})
}
