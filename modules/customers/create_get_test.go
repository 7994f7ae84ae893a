package customers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gocommerce/commerce/platform/httpxtest"
)

// customerKeys are the members of a full customer response (write responses).
const customerKeys = "accepts_marketing,addresses,average_order_value,created_at,currency,default_address,email,first_name,id,language," +
	"last_name,last_order_id,last_order_name,marketing_opt_in_at,metafields,note,orders_count,phone,state,tags,tax_exempt,tax_exemptions," +
	"total_spent,updated_at,verified_email"

func TestCreateCustomer(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		// With a password: enabled, login stored, customer.created in the outbox.
		c := h.createCustomer(map[string]any{
			"email": " Ada@Example.com ", "first_name": "Ada", "last_name": "Lovelace", "phone": "+44 20 7946 0000",
			"accepts_marketing": true, "password": "engine-123", "password_confirmation": "engine-123",
			"tags": "vip, Wholesale ,vip", "note": "met at the fair", "currency": "gbp", "language": "EN",
			"tax_exempt": true, "tax_exemptions": []string{"GB_VAT_EXEMPT"}, "metafields": map[string]any{"loyalty": map[string]any{"tier": "gold"}},
			"addresses": []map[string]any{
				{"address1": "12 St James's Square", "city": "London", "country": "gb", "zip": "SW1Y 4JH"},
				{"address1": "1 Rue de Rivoli", "city": "Paris", "country_code": "FR", "is_default_billing": true},
			},
		})
		if httpxtest.Keys(c) != customerKeys {
			t.Fatalf("members: %s", httpxtest.Keys(c))
		}
		id := c["id"].(string)
		want := map[string]any{
			"email": "ada@example.com", "first_name": "Ada", "last_name": "Lovelace", "phone": "+442079460000", "state": "enabled",
			"accepts_marketing": true, "note": "met at the fair", "currency": "GBP", "language": "en", "tax_exempt": true,
			"verified_email": true, "orders_count": float64(0), "total_spent": "0.00", "average_order_value": "0.00",
			"created_at": "2026-03-01T10:00:00Z", "marketing_opt_in_at": "2026-03-01T10:00:00Z", "last_order_id": nil, "last_order_name": nil,
		}
		for k, v := range want {
			if c[k] != v {
				t.Errorf("%s = %v, want %v", k, c[k], v)
			}
		}
		if tags := c["tags"].([]any); len(tags) != 2 || tags[0] != "vip" || tags[1] != "Wholesale" {
			t.Errorf("tags %v", tags)
		}
		if mf := c["metafields"].(map[string]any); mf["loyalty"].(map[string]any)["tier"] != "gold" {
			t.Errorf("metafields %v", mf)
		}
		addrs := c["addresses"].([]any)
		london, paris := addrs[0].(map[string]any), addrs[1].(map[string]any)
		if london["country"] != "GB" || london["is_default_shipping"] != true || london["is_default_billing"] != false ||
			paris["country"] != "FR" || paris["is_default_billing"] != true || paris["is_default_shipping"] != false {
			t.Errorf("address defaults: %v / %v", london, paris)
		}
		if def := c["default_address"].(map[string]any); def["id"] != london["id"] || def["customer_id"] != id {
			t.Errorf("default_address %v", def)
		}
		if cred, ok := h.creds.get(t, id); !ok || cred.Email != "ada@example.com" || cred.Hash != "hash:engine-123" {
			t.Errorf("credential %+v %v", cred, ok)
		}
		evs := h.Payloads("customer.created", id)
		if len(evs) != 1 || evs[0]["email"] != "ada@example.com" || len(evs[0]["addresses"].([]any)) != 2 {
			t.Fatalf("customer.created: %v", evs)
		}
		if n := len(h.Events("customer.invited")); n != 0 {
			t.Errorf("an enabled customer was invited: %d", n)
		}

		// Without a password: invited, invite event; send_email_invite false: disabled.
		inv := h.createCustomer(map[string]any{"email": "grace@example.com", "first_name": "Grace"})
		if inv["state"] != "invited" {
			t.Fatalf("without password: %v", inv["state"])
		}
		if _, ok := h.creds.get(t, inv["id"].(string)); ok {
			t.Error("an invited customer has a login")
		}
		if evs := h.Payloads("customer.invited", inv["id"].(string)); len(evs) != 1 || evs[0]["activation_expires_at"] != "2026-03-08T10:00:00Z" || evs[0]["email"] != "grace@example.com" {
			t.Fatalf("customer.invited: %v", evs)
		}
		quiet := h.createCustomer(map[string]any{"email": "quiet@example.com", "send_email_invite": false, "verified_email": false})
		if quiet["state"] != "disabled" || quiet["verified_email"] != false || len(h.Payloads("customer.invited", quiet["id"].(string))) != 0 {
			t.Fatalf("send_email_invite false: %v", quiet)
		}

		// Errors.
		assertError(t, h.Do(http.MethodPost, "/api/v1/customers", map[string]any{"email": "ADA@example.com"}, "admin"), 409, "EMAIL_TAKEN", "conflict")
		r := h.Do(http.MethodPost, "/api/v1/customers", map[string]any{"email": "not-an-email"}, "admin")
		assertError(t, r, 400, "INVALID_EMAIL", "validation")
		if r.Fields()["email"] == nil {
			t.Errorf("INVALID_EMAIL names the field: %s", r.Raw)
		}
		r = h.Do(http.MethodPost, "/api/v1/customers", map[string]any{"first_name": "X"}, "admin")
		assertError(t, r, 400, 400, "validation")
		if r.Fields()["email"] != "is required" {
			t.Errorf("missing email: %s", r.Raw)
		}
		r = h.Do(http.MethodPost, "/api/v1/customers", map[string]any{"email": "m@example.com", "password": "secret-pass-1", "password_confirmation": "secret-pass-2"}, "admin")
		assertError(t, r, 400, 400, "validation")
		if r.Fields()["password_confirmation"] != "must match password" {
			t.Errorf("mismatch: %s", r.Raw)
		}
		r = h.Do(http.MethodPost, "/api/v1/customers", map[string]any{"email": "m@example.com", "password": "secret-pass-1"}, "admin")
		if assertError(t, r, 400, 400, "validation"); r.Fields()["password_confirmation"] != "is required" {
			t.Errorf("no confirmation: %s", r.Raw)
		}
		assertError(t, h.Do(http.MethodPost, "/api/v1/customers", map[string]any{"email": "m@example.com", "password": "short", "password_confirmation": "short"}, "admin"),
			400, "INVALID_PASSWORD", "validation")
		r = h.Do(http.MethodPost, "/api/v1/customers", map[string]any{"email": "m@example.com", "addresses": []map[string]any{
			{"address1": "x", "city": "y", "country": "DE"}, {"address1": "x", "country": "XX"}}}, "admin")
		assertError(t, r, 400, "INVALID_ADDRESS", "validation")
		if f := r.Fields(); f["addresses.1.country"] == nil || f["addresses.1.city"] != "is required" || len(f) != 2 {
			t.Errorf("address fields: %s", r.Raw)
		}
		r = h.Do(http.MethodPost, "/api/v1/customers", map[string]any{"email": "m@example.com", "phone": "12", "language": "xx", "tags": 5}, "admin")
		if assertError(t, r, 400, 400, "validation"); r.Fields()["tags"] == nil {
			t.Errorf("tags type: %s", r.Raw)
		}
		r = h.Do(http.MethodPost, "/api/v1/customers", map[string]any{"email": "m@example.com", "phone": "12", "language": "xx"}, "admin")
		if assertError(t, r, 400, 400, "validation"); httpxtest.Keys(r.Fields()) != "language,phone" {
			t.Errorf("fields: %s", r.Raw)
		}
		assertError(t, h.Do(http.MethodPost, "/api/v1/customers", "{not json", "admin"), 400, 400, "validation")
		if n := h.Count("customers", "email = ?", "m@example.com"); n != 0 {
			t.Errorf("failed creates left %d rows", n)
		}
		if n := len(h.Events("customer.created")); n != 3 {
			t.Errorf("customer.created events: %d, want 3", n)
		}

		// Access: staff and write keys may create; customers, readers and anonymous may not.
		h.Must(201, http.MethodPost, "/api/v1/customers", map[string]any{"email": "s@example.com"}, "staff")
		h.Must(201, http.MethodPost, "/api/v1/customers", map[string]any{"email": "w@example.com"}, "writer")
		r = h.Do(http.MethodPost, "/api/v1/customers", map[string]any{"email": "c@example.com"}, "cust:"+id)
		assertError(t, r, 403, 403, "auth")
		if msg, _ := r.Err()["message"].(string); !strings.HasPrefix(msg, "Forbidden: Insufficient permissions. Required: customers:write") {
			t.Errorf("403 message %q", msg)
		}
		assertError(t, h.Do(http.MethodPost, "/api/v1/customers", map[string]any{"email": "c@example.com"}, "reader"), 403, 403, "auth")
		assertError(t, h.Do(http.MethodPost, "/api/v1/customers", map[string]any{"email": "c@example.com"}, ""), 401, 401, "auth")
	})
}

