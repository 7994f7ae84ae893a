package tax_test

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/httpxtest"
)

const calcPath = "/api/v1/tax/calculate"

// DE→DE: the German rate on each line and on shipping, rounded per line, with the
// breakdown by rate.
func TestCalculateDomestic(t *testing.T) {
	t.Parallel()
	eachEngine(t, nil, func(t *testing.T, h *harness) {
		r := h.calc(map[string]any{
			"items":            []any{item("a", "10.00", 3), item("b", "0.99", 1)},
			"shipping_address": addr("DE"), "currency": "EUR", "shipping_amount": "4.90",
		})
		ls := lines(r)
		if len(ls) != 2 {
			t.Fatalf("line_items %v", r["line_items"])
		}
		if l := ls[0]; l["item_id"] != "a" || l["taxable_amount"] != "30.00" || l["tax_amount"] != "5.70" || l["tax_rate"] != "0.19" ||
			l["tax_rate_id"] != rateDE || l["tax_zone_id"] != zoneDE {
			t.Errorf("line a %v", l)
		}
		if _, ok := ls[0]["reverse_charge"]; ok {
			t.Errorf("reverse_charge present without reverse charge: %v", ls[0])
		}
		// 0.99 × 0.19 = 0.1881 → 0.19 (per line, half away from zero)
		if l := ls[1]; l["tax_amount"] != "0.19" {
			t.Errorf("line b %v", l)
		}
		// shipping 4.90 × 0.19 = 0.931 → 0.93; total 5.70 + 0.19 + 0.93
		if r["shipping_tax"] != "0.93" || r["total_tax"] != "6.82" || r["currency"] != "EUR" || r["reverse_charge_applied"] != false {
			t.Errorf("totals %v", r)
		}
		if _, ok := r["vat_id_valid"]; ok {
			t.Errorf("vat_id_valid without a VAT id: %v", r)
		}
		b := breakdown(r)
		if len(b) != 1 || b[0]["tax_zone_id"] != zoneDE || b[0]["tax_zone_name"] != "Germany" || b[0]["tax_rate_id"] != rateDE ||
			b[0]["tax_rate_name"] != "DE VAT" || b[0]["rate"] != "0.19" || b[0]["taxable_amount"] != "35.89" || b[0]["tax_amount"] != "6.82" {
			t.Errorf("breakdown %v", b)
		}

		// A German VAT id of a German buyer: domestic B2B pays VAT.
		r = h.calc(map[string]any{"items": []any{item("a", "100.00", 1)}, "shipping_address": addr("DE"), "currency": "EUR", "vat_id": vatDE})
		if r["total_tax"] != "19.00" || r["reverse_charge_applied"] != false || r["vat_id_valid"] != true {
			t.Errorf("DE B2B domestic %v", r)
		}
	})
}

// DE→FR: digital goods to a consumer are taxed at the buyer's rate (OSS); physical
// goods at the store's rate without OSS, at the buyer's with tax.enable_oss.
func TestCalculateCrossBorderB2C(t *testing.T) {
	t.Parallel()
	eachEngine(t, nil, func(t *testing.T, h *harness) {
		r := h.calc(map[string]any{
			"items": []any{
				item("ebook", "10.00", 1, "is_digital", true),
				item("app", "5.00", 2, "tax_category_id", catDigital),
				item("mug", "10.00", 1),
			},
			"shipping_address": addr("FR"), "currency": "EUR",
		})
		ls := lines(r)
		if ls[0]["tax_rate"] != "0.2" || ls[0]["tax_amount"] != "2.00" || ls[0]["tax_zone_id"] != zoneFR || ls[0]["tax_rate_id"] != rateFR {
			t.Errorf("digital line %v", ls[0])
		}
		if ls[1]["tax_rate"] != "0.2" || ls[1]["tax_amount"] != "2.00" {
			t.Errorf("digital category line %v", ls[1])
		}
		if ls[2]["tax_rate"] != "0.19" || ls[2]["tax_amount"] != "1.90" || ls[2]["tax_zone_id"] != zoneDE {
			t.Errorf("physical line without OSS %v", ls[2])
		}
		if r["total_tax"] != "5.90" || len(breakdown(r)) != 2 {
			t.Errorf("totals %v", r)
		}
	})
	eachEngine(t, func(c *config.Config) { c.Tax.EnableOSS = true }, func(t *testing.T, h *harness) {
		r := h.calc(map[string]any{"items": []any{item("mug", "10.00", 1)}, "shipping_address": addr("FR"), "currency": "EUR"})
		if l := lines(r)[0]; l["tax_rate"] != "0.2" || l["tax_amount"] != "2.00" || l["tax_zone_id"] != zoneFR {
			t.Errorf("physical line with OSS %v", l)
		}
	})
}

