package tax_test

import (
	"net/http"
	"testing"

	"github.com/gocommerce/commerce/platform/httpxtest"
)

const (
	zonesPath = "/api/v1/admin/tax/zones"
	ratesPath = "/api/v1/admin/tax/rates"
)

func TestRatesAndCategories(t *testing.T) {
	t.Parallel()
	eachEngine(t, nil, func(t *testing.T, h *harness) {
		// The shipped data: a fresh store knows every EU standard rate.
		want := map[string]string{"AT": "0.2", "BE": "0.21", "BG": "0.2", "HR": "0.25", "CY": "0.19", "CZ": "0.21", "DK": "0.25",
			"EE": "0.22", "FI": "0.25", "FR": "0.2", "DE": "0.19", "GR": "0.24", "HU": "0.27", "IE": "0.23", "IT": "0.22", "LV": "0.21",
			"LT": "0.21", "LU": "0.17", "MT": "0.18", "NL": "0.21", "PL": "0.23", "PT": "0.23", "RO": "0.19", "SK": "0.2", "SI": "0.22",
			"ES": "0.21", "SE": "0.25"}
		for cc, rate := range want {
			rs := httpxtest.Objects(h.Must(http.StatusOK, http.MethodGet, "/api/v1/tax/rates?country_code="+cc, nil, "reader").Body["rates"])
			if len(rs) != 1 || rs[0]["rate"] != rate || rs[0]["is_vat"] != true || rs[0]["vat_type"] != "standard" || rs[0]["reverse_charge"] != true {
				t.Errorf("%s: %v", cc, rs)
			}
		}
		rs := httpxtest.Objects(h.Must(http.StatusOK, http.MethodGet, "/api/v1/tax/rates?country_code=de", nil, "customer").Body["rates"])
		if len(rs) != 1 {
			t.Fatalf("DE rates %v", rs)
		}
		if httpxtest.Keys(rs[0]) != "b2b_exempt,id,is_vat,name,rate,rate_type,reverse_charge,tax_category,tax_zone,valid_from,valid_until,vat_type" {
			t.Errorf("keys %s", httpxtest.Keys(rs[0]))
		}
		z := rs[0]["tax_zone"].(map[string]any)
		if rs[0]["id"] != rateDE || rs[0]["rate_type"] != "percentage" || rs[0]["valid_from"] != "2026-01-01" || rs[0]["valid_until"] != nil ||
			rs[0]["tax_category"] != nil || z["id"] != zoneDE || z["code"] != "DE" || z["country_code"] != "DE" || z["name"] != "Germany" {
			t.Errorf("DE rate %v", rs[0])
		}
		// US: every state of the country, or one state's.
		us := httpxtest.Objects(h.Must(http.StatusOK, http.MethodGet, "/api/v1/tax/rates?country_code=US", nil, "reader").Body["rates"])
		ca := httpxtest.Objects(h.Must(http.StatusOK, http.MethodGet, "/api/v1/tax/rates?country_code=US&region_code=CA&postal_code=94103", nil, "reader").Body["rates"])
		if len(us) != 10 || len(ca) != 1 || ca[0]["rate"] != "0.0725" || ca[0]["is_vat"] != false || ca[0]["vat_type"] != nil {
			t.Errorf("US %d, CA %v", len(us), ca)
		}
		// A category's own rate is listed with the general ones for that category only.
		h.Must(http.StatusCreated, http.MethodPost, ratesPath, map[string]any{"name": "DE food", "tax_zone_id": zoneDE,
			"tax_category_id": catFood, "rate": "0.07", "is_vat": true, "vat_type": "reduced"}, "admin")
		food := httpxtest.Objects(h.Must(http.StatusOK, http.MethodGet, "/api/v1/tax/rates?country_code=DE&tax_category_id="+catFood, nil, "reader").Body["rates"])
		digital := httpxtest.Objects(h.Must(http.StatusOK, http.MethodGet, "/api/v1/tax/rates?country_code=DE&tax_category_id="+catDigital, nil, "reader").Body["rates"])
		if len(food) != 2 || food[0]["rate"] != "0.07" || food[0]["tax_category"].(map[string]any)["code"] != "food" || len(digital) != 1 {
			t.Errorf("food %v digital %v", food, digital)
		}
		if rs := httpxtest.Objects(h.Must(http.StatusOK, http.MethodGet, "/api/v1/tax/rates?country_code=JP", nil, "reader").Body["rates"]); len(rs) != 0 {
			t.Errorf("JP %v", rs)
		}
		for _, q := range []string{"", "?country_code=", "?country_code=DEU"} {
			res := h.Do(http.MethodGet, "/api/v1/tax/rates"+q, nil, "reader")
			httpxtest.AssertError(t, res, http.StatusBadRequest, http.StatusBadRequest, "validation")
			if _, ok := res.Fields()["country_code"]; !ok {
				t.Errorf("%q: fields %v", q, res.Fields())
			}
		}

		cats := httpxtest.Objects(h.Must(http.StatusOK, http.MethodGet, "/api/v1/tax/categories", nil, "reader").Body["categories"])
		codes := ""
		for _, c := range cats {
			codes += c["code"].(string) + ","
		}
		if len(cats) != 5 || codes != "digital,educational,food,luxury,medical," {
			t.Errorf("categories %s", codes)
		}
		if c := cats[0]; httpxtest.Keys(c) != "code,description,id,is_digital,is_educational,is_food,is_luxury,is_medical,name" ||
			c["id"] != catDigital || c["is_digital"] != true || c["is_food"] != false {
			t.Errorf("digital %v", c)
		}
		httpxtest.AssertError(t, h.Do(http.MethodGet, "/api/v1/tax/categories", nil), http.StatusUnauthorized, http.StatusUnauthorized, "auth")
		httpxtest.AssertError(t, h.Do(http.MethodGet, "/api/v1/tax/rates?country_code=DE", nil, "products"), http.StatusForbidden, http.StatusForbidden, "auth")
	})
}

