package coupons_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/httpxtest"
)

const couponKeys = "applies_to,buy_x_get_y,code,created_at,customer_eligibility,description,expires_at,id,is_active," +
	"maximum_discount_amount,minimum_order_amount,starts_at,type,updated_at,usage_count,usage_limit,usage_limit_per_customer,value"

const publicKeys = "applies_to,buy_x_get_y,code,created_at,customer_eligibility,description,expires_at,id,is_active," +
	"maximum_discount_amount,minimum_order_amount,starts_at,type,value"

func TestCreateCoupon(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		r := h.Must(http.StatusCreated, http.MethodPost, "/api/v1/coupons", map[string]any{
			"code": "Summer15", "type": "percentage", "value": "15", "description": "Summer sale",
			"minimum_order_amount": "50", "maximum_discount_amount": "20", "expires_at": "2026-09-01T00:00:00Z",
			"usage_limit": 100, "usage_limit_per_customer": 1,
			"applies_to":           map[string]any{"product_ids": []string{productA}, "exclude_product_ids": []string{productB}},
			"customer_eligibility": map[string]any{"new_customers_only": true},
		}, "admin")
		c := r.Data()
		if httpxtest.Keys(c) != couponKeys {
			t.Errorf("keys %s", httpxtest.Keys(c))
		}
		want := map[string]any{
			"code": "Summer15", "type": "percentage", "value": "15.00", "description": "Summer sale",
			"minimum_order_amount": "50.00", "maximum_discount_amount": "20.00", "usage_count": float64(0),
			"usage_limit": float64(100), "usage_limit_per_customer": float64(1), "is_active": true,
			"starts_at": "2026-03-01T10:00:00Z", "expires_at": "2026-09-01T00:00:00Z", "created_at": "2026-03-01T10:00:00Z",
			"buy_x_get_y": nil,
		}
		for k, v := range want {
			if c[k] != v {
				t.Errorf("%s = %v, want %v", k, c[k], v)
			}
		}
		at := c["applies_to"].(map[string]any)
		if len(at["product_ids"].([]any)) != 1 || len(at["collection_ids"].([]any)) != 0 || at["exclude_product_ids"].([]any)[0] != productB {
			t.Errorf("applies_to %v", at)
		}
		if el := c["customer_eligibility"].(map[string]any); el["new_customers_only"] != true || len(el["customer_ids"].([]any)) != 0 {
			t.Errorf("customer_eligibility %v", el)
		}
		ev := h.Events("coupon.created")
		if len(ev) != 1 || ev[0].Data["id"] != c["id"] || ev[0].Data["code"] != "Summer15" || ev[0].AggregateID != c["id"] {
			t.Errorf("coupon.created events %v", ev)
		}

		// buy_x_get_y takes its object; the get discount defaults to 100 percent.
		b := h.create("B2G1", "buy_x_get_y", "0", map[string]any{"buy_x_get_y": map[string]any{"buy_quantity": 2, "get_quantity": 1, "buy_product_ids": []string{productA}}})
		rule := b["buy_x_get_y"].(map[string]any)
		if rule["buy_quantity"] != float64(2) || rule["get_discount_type"] != "percentage" || rule["get_discount_value"] != "100.00" || len(rule["get_product_ids"].([]any)) != 0 {
			t.Errorf("buy_x_get_y %v", rule)
		}
		fs := h.create("SHIPFREE", "free_shipping", "0", nil)
		if fs["value"] != "0.00" || fs["maximum_discount_amount"] != nil || fs["expires_at"] != nil || fs["usage_limit"] != nil {
			t.Errorf("free shipping %v", fs)
		}

		// Codes are unique, case-insensitively.
		assertError(t, h.Do(http.MethodPost, "/api/v1/coupons", map[string]any{"code": "SUMMER15", "type": "fixed_amount", "value": "5"}, "admin"),
			http.StatusConflict, "COUPON_CODE_EXISTS", "conflict")

		// Validation names each bad field.
		bad := []struct {
			body  map[string]any
			field string
		}{
			{map[string]any{"type": "percentage", "value": "10"}, "code"},
			{map[string]any{"code": "X1", "value": "10"}, "type"},
			{map[string]any{"code": "X1", "type": "bogus"}, "type"},
			{map[string]any{"code": "X1", "type": "percentage"}, "value"},
			{map[string]any{"code": "X1", "type": "percentage", "value": "100.01"}, "value"},
			{map[string]any{"code": "X1", "type": "percentage", "value": "0"}, "value"},
			{map[string]any{"code": "X1", "type": "fixed_amount", "value": "-1"}, "value"},
			{map[string]any{"code": "X1", "type": "fixed_amount", "value": "1.00001"}, "value"},
			{map[string]any{"code": "X1", "type": "fixed_amount", "value": "abc"}, "value"},
			{map[string]any{"code": "X1", "type": "fixed_amount", "value": 5}, "value"},
			{map[string]any{"code": "X1", "type": "fixed_amount", "value": "1e3"}, "value"},
			{map[string]any{"code": "has space", "type": "fixed_amount", "value": "1"}, "code"},
			{map[string]any{"code": strings.Repeat("A", 51), "type": "fixed_amount", "value": "1"}, "code"},
			{map[string]any{"code": "X1", "type": "fixed_amount", "value": "1", "expires_at": "2026-02-01T00:00:00Z"}, "expires_at"},
			{map[string]any{"code": "X1", "type": "fixed_amount", "value": "1", "starts_at": "yesterday"}, "starts_at"},
			{map[string]any{"code": "X1", "type": "fixed_amount", "value": "1", "usage_limit": 0}, "usage_limit"},
			{map[string]any{"code": "X1", "type": "fixed_amount", "value": "1", "usage_limit_per_customer": "one"}, "usage_limit_per_customer"},
			{map[string]any{"code": "X1", "type": "fixed_amount", "value": "1", "maximum_discount_amount": "0"}, "maximum_discount_amount"},
			{map[string]any{"code": "X1", "type": "fixed_amount", "value": "1", "applies_to": map[string]any{"product_ids": []string{"nope"}}}, "applies_to.product_ids"},
			{map[string]any{"code": "X1", "type": "fixed_amount", "value": "1", "customer_eligibility": map[string]any{"customer_ids": "x"}}, "customer_eligibility.customer_ids"},
			{map[string]any{"code": "X1", "type": "fixed_amount", "value": "1", "buy_x_get_y": map[string]any{"buy_quantity": 1, "get_quantity": 1}}, "buy_x_get_y"},
			{map[string]any{"code": "X1", "type": "buy_x_get_y"}, "buy_x_get_y"},
			{map[string]any{"code": "X1", "type": "buy_x_get_y", "buy_x_get_y": map[string]any{"buy_quantity": 0, "get_quantity": 1}}, "buy_x_get_y.buy_quantity"},
			{map[string]any{"code": "X1", "type": "buy_x_get_y", "buy_x_get_y": map[string]any{"buy_quantity": 1, "get_quantity": 1, "get_discount_type": "fixed"}}, "buy_x_get_y.get_discount_type"},
			{map[string]any{"code": "X1", "type": "buy_x_get_y", "buy_x_get_y": map[string]any{"buy_quantity": 1, "get_quantity": 1, "get_discount_value": "150"}}, "buy_x_get_y.get_discount_value"},
		}
		for _, c := range bad {
			r := h.Do(http.MethodPost, "/api/v1/coupons", c.body, "admin")
			assertError(t, r, http.StatusBadRequest, 400, "validation")
			if _, ok := r.Fields()[c.field]; !ok {
				t.Errorf("%v: fields %v lack %s", c.body, r.Fields(), c.field)
			}
		}
		assertError(t, h.Do(http.MethodPost, "/api/v1/coupons", "{not json", "admin"), http.StatusBadRequest, 400, "validation")

		// Scopes: the spec's "admin" (coupons:admin; the admin wildcard and staff admins
		// satisfy it). coupons:write is not enough.
		body := map[string]any{"code": "SCOPE", "type": "fixed_amount", "value": "1"}
		assertError(t, h.Do(http.MethodPost, "/api/v1/coupons", body), http.StatusUnauthorized, 401, "auth")
		assertError(t, h.Do(http.MethodPost, "/api/v1/coupons", body, "nope"), http.StatusUnauthorized, 401, "auth")
		for _, cred := range []string{"reader", "writer", "customer", "products"} {
			r := h.Do(http.MethodPost, "/api/v1/coupons", body, cred)
			assertError(t, r, http.StatusForbidden, 403, "auth")
			if msg, _ := r.Err()["message"].(string); msg != "Forbidden: Insufficient permissions. Required: coupons:admin" {
				t.Errorf("403 message %q", msg)
			}
		}
		h.Must(http.StatusCreated, http.MethodPost, "/api/v1/coupons", body, "couponad")
		body["code"] = "SCOPE2"
		h.Must(http.StatusCreated, http.MethodPost, "/api/v1/coupons", body, "staff")
		if n := len(h.Payloads("coupon.created", "")); n != 5 {
			t.Errorf("%d coupon.created events, want 5 (refused requests publish nothing)", n)
		}
	})
}