// DE→FR B2B with a VAT id VIES finds valid: reverse charge, zero tax, empty breakdown.
func TestCalculateReverseCharge(t *testing.T) {
	t.Parallel()
	eachEngine(t, nil, func(t *testing.T, h *harness) {
		r := h.calc(map[string]any{
			"items":            []any{item("a", "100.00", 2), item("e", "9.99", 1, "is_digital", true)},
			"shipping_address": addr("FR"), "billing_address": addr("FR"), "currency": "EUR", "vat_id": "FR 40 303 265 045",
			"shipping_amount": "10.00", "customer_id": "c1",
		})
		if r["reverse_charge_applied"] != true || r["vat_id_valid"] != true || r["total_tax"] != "0.00" || r["shipping_tax"] != "0.00" {
			t.Errorf("reverse charge %v", r)
		}
		if len(breakdown(r)) != 0 {
			t.Errorf("breakdown %v", r["tax_breakdown"])
		}
		for _, l := range lines(r) {
			if l["reverse_charge"] != true || l["tax_amount"] != "0.00" || l["tax_rate"] != "0" || l["tax_rate_id"] != rateFR || l["tax_zone_id"] != zoneFR {
				t.Errorf("line %v", l)
			}
		}
		if ls := lines(r); ls[0]["taxable_amount"] != "200.00" {
			t.Errorf("taxable %v", ls[0])
		}

		// A well-formed id VIES does not know: invalid_vat_id.
		httpxtest.AssertError(t, h.Do(http.MethodPost, calcPath, map[string]any{
			"items": []any{item("a", "1.00", 1)}, "shipping_address": addr("FR"), "currency": "EUR", "vat_id": vatUnknown,
		}, "reader"), http.StatusBadRequest, "invalid_vat_id", "validation")

		// A malformed one: exactly {error, code: validation_error}.
		r2 := h.Must(http.StatusBadRequest, http.MethodPost, calcPath, map[string]any{
			"items": []any{item("a", "1.00", 1)}, "shipping_address": addr("FR"), "currency": "EUR", "vat_id": "FR123",
		}, "reader")
		if httpxtest.Keys(r2.Body) != "code,error" || r2.Body["code"] != "validation_error" || r2.Body["error"] == "" {
			t.Errorf("malformed VAT id body %s", r2.Raw)
		}
	})
}

// VIES down, slow or busy: vies_unavailable; nothing is cached, so it answers again
// once VIES is back.
func TestCalculateVIESOutage(t *testing.T) {
	t.Parallel()
	eachEngine(t, nil, func(t *testing.T, h *harness) {
		body := map[string]any{"items": []any{item("a", "10.00", 1)}, "shipping_address": addr("FR"), "currency": "EUR", "vat_id": vatDE}
		for _, mode := range []string{"outage", "slow"} {
			h.vies.set(mode)
			httpxtest.AssertError(t, h.Do(http.MethodPost, calcPath, body, "reader"), http.StatusBadRequest, "vies_unavailable", "validation")
		}
		h.vies.set("")
		httpxtest.AssertError(t, h.Do(http.MethodPost, calcPath, map[string]any{
			"items": []any{item("a", "10.00", 1)}, "shipping_address": addr("FR"), "currency": "EUR", "vat_id": vatBusy,
		}, "reader"), http.StatusBadRequest, "vies_unavailable", "validation")
		if r := h.calc(body); r["reverse_charge_applied"] != true {
			t.Errorf("after the outage %v", r)
		}
	})
}