func TestCalculateShipping(t *testing.T) {
	t.Parallel()
	eachEngine(t, nil, func(t *testing.T, h *harness) {
		r := h.Must(http.StatusOK, http.MethodPost, "/api/v1/tax/calculate-shipping", map[string]any{
			"shipping_amount": "4.95", "shipping_address": addr("DE"), "currency": "EUR"}, "reader").Body
		if httpxtest.Keys(r) != "currency,shipping_amount,shipping_tax,tax_rate,total_with_tax" || r["shipping_amount"] != "4.95" ||
			r["shipping_tax"] != "0.94" || r["tax_rate"] != "0.19" || r["total_with_tax"] != "5.89" || r["currency"] != "EUR" {
			t.Errorf("DE %v", r)
		}
		// Shipping of goods to a consumer in FR without OSS: the store's rate.
		if r := h.Must(http.StatusOK, http.MethodPost, "/api/v1/tax/calculate-shipping", map[string]any{
			"shipping_amount": "10", "shipping_address": addr("FR"), "currency": "EUR"}, "reader").Body; r["shipping_tax"] != "1.90" {
			t.Errorf("FR %v", r)
		}
		// Included: the amount holds the tax.
		if r := h.Must(http.StatusOK, http.MethodPost, "/api/v1/tax/calculate-shipping", map[string]any{
			"shipping_amount": "11.90", "shipping_address": addr("DE"), "currency": "EUR", "tax_included": true}, "reader").Body; r["shipping_tax"] != "1.90" || r["total_with_tax"] != "11.90" {
			t.Errorf("included %v", r)
		}
		// CA without nexus, and outside every zone: no tax.
		for _, a := range []map[string]any{addr("US", "CA"), addr("CH")} {
			if r := h.Must(http.StatusOK, http.MethodPost, "/api/v1/tax/calculate-shipping", map[string]any{
				"shipping_amount": "10.00", "shipping_address": a, "currency": "USD"}, "reader").Body; r["shipping_tax"] != "0.00" || r["tax_rate"] != "0" || r["total_with_tax"] != "10.00" {
				t.Errorf("%v: %v", a, r)
			}
		}
		for _, c := range []struct {
			body  map[string]any
			field string
		}{
			{map[string]any{"shipping_address": addr("DE"), "currency": "EUR"}, "shipping_amount"},
			{map[string]any{"shipping_amount": "1.00", "currency": "EUR"}, "shipping_address"},
			{map[string]any{"shipping_amount": "1.00", "shipping_address": addr("DE")}, "currency"},
			{map[string]any{"shipping_amount": "-1.00", "shipping_address": addr("DE"), "currency": "EUR"}, "shipping_amount"},
			{map[string]any{"shipping_amount": 1, "shipping_address": addr("DE"), "currency": "EUR"}, "shipping_amount"},
			{map[string]any{"shipping_amount": "1.00", "shipping_address": map[string]any{"city": "Berlin"}, "currency": "EUR"}, "shipping_address.country_code"},
		} {
			res := h.Do(http.MethodPost, "/api/v1/tax/calculate-shipping", c.body, "reader")
			httpxtest.AssertError(t, res, http.StatusBadRequest, http.StatusBadRequest, "validation")
			if _, ok := res.Fields()[c.field]; !ok {
				t.Errorf("%v: fields %v, want %s", c.body, res.Fields(), c.field)
			}
		}
	})
}