func TestListCoupons(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		h.create("PUBLIC1", "percentage", "10", nil)
		h.clock.Advance(time.Second)
		h.create("OFF", "percentage", "10", map[string]any{"is_active": false})
		h.clock.Advance(time.Second)
		h.create("VIP", "percentage", "10", map[string]any{"customer_eligibility": map[string]any{"customer_ids": []string{customer1}}})
		h.clock.Advance(time.Second)
		h.create("LATER", "percentage", "10", map[string]any{"starts_at": "2026-04-01T00:00:00Z"})
		h.clock.Advance(time.Second)
		h.create("SOON_OVER", "percentage", "10", map[string]any{"expires_at": "2026-03-01T10:00:10Z"})
		h.clock.Advance(time.Second)
		h.create("PUBLIC2", "fixed_amount", "5", nil)
		h.clock.Advance(10 * time.Second) // SOON_OVER has expired

		// Managers see every live coupon, newest first, in Part 1's own list shape.
		r := h.Must(http.StatusOK, http.MethodGet, "/api/v1/coupons", nil, "admin")
		codes := func(r httpxtest.Response) string {
			var out []string
			for _, c := range r.List() {
				out = append(out, c["code"].(string))
			}
			return strings.Join(out, ",")
		}
		if got := codes(r); got != "PUBLIC2,SOON_OVER,LATER,VIP,OFF,PUBLIC1" {
			t.Errorf("admin list %s", got)
		}
		meta := r.Body["meta"].(map[string]any)
		if httpxtest.Keys(meta) != "page,per_page,total,total_pages" || meta["total"] != float64(6) || meta["page"] != float64(1) || meta["per_page"] != float64(20) || meta["total_pages"] != float64(1) {
			t.Errorf("meta %v", meta)
		}
		if httpxtest.Keys(r.List()[0]) != couponKeys {
			t.Errorf("admin item keys %s", httpxtest.Keys(r.List()[0]))
		}
		if got := codes(h.Must(http.StatusOK, http.MethodGet, "/api/v1/coupons?active=false", nil, "writer")); got != "OFF" {
			t.Errorf("active=false %s", got)
		}
		if got := codes(h.Must(http.StatusOK, http.MethodGet, "/api/v1/coupons?active=true&per_page=2&page=2", nil, "admin")); got != "LATER,VIP" {
			t.Errorf("active page 2 %s", got)
		}
		r = h.Must(http.StatusOK, http.MethodGet, "/api/v1/coupons?per_page=500", nil, "admin")
		if r.Body["meta"].(map[string]any)["per_page"] != float64(100) {
			t.Errorf("per_page not capped: %v", r.Body["meta"])
		}
		r = h.Must(http.StatusOK, http.MethodGet, "/api/v1/coupons?per_page=4&page=2", nil, "admin")
		if m := r.Body["meta"].(map[string]any); m["total_pages"] != float64(2) || len(r.List()) != 2 {
			t.Errorf("page 2: %v %d", m, len(r.List()))
		}

		// Everyone else (anonymous, customers, coupons:read keys) sees public coupons
		// in the public view.
		for _, cred := range []string{"", "customer", "reader", "products"} {
			r := h.Must(http.StatusOK, http.MethodGet, "/api/v1/coupons", nil, cred)
			if got := codes(r); got != "PUBLIC2,PUBLIC1" {
				t.Errorf("%q list %s", cred, got)
			}
			if httpxtest.Keys(r.List()[0]) != publicKeys {
				t.Errorf("public keys %s", httpxtest.Keys(r.List()[0]))
			}
		}
		if got := codes(h.Must(http.StatusOK, http.MethodGet, "/api/v1/coupons?active=false", nil)); got != "" {
			t.Errorf("anonymous active=false %s", got)
		}
		assertError(t, h.Do(http.MethodGet, "/api/v1/coupons?active=maybe", nil), http.StatusBadRequest, 400, "validation")
		assertError(t, h.Do(http.MethodGet, "/api/v1/coupons?page=0", nil), http.StatusBadRequest, 400, "validation")
		assertError(t, h.Do(http.MethodGet, "/api/v1/coupons", nil, "bad-token"), http.StatusUnauthorized, 401, "auth")
	})
}