// US: a state taxes only with nexus: reached by recorded sales (or transactions), or
// by registering (an admin rate for the state).
func TestCalculateUSNexus(t *testing.T) {
	t.Parallel()
	eachEngine(t, nil, func(t *testing.T, h *harness) {
		body := map[string]any{"items": []any{item("a", "100.00", 1)}, "shipping_address": addr("US", "CA"), "currency": "USD", "shipping_amount": "10.00"}
		r := h.calc(body)
		if l := lines(r)[0]; r["total_tax"] != "0.00" || l["tax_amount"] != "0.00" || l["tax_rate_id"] != nil || len(breakdown(r)) != 0 {
			t.Errorf("CA without nexus %v", r)
		}
		// 499,999.99 in sales this year: still below 500,000.
		h.order(map[string]any{"id": "o1", "currency": "USD", "subtotal_price": "499999.99", "total_discounts": "0.00", "total_price": "499999.99",
			"created_at": "2026-02-01T00:00:00Z", "shipping_address": map[string]any{"country": "US", "state": "CA"}, "tax_lines": []any{}})
		if r := h.calc(body); r["total_tax"] != "0.00" {
			t.Errorf("CA below the threshold %v", r)
		}
		h.order(map[string]any{"id": "o2", "currency": "USD", "subtotal_price": "0.01", "total_discounts": "0.00", "total_price": "0.01",
			"created_at": "2026-03-01T00:00:00Z", "shipping_address": map[string]any{"country": "US", "state": "CA"}, "tax_lines": []any{}})
		r = h.calc(body)
		if l := lines(r)[0]; r["total_tax"] != "7.98" || l["tax_amount"] != "7.25" || l["tax_rate"] != "0.0725" || l["tax_rate_id"] != rateCA ||
			l["tax_zone_id"] != zoneCA || r["shipping_tax"] != "0.73" {
			t.Errorf("CA with nexus %v", r)
		}
		// The region code may carry the country: "US-CA".
		if r := h.calc(map[string]any{"items": []any{item("a", "100.00", 1)}, "shipping_address": addr("US", "US-CA"), "currency": "USD"}); r["total_tax"] != "7.25" {
			t.Errorf("US-CA %v", r)
		}

		// NY: 100 transactions make nexus whatever the amount.
		ny := map[string]any{"items": []any{item("a", "100.00", 1)}, "shipping_address": addr("US", "NY"), "currency": "USD"}
		for i := range 100 {
			if r := h.calc(ny); i == 99 && r["total_tax"] != "0.00" {
				t.Errorf("NY before 100 orders %v", r)
			}
			h.order(map[string]any{"id": "ny" + strconv.Itoa(i), "currency": "USD", "subtotal_price": "1.00", "total_price": "1.00",
				"created_at": "2026-04-01T00:00:00Z", "shipping_address": map[string]any{"country_code": "US", "province_code": "NY"}})
		}
		if r := h.calc(ny); r["total_tax"] != "4.00" {
			t.Errorf("NY after 100 orders %v", r)
		}

		// TX: registering (an admin rate for the state) gives nexus at once.
		tx := map[string]any{"items": []any{item("a", "100.00", 1)}, "shipping_address": addr("US", "TX"), "currency": "USD"}
		if r := h.calc(tx); r["total_tax"] != "0.00" {
			t.Errorf("TX before registering %v", r)
		}
		h.Must(http.StatusCreated, http.MethodPost, "/api/v1/admin/tax/rates", map[string]any{
			"name": "Texas sales tax", "tax_zone_id": "00000000-0000-4000-8000-0000000a0103", "rate": "0.0625",
		}, "admin")
		if r := h.calc(tx); r["total_tax"] != "6.25" {
			t.Errorf("TX after registering %v", r)
		}
	})
}