func TestAdminZonesAndRates(t *testing.T) {
	t.Parallel()
	eachEngine(t, nil, func(t *testing.T, h *harness) {
		z := h.Must(http.StatusCreated, http.MethodPost, zonesPath, map[string]any{"name": "Ontario", "code": "ca-on", "country_code": "ca",
			"region_code": "ON", "zone_type": "province"}, "admin").Data()
		if httpxtest.Keys(z) != "code,country_code,created_at,id,name,region_code,updated_at,zone_type" || z["code"] != "CA-ON" ||
			z["country_code"] != "CA" || z["region_code"] != "ON" || z["zone_type"] != "province" || z["created_at"] != "2026-06-15T10:00:00Z" {
			t.Errorf("zone %v", z)
		}
		country := h.Must(http.StatusCreated, http.MethodPost, zonesPath, map[string]any{"name": "Switzerland", "code": "CH", "country_code": "CH",
			"region_code": nil, "zone_type": nil}, "taxadmin").Data()
		if country["zone_type"] != "country" || country["region_code"] != nil {
			t.Errorf("country zone %v", country)
		}
		httpxtest.AssertError(t, h.Do(http.MethodPost, zonesPath, map[string]any{"name": "Again", "code": "CA-ON", "country_code": "CA"}, "admin"),
			http.StatusConflict, "TAX_ZONE_EXISTS", "conflict")
		res := h.Do(http.MethodPost, zonesPath, map[string]any{"code": "X", "country_code": "Canada", "zone_type": ""}, "admin")
		httpxtest.AssertError(t, res, http.StatusBadRequest, http.StatusBadRequest, "validation")
		if f := res.Fields(); f["name"] == nil || f["country_code"] == nil || f["zone_type"] == nil || len(f) != 3 {
			t.Errorf("zone fields %v", f)
		}
		res = h.Do(http.MethodPost, zonesPath, map[string]any{"name": "N", "code": "N", "country_code": "NO", "region_code": 5}, "admin")
		httpxtest.AssertError(t, res, http.StatusBadRequest, http.StatusBadRequest, "validation")
		if f := res.Fields(); f["region_code"] == nil {
			t.Errorf("zone fields %v", f)
		}
		for _, who := range []string{"reader", "writer", "customer"} {
			httpxtest.AssertError(t, h.Do(http.MethodPost, zonesPath, map[string]any{"name": "N", "code": "N", "country_code": "NO"}, who),
				http.StatusForbidden, http.StatusForbidden, "auth")
		}
		httpxtest.AssertError(t, h.Do(http.MethodPost, zonesPath, map[string]any{}), http.StatusUnauthorized, http.StatusUnauthorized, "auth")

		// A rate for the new zone taxes there at once (the book reloads on change).
		r := h.Must(http.StatusCreated, http.MethodPost, ratesPath, map[string]any{"name": "Ontario HST", "tax_zone_id": z["id"], "rate": "0.13",
			"rate_type": "percentage", "is_vat": false, "b2b_exempt": false, "reverse_charge": false, "valid_from": "2026-01-01", "priority": 1}, "admin").Data()
		if httpxtest.Keys(r) != "b2b_exempt,created_at,id,is_vat,name,priority,rate,rate_type,reverse_charge,tax_category_id,tax_zone_id,updated_at,valid_from,valid_until,vat_type" ||
			r["rate"] != "0.13" || r["tax_zone_id"] != z["id"] || r["tax_category_id"] != nil || r["priority"] != float64(1) || r["vat_type"] != nil ||
			r["valid_from"] != "2026-01-01" || r["valid_until"] != nil {
			t.Errorf("rate %v", r)
		}
		if c := h.calc(map[string]any{"items": []any{item("a", "100.00", 1)}, "shipping_address": addr("CA", "ON"), "currency": "CAD"}); c["total_tax"] != "13.00" {
			t.Errorf("Ontario %v", c)
		}
		// Defaults: valid from today, percentage, a VAT rate is standard.
		d := h.Must(http.StatusCreated, http.MethodPost, ratesPath, map[string]any{"name": "CH VAT", "tax_zone_id": country["id"], "rate": 0.081, "is_vat": true,
			"tax_category_id": catFood, "valid_until": "2026-12-31", "valid_from": nil, "priority": nil, "vat_type": nil}, "taxadmin").Data()
		if d["rate"] != "0.081" || d["valid_from"] != "2026-06-15" || d["rate_type"] != "percentage" || d["vat_type"] != "standard" ||
			d["tax_category_id"] != catFood || d["valid_until"] != "2026-12-31" {
			t.Errorf("defaults %v", d)
		}

		// invalid_tax_rate: not a fraction from 0 to 1.
		for _, rate := range []any{"19", "-0.1", "abc", "1e-1", "1.5"} {
			res := h.Do(http.MethodPost, ratesPath, map[string]any{"name": "Bad", "tax_zone_id": zoneDE, "rate": rate}, "admin")
			httpxtest.AssertError(t, res, http.StatusBadRequest, "invalid_tax_rate", "validation")
			if _, ok := res.Fields()["rate"]; !ok {
				t.Errorf("rate %v: fields %v", rate, res.Fields())
			}
		}
		httpxtest.AssertError(t, h.Do(http.MethodPost, ratesPath, map[string]any{"name": "Bad", "tax_zone_id": zoneDE}, "admin"),
			http.StatusBadRequest, "invalid_tax_rate", "validation")
		httpxtest.AssertError(t, h.Do(http.MethodPost, ratesPath, map[string]any{"name": "Bad", "tax_zone_id": zoneDE, "rate": nil}, "admin"),
			http.StatusBadRequest, "invalid_tax_rate", "validation")
		// A null required member is missing.
		res = h.Do(http.MethodPost, ratesPath, map[string]any{"name": nil, "tax_zone_id": nil, "rate": "0.1", "tax_category_id": nil, "valid_until": nil}, "admin")
		httpxtest.AssertError(t, res, http.StatusBadRequest, http.StatusBadRequest, "validation")
		if f := res.Fields(); f["name"] != "is required" || f["tax_zone_id"] != "is required" || len(f) != 2 {
			t.Errorf("null members %v", f)
		}
		httpxtest.AssertError(t, h.Do(http.MethodPost, ratesPath, map[string]any{"name": "Lost", "tax_zone_id": "00000000-0000-4000-8000-00000000ffff", "rate": "0.1"}, "admin"),
			http.StatusNotFound, "tax_zone_not_found", "not_found")
		for _, c := range []struct {
			body  map[string]any
			field string
		}{
			{map[string]any{"tax_zone_id": zoneDE, "rate": "0.1"}, "name"},
			{map[string]any{"name": "X", "rate": "0.1"}, "tax_zone_id"},
			{map[string]any{"name": "X", "tax_zone_id": zoneDE, "rate": "0.1", "rate_type": "flat"}, "rate_type"},
			{map[string]any{"name": "X", "tax_zone_id": zoneDE, "rate": "0.1", "vat_type": "super"}, "vat_type"},
			{map[string]any{"name": "X", "tax_zone_id": zoneDE, "rate": "0.1", "valid_from": "15.06.2026"}, "valid_from"},
			{map[string]any{"name": "X", "tax_zone_id": zoneDE, "rate": "0.1", "valid_from": "2026-06-15", "valid_until": "2026-06-01"}, "valid_until"},
			{map[string]any{"name": "X", "tax_zone_id": zoneDE, "rate": "0.1", "is_vat": "yes"}, "is_vat"},
			{map[string]any{"name": "X", "tax_zone_id": zoneDE, "rate": "0.1", "priority": "high"}, "priority"},
			{map[string]any{"name": "X", "tax_zone_id": zoneDE, "rate": "0.1", "tax_category_id": "nope"}, "tax_category_id"},
		} {
			res := h.Do(http.MethodPost, ratesPath, c.body, "admin")
			httpxtest.AssertError(t, res, http.StatusBadRequest, http.StatusBadRequest, "validation")
			if _, ok := res.Fields()[c.field]; !ok {
				t.Errorf("%v: fields %v, want %s", c.body, res.Fields(), c.field)
			}
		}
		for _, who := range []string{"reader", "writer"} {
			httpxtest.AssertError(t, h.Do(http.MethodPost, ratesPath, map[string]any{"name": "X", "tax_zone_id": zoneDE, "rate": "0.1"}, who),
				http.StatusForbidden, http.StatusForbidden, "auth")
		}
	})
}