func TestGetCoupon(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		c := h.create("GetMe", "fixed_amount", "5", map[string]any{"usage_limit": 3})
		off := h.create("OFF", "fixed_amount", "5", map[string]any{"is_active": false})
		for _, path := range []string{"/api/v1/coupons/GetMe", "/api/v1/coupons/getme", "/api/v1/coupons/" + c["id"].(string)} {
			r := h.Must(http.StatusOK, http.MethodGet, path, nil, "admin")
			if r.Data()["id"] != c["id"] || httpxtest.Keys(r.Data()) != couponKeys || r.Data()["usage_limit"] != float64(3) {
				t.Errorf("%s: %v", path, r.Data())
			}
			p := h.Must(http.StatusOK, http.MethodGet, path, nil).Data()
			if httpxtest.Keys(p) != publicKeys || p["code"] != "GetMe" || p["value"] != "5.00" {
				t.Errorf("%s public: %v", path, p)
			}
		}
		// Inactive coupons exist only for managers.
		h.Must(http.StatusOK, http.MethodGet, "/api/v1/coupons/OFF", nil, "writer")
		assertError(t, h.Do(http.MethodGet, "/api/v1/coupons/"+off["id"].(string), nil, "customer"), http.StatusNotFound, "COUPON_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodGet, "/api/v1/coupons/NOPE", nil), http.StatusNotFound, "COUPON_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodGet, "/api/v1/coupons/0190a000-0000-7000-8000-000000000000", nil, "admin"), http.StatusNotFound, "COUPON_NOT_FOUND", "not_found")
	})
}