// Validity windows and priority: a rate that expired yesterday no longer applies; the
// valid rate with the highest priority wins; a category's own rate beats the general
// one at equal priority.
func TestCalculateRateSelection(t *testing.T) {
	t.Parallel()
	eachEngine(t, nil, func(t *testing.T, h *harness) {
		create := func(body map[string]any) string {
			return h.Must(http.StatusCreated, http.MethodPost, "/api/v1/admin/tax/rates", body, "admin").Data()["id"].(string)
		}
		expired := create(map[string]any{"name": "DE old", "tax_zone_id": zoneDE, "rate": "0.16", "is_vat": true, "priority": 10,
			"valid_from": "2020-07-01", "valid_until": "2026-06-14"})
		body := map[string]any{"items": []any{item("a", "100.00", 1), item("f", "10.00", 1, "tax_category_id", catFood)}, "shipping_address": addr("DE"), "currency": "EUR"}
		r := h.calc(body)
		if l := lines(r)[0]; l["tax_rate_id"] != rateDE || l["tax_amount"] != "19.00" {
			t.Errorf("expired rate used: %v (expired %s)", l, expired)
		}
		food := create(map[string]any{"name": "DE food", "tax_zone_id": zoneDE, "tax_category_id": catFood, "rate": "0.07", "is_vat": true,
			"vat_type": "reduced", "b2b_exempt": true, "reverse_charge": true})
		today := create(map[string]any{"name": "DE temporary", "tax_zone_id": zoneDE, "rate": "0.18", "is_vat": true, "priority": 5,
			"valid_from": "2026-06-15", "valid_until": "2026-06-15"})
		r = h.calc(body)
		ls := lines(r)
		if ls[0]["tax_rate_id"] != today || ls[0]["tax_amount"] != "18.00" {
			t.Errorf("priority: %v", ls[0])
		}
		if ls[1]["tax_rate_id"] != today {
			t.Errorf("priority over category: %v (food %s)", ls[1], food)
		}
		h.clock.Advance(24 * time.Hour) // tomorrow: the temporary rate expired
		r = h.calc(body)
		ls = lines(r)
		if ls[0]["tax_rate_id"] != rateDE || ls[1]["tax_rate_id"] != food || ls[1]["tax_amount"] != "0.70" || len(breakdown(r)) != 2 {
			t.Errorf("tomorrow: %v", r)
		}
	})
}

// tax_included: prices hold the tax (default_tax_included, or the request's flag).
func TestCalculateTaxIncluded(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(c *config.Config) { c.Tax.DefaultTaxIncluded = true }, func(t *testing.T, h *harness) {
		body := map[string]any{"items": []any{item("a", "119.00", 1), item("b", "10.00", 1)}, "shipping_address": addr("DE"), "currency": "EUR",
			"shipping_amount": "5.95"}
		r := h.calc(body)
		ls := lines(r)
		// 119.00 − 119.00 / 1.19 = 19.00; 10.00 − 10.00 / 1.19 = 1.5966 → 1.60
		if ls[0]["taxable_amount"] != "100.00" || ls[0]["tax_amount"] != "19.00" || ls[1]["taxable_amount"] != "8.40" || ls[1]["tax_amount"] != "1.60" {
			t.Errorf("included %v", ls)
		}
		if r["tax_included"] != true || r["shipping_tax"] != "0.95" || r["total_tax"] != "21.55" {
			t.Errorf("included totals %v", r)
		}
		body["tax_included"] = false
		r = h.calc(body)
		if ls := lines(r); ls[0]["tax_amount"] != "22.61" || r["tax_included"] != false || r["total_tax"] != "25.64" {
			t.Errorf("excluded %v", r)
		}
	})
}