func TestGetCustomer(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		ada := h.enabled("ada@example.com", map[string]any{"metafields": map[string]any{"k": "v"},
			"addresses": []map[string]any{{"address1": "1 Main", "city": "Boston", "country": "US"}}})
		bob := h.enabled("bob@example.com", nil)
		id := ada["id"].(string)
		h.orders.orders[id] = []ports_OrderSummary{orderSummary("o1", "1001")}

		r := h.Must(200, http.MethodGet, "/api/v1/customers/"+id, nil, "cust:"+id)
		d := r.Data()
		if d["id"] != id || d["email"] != "ada@example.com" || d["default_address"] == nil {
			t.Fatalf("own record: %s", r.Raw)
		}
		for _, k := range []string{"addresses", "orders", "metafields"} {
			if _, ok := d[k]; ok {
				t.Errorf("%s present without include", k)
			}
		}
		d = h.Must(200, http.MethodGet, "/api/v1/customers/"+id+"?include=addresses,orders,metafields", nil, "reader").Data()
		if len(d["addresses"].([]any)) != 1 || d["metafields"].(map[string]any)["k"] != "v" {
			t.Fatalf("include: %v", d)
		}
		orders := d["orders"].([]any)
		if len(orders) != 1 || orders[0].(map[string]any)["order_number"] != "1001" || orders[0].(map[string]any)["total_price"] != "25.50" {
			t.Fatalf("include=orders: %v", orders)
		}
		if d := h.Must(200, http.MethodGet, "/api/v1/customers/"+id+"?include=orders", nil, "admin").Data(); d["addresses"] != nil || len(d["orders"].([]any)) != 1 {
			t.Fatalf("include=orders only: %v", d)
		}
		if d := h.Must(200, http.MethodGet, "/api/v1/customers/ADA@example.com", nil, "cust:"+id).Data(); d["id"] != id {
			t.Fatalf("by email: %v", d)
		}
		assertError(t, h.Do(http.MethodGet, "/api/v1/customers/"+id+"?include=secrets", nil, "admin"), 400, 400, "validation")

		// Another customer's record, by id or email, is not found; so is garbage.
		for _, key := range []string{bob["id"].(string), "bob@example.com", "nope", "00000000-0000-0000-0000-000000000000", "x@y"} {
			assertError(t, h.Do(http.MethodGet, "/api/v1/customers/"+key, nil, "cust:"+id), 404, "CUSTOMER_NOT_FOUND", "not_found")
		}
		assertError(t, h.Do(http.MethodGet, "/api/v1/customers/nobody@example.com", nil, "admin"), 404, "CUSTOMER_NOT_FOUND", "not_found")
		for _, cred := range []string{"admin", "reader", "staff", "writer"} {
			if d := h.Must(200, http.MethodGet, "/api/v1/customers/"+bob["id"].(string), nil, cred).Data(); d["id"] != bob["id"] {
				t.Errorf("%s: %v", cred, d)
			}
		}
		r = h.Do(http.MethodGet, "/api/v1/customers/"+id, nil, "orders")
		if assertError(t, r, 403, 403, "auth"); r.Err()["message"] != "Forbidden: Insufficient permissions. Required: customers:read" {
			t.Errorf("403 message: %v", r.Err()["message"])
		}
		assertError(t, h.Do(http.MethodGet, "/api/v1/customers/"+id, nil, ""), 401, 401, "auth")
		assertError(t, h.Do(http.MethodGet, "/api/v1/customers/"+id, nil, "bogus"), 401, 401, "auth")
	})
}