func TestUpdateCoupon(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		c := h.create("EDIT", "percentage", "10", map[string]any{"maximum_discount_amount": "5", "description": "old", "expires_at": "2026-06-01T00:00:00Z"})
		h.create("TAKEN", "percentage", "10", nil)
		id := c["id"].(string)
		h.clock.Advance(time.Minute)
		u := h.Must(http.StatusOK, http.MethodPut, "/api/v1/coupons/"+id, map[string]any{"description": "new", "maximum_discount_amount": nil, "expires_at": nil}, "admin").Data()
		if u["description"] != "new" || u["maximum_discount_amount"] != nil || u["expires_at"] != nil || u["value"] != "10.00" || u["code"] != "EDIT" {
			t.Errorf("updated %v", u)
		}
		if u["created_at"] != c["created_at"] || u["updated_at"] != "2026-03-01T10:01:00Z" {
			t.Errorf("timestamps %v %v", u["created_at"], u["updated_at"])
		}
		u = h.Must(http.StatusOK, http.MethodPut, "/api/v1/coupons/"+id, map[string]any{
			"type": "buy_x_get_y", "buy_x_get_y": map[string]any{"buy_quantity": 3, "get_quantity": 1, "get_discount_value": "50"},
		}, "couponad").Data()
		// coupons:write may not change or delete coupons (the spec's "admin").
		assertError(t, h.Do(http.MethodPut, "/api/v1/coupons/"+id, map[string]any{"description": "x"}, "writer"), http.StatusForbidden, 403, "auth")
		assertError(t, h.Do(http.MethodDelete, "/api/v1/coupons/"+id, nil, "writer"), http.StatusForbidden, 403, "auth")
		if u["type"] != "buy_x_get_y" || u["buy_x_get_y"].(map[string]any)["get_discount_value"] != "50.00" {
			t.Errorf("to buy_x_get_y %v", u)
		}
		u = h.Must(http.StatusOK, http.MethodPut, "/api/v1/coupons/"+id, map[string]any{"type": "fixed_amount", "value": "7.5"}, "admin").Data()
		if u["buy_x_get_y"] != nil || u["value"] != "7.50" {
			t.Errorf("back to fixed_amount keeps no rule: %v", u)
		}
		if ev := h.Payloads("coupon.updated", ""); len(ev) != 3 || ev[2]["value"] != "7.50" {
			t.Errorf("coupon.updated events %v", ev)
		}
		assertError(t, h.Do(http.MethodPut, "/api/v1/coupons/"+id, map[string]any{"code": "taken"}, "admin"), http.StatusConflict, "COUPON_CODE_EXISTS", "conflict")
		r := h.Do(http.MethodPut, "/api/v1/coupons/"+id, map[string]any{"type": "percentage", "value": "101"}, "admin")
		assertError(t, r, http.StatusBadRequest, 400, "validation")
		if _, ok := r.Fields()["value"]; !ok {
			t.Errorf("fields %v", r.Fields())
		}
		assertError(t, h.Do(http.MethodPut, "/api/v1/coupons/"+id, map[string]any{"starts_at": "2026-07-01T00:00:00Z", "expires_at": "2026-06-01T00:00:00Z"}, "admin"), http.StatusBadRequest, 400, "validation")
		assertError(t, h.Do(http.MethodPut, "/api/v1/coupons/0190a000-0000-7000-8000-000000000000", map[string]any{"description": "x"}, "admin"), http.StatusNotFound, "COUPON_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodPut, "/api/v1/coupons/EDIT", map[string]any{"description": "x"}, "admin"), http.StatusNotFound, "COUPON_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodPut, "/api/v1/coupons/"+id, map[string]any{"description": "x"}, "reader"), http.StatusForbidden, 403, "auth")
		if got := h.Must(http.StatusOK, http.MethodGet, "/api/v1/coupons/"+id, nil, "admin").Data(); got["value"] != "7.50" || got["type"] != "fixed_amount" {
			t.Errorf("refused updates changed the coupon: %v", got)
		}
	})
}

