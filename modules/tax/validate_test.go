package tax_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/httpxtest"
)

const vatPath = "/api/v1/tax/validate-vat"

// vat posts a VAT id to validate-vat with the reader key and wants status.
func (h *harness) vat(status int, id string) httpxtest.Response {
	h.T.Helper()
	return h.As("reader").Must(status, http.MethodPost, vatPath, map[string]any{"vat_id": id})
}

func TestValidateVAT(t *testing.T) {
	t.Parallel()
	eachEngine(t, nil, func(t *testing.T, h *harness) {
		r := h.vat(http.StatusOK, "de 123.456.789").Body
		if httpxtest.Keys(r) != "business_address,business_name,country_code,is_valid,validated_at,vat_id" {
			t.Errorf("keys %s", httpxtest.Keys(r))
		}
		if r["vat_id"] != vatDE || r["country_code"] != "DE" || r["is_valid"] != true || r["business_name"] != "Musterfirma GmbH" ||
			r["business_address"] != "Musterstr. 1, 10115 Berlin" || r["validated_at"] != "2026-06-15T10:00:00Z" {
			t.Errorf("valid %v", r)
		}
		// Cached: a second check within vat_cache_days does not call VIES.
		calls := h.vies.calls.Load()
		h.clock.Advance(29 * 24 * time.Hour)
		r = h.vat(http.StatusOK, vatDE).Body
		if h.vies.calls.Load() != calls || r["validated_at"] != "2026-06-15T10:00:00Z" {
			t.Errorf("cached: %d calls, was %d; %v", h.vies.calls.Load(), calls, r)
		}
		// Past the cache's days VIES is asked again.
		h.clock.Advance(2 * 24 * time.Hour)
		r = h.vat(http.StatusOK, vatDE).Body
		if h.vies.calls.Load() != calls+1 || r["validated_at"] != "2026-07-16T10:00:00Z" {
			t.Errorf("expired cache: %d calls, was %d; %v", h.vies.calls.Load(), calls, r)
		}

		// Not disclosed ("---") is null; an unknown number is not valid (200).
		r = h.vat(http.StatusOK, vatFR).Body
		if r["is_valid"] != true || r["business_name"] != nil || r["business_address"] != nil || r["country_code"] != "FR" {
			t.Errorf("FR %v", r)
		}
		r = h.vat(http.StatusOK, vatUnknown).Body
		if r["is_valid"] != false {
			t.Errorf("unknown %v", r)
		}
		// Greece's EL prefix.
		r = h.vat(http.StatusOK, "EL123456789").Body
		if r["vat_id"] != "EL123456789" || r["country_code"] != "GR" || r["is_valid"] != false {
			t.Errorf("EL %v", r)
		}

		// Malformed: exactly {error, code: validation_error}.
		for _, bad := range []string{"DE12345678", "XX123456789", "123", "DE1234567890", "ATU1234567", "GR123456789"} {
			r := h.vat(http.StatusBadRequest, bad)
			if httpxtest.Keys(r.Body) != "code,error" || r.Body["code"] != "validation_error" || r.Body["error"] == "" {
				t.Errorf("%s: body %s", bad, r.Raw)
			}
		}
		// Far too long to be a VAT id, or missing: the validation envelope naming vat_id.
		res := h.vat(http.StatusBadRequest, strings.Repeat("DE1", 30))
		httpxtest.AssertError(t, res, http.StatusBadRequest, http.StatusBadRequest, "validation")
		if _, ok := res.Fields()["vat_id"]; !ok {
			t.Errorf("fields %v", res.Fields())
		}
		res = h.Do(http.MethodPost, vatPath, map[string]any{}, "reader")
		httpxtest.AssertError(t, res, http.StatusBadRequest, http.StatusBadRequest, "validation")
		if _, ok := res.Fields()["vat_id"]; !ok {
			t.Errorf("fields %v", res.Fields())
		}
		httpxtest.AssertError(t, h.Do(http.MethodPost, vatPath, map[string]any{"vat_id": vatDE}), http.StatusUnauthorized, http.StatusUnauthorized, "auth")
		httpxtest.AssertError(t, h.Do(http.MethodPost, vatPath, map[string]any{"vat_id": vatDE}, "products"), http.StatusForbidden, http.StatusForbidden, "auth")
	})
}

// VIES down, slow, busy: vies_unavailable, and no answer is cached.
func TestValidateVATOutage(t *testing.T) {
	t.Parallel()
	eachEngine(t, nil, func(t *testing.T, h *harness) {
		for _, mode := range []string{"outage", "slow"} {
			h.vies.set(mode)
			httpxtest.AssertError(t, h.vat(http.StatusBadRequest, vatDE),
				http.StatusBadRequest, "vies_unavailable", "validation")
		}
		h.vies.set("")
		httpxtest.AssertError(t, h.vat(http.StatusBadRequest, vatBusy),
			http.StatusBadRequest, "vies_unavailable", "validation")
		if n := h.Count("tax_vat_checks", ""); n != 0 {
			t.Errorf("%d answers cached during the outage", n)
		}
		calls := h.vies.calls.Load()
		if r := h.vat(http.StatusOK, vatDE).Body; r["is_valid"] != true {
			t.Errorf("after the outage %v", r)
		}
		if h.vies.calls.Load() != calls+1 || h.Count("tax_vat_checks", "vat_id = ? AND is_valid", vatDE) != 1 {
			t.Errorf("VIES not asked, or its answer not cached, after the outage")
		}
	})
}

// tax.validate_vat_ids false: format only, VIES never called (CONTRACT.md §7); a zero
// vat_cache_days asks VIES every time.
func TestValidateVATSettings(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(c *config.Config) { c.Tax.ValidateVATIDs = false }, func(t *testing.T, h *harness) {
		r := h.vat(http.StatusOK, vatUnknown).Body
		if r["is_valid"] != true || r["business_name"] != nil || h.vies.calls.Load() != 0 {
			t.Errorf("format only %v (%d calls)", r, h.vies.calls.Load())
		}
		c := h.calc(map[string]any{"items": []any{item("a", "10.00", 1)}, "shipping_address": addr("FR"), "currency": "EUR", "vat_id": vatUnknown})
		if c["reverse_charge_applied"] != true || h.vies.calls.Load() != 0 {
			t.Errorf("format only calculation %v", c)
		}
		if r := h.vat(http.StatusBadRequest, "DE1"); r.Body["code"] != "validation_error" {
			t.Errorf("malformed %s", r.Raw)
		}
	})
	eachEngine(t, func(c *config.Config) { c.Tax.VATCacheDays = 0 }, func(t *testing.T, h *harness) {
		for range 2 {
			h.vat(http.StatusOK, vatDE)
		}
		if h.vies.calls.Load() != 2 {
			t.Errorf("no cache: %d calls", h.vies.calls.Load())
		}
	})
}