// Addresses: billing when there is no shipping address; a country without zone has no
// tax; the request's problems are named.
func TestCalculateAddressesAndValidation(t *testing.T) {
	t.Parallel()
	eachEngine(t, nil, func(t *testing.T, h *harness) {
		r := h.calc(map[string]any{"items": []any{item("a", "10.00", 1, "is_digital", true)}, "billing_address": addr("AT"), "currency": "EUR"})
		if lines(r)[0]["tax_rate"] != "0.2" || r["total_tax"] != "2.00" {
			t.Errorf("billing address %v", r)
		}
		r = h.calc(map[string]any{"items": []any{item("a", "10.00", 1)}, "shipping_address": addr("JP"), "currency": "JPY"})
		if l := lines(r)[0]; r["total_tax"] != "0" || l["tax_rate_id"] != nil || l["taxable_amount"] != "10" || l["tax_rate"] != "0" {
			t.Errorf("JP %v", r)
		}
		for _, c := range []struct {
			body  map[string]any
			field string
		}{
			{map[string]any{"items": []any{item("a", "1.00", 1)}, "currency": "EUR"}, "shipping_address.country_code"},
			{map[string]any{"items": []any{item("a", "1.00", 1)}, "shipping_address": addr("Germany"), "currency": "EUR"}, "shipping_address.country_code"},
			{map[string]any{"items": []any{item("a", "1.00", 1)}, "shipping_address": addr("DE")}, "currency"},
			{map[string]any{"items": []any{item("a", "1.00", 1)}, "shipping_address": addr("DE"), "currency": "EURO"}, "currency"},
			{map[string]any{"shipping_address": addr("DE"), "currency": "EUR"}, "items"},
			{map[string]any{"items": []any{item("a", "1.001", 1)}, "shipping_address": addr("DE"), "currency": "EUR"}, "items[0].unit_price"},
			{map[string]any{"items": []any{item("a", 1.5, 1)}, "shipping_address": addr("DE"), "currency": "EUR"}, "items.unit_price"},
			{map[string]any{"items": []any{item("a", "1.00", 0)}, "shipping_address": addr("DE"), "currency": "EUR"}, "items[0].quantity"},
			{map[string]any{"items": []any{item("a", "-1.00", 1)}, "shipping_address": addr("DE"), "currency": "EUR"}, "items[0].unit_price"},
			{map[string]any{"items": []any{}, "shipping_address": addr("DE"), "currency": "EUR", "shipping_amount": "x"}, "shipping_amount"},
		} {
			res := h.Do(http.MethodPost, calcPath, c.body, "reader")
			httpxtest.AssertError(t, res, http.StatusBadRequest, http.StatusBadRequest, "validation")
			if _, ok := res.Fields()[c.field]; !ok {
				t.Errorf("%v: fields %v, want %s", c.body, res.Fields(), c.field)
			}
		}
		// Scopes: tax:read (customers hold it); none is 401, another scope 403.
		body := map[string]any{"items": []any{}, "shipping_address": addr("DE"), "currency": "EUR"}
		h.Must(http.StatusOK, http.MethodPost, calcPath, body, "customer")
		httpxtest.AssertError(t, h.Do(http.MethodPost, calcPath, body), http.StatusUnauthorized, http.StatusUnauthorized, "auth")
		httpxtest.AssertError(t, h.Do(http.MethodPost, calcPath, body, "products"), http.StatusForbidden, http.StatusForbidden, "auth")
	})
}

// The store's country from tax.default_tax_zone (a zone code) when no OSS member
// state is set; with neither, every EU sale is taxed at the buyer's rate and any valid
// VAT id is a reverse charge.
func TestCalculateOrigin(t *testing.T) {
	t.Parallel()
	body := map[string]any{"items": []any{item("mug", "10.00", 1)}, "shipping_address": addr("FR"), "currency": "EUR"}
	eachEngine(t, func(c *config.Config) { c.Tax.OSSMemberState, c.Tax.DefaultTaxZone = "", "de" }, func(t *testing.T, h *harness) {
		if l := lines(h.calc(body))[0]; l["tax_rate"] != "0.19" {
			t.Errorf("origin from the default zone %v", l)
		}
	})
	eachEngine(t, func(c *config.Config) { c.Tax.OSSMemberState, c.Tax.ValidateVATIDs = "", false }, func(t *testing.T, h *harness) {
		if l := lines(h.calc(body))[0]; l["tax_rate"] != "0.2" {
			t.Errorf("no origin %v", l)
		}
		r := h.calc(map[string]any{"items": []any{item("mug", "10.00", 1)}, "shipping_address": addr("DE"), "currency": "EUR", "vat_id": vatDE})
		if r["reverse_charge_applied"] != true || r["total_tax"] != "0.00" {
			t.Errorf("no origin, B2B %v", r)
		}
	})
}