func TestDeleteCoupon(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		c := h.create("GONE", "percentage", "10", nil)
		id := c["id"].(string)
		if _, err := h.svc.RecordUsage(t.Context(), usageCmd(id, "order-1", "")); err != nil {
			t.Fatal(err)
		}
		assertError(t, h.Do(http.MethodDelete, "/api/v1/coupons/"+id, nil, "reader"), http.StatusForbidden, 403, "auth")
		r := h.Must(http.StatusNoContent, http.MethodDelete, "/api/v1/coupons/"+id, nil, "admin")
		if r.Raw != "" {
			t.Errorf("204 body %q", r.Raw)
		}
		assertError(t, h.Do(http.MethodGet, "/api/v1/coupons/"+id, nil, "admin"), http.StatusNotFound, "COUPON_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodGet, "/api/v1/coupons/GONE", nil, "admin"), http.StatusNotFound, "COUPON_NOT_FOUND", "not_found")
		assertError(t, h.Do(http.MethodDelete, "/api/v1/coupons/"+id, nil, "admin"), http.StatusNotFound, "COUPON_NOT_FOUND", "not_found")
		if len(h.Must(http.StatusOK, http.MethodGet, "/api/v1/coupons", nil, "admin").List()) != 0 {
			t.Error("deleted coupon listed")
		}
		ev := h.Payloads("coupon.deleted", "")
		if len(ev) != 1 || ev[0]["id"] != id || ev[0]["code"] != "GONE" || ev[0]["deleted_at"] == nil {
			t.Errorf("coupon.deleted %v", ev)
		}
		// Its history stays: the usage report still answers, and the code is free again.
		u := h.Must(http.StatusOK, http.MethodGet, "/api/v1/coupons/"+id+"/usage", nil, "admin").Data()
		if u["usage_count"] != float64(1) || u["orders_count"] != float64(1) {
			t.Errorf("usage of a deleted coupon %v", u)
		}
		n := h.create("gone", "fixed_amount", "1", nil)
		if n["id"] == id {
			t.Error("same id")
		}
	})
}
