package tax_test

import (
	"net/http"
	"strconv"
	"sync"
	"testing"

	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/httpxtest"
)

const ossPath = "/api/v1/tax/oss-report"

// order builds an order.created payload: country, totals, one tax line, whether a
// line ships.
func orderData(id, country, created, subtotal, total, rate, tax string, ships bool) map[string]any {
	o := map[string]any{"id": id, "currency": "EUR", "subtotal_price": subtotal, "total_discounts": "0.00", "total_price": total,
		"created_at": created, "shipping_address": map[string]any{"country": country},
		"line_items": []any{map[string]any{"requires_shipping": ships}}, "tax_lines": []any{}}
	if rate != "" {
		o["tax_lines"] = []any{map[string]any{"title": "VAT", "rate": rate, "price": tax}}
	}
	return o
}

func TestOSSReport(t *testing.T) {
	t.Parallel()
	eachEngine(t, nil, func(t *testing.T, h *harness) {
		h.order(orderData("o1", "FR", "2026-05-03T10:00:00Z", "100.00", "120.00", "0.2", "20.00", true))
		h.order(orderData("o1", "FR", "2026-05-03T10:00:00Z", "100.00", "120.00", "0.2", "20.00", true)) // redelivered: once
		h.order(orderData("o2", "FR", "2026-05-20T10:00:00Z", "50.00", "60.00", "0.2", "10.00", false))
		h.order(orderData("o3", "AT", "2026-05-31T23:59:59Z", "10.00", "12.00", "0.2", "2.00", false))
		h.order(orderData("o4", "DE", "2026-05-04T10:00:00Z", "100.00", "119.00", "0.19", "19.00", true))                   // domestic
		h.order(orderData("o5", "FR", "2026-05-05T10:00:00Z", "100.00", "100.00", "", "", true))                            // reverse charge: no VAT
		h.order(orderData("o6", "US", "2026-05-06T10:00:00Z", "100.00", "100.00", "", "", true))                            // export
		h.order(orderData("o7", "FR", "2026-06-01T00:00:00Z", "100.00", "120.00", "0.2", "20.00", true))                    // next month
		h.order(map[string]any{"id": "o8", "currency": "EUR", "total_price": "1.00", "created_at": "2026-05-07T00:00:00Z"}) // no address: ignored

		r := h.Must(http.StatusOK, http.MethodPost, ossPath, map[string]any{"scheme": "union", "period": "2026-05", "member_state": "DE"}, "reader").Body
		if r["scheme"] != "union" || r["period"] != "2026-05" || r["member_state"] != "DE" {
			t.Errorf("head %v", r)
		}
		tx := httpxtest.Objects(r["transactions"])
		if len(tx) != 2 || tx[0]["country_code"] != "AT" || tx[0]["vat_rate"] != "0.2" || tx[0]["taxable_amount"] != "10.00" ||
			tx[0]["vat_amount"] != "2.00" || tx[0]["transaction_count"] != float64(1) ||
			tx[1]["country_code"] != "FR" || tx[1]["taxable_amount"] != "150.00" || tx[1]["vat_amount"] != "30.00" || tx[1]["transaction_count"] != float64(2) {
			t.Errorf("transactions %v", tx)
		}
		s := r["summary"].(map[string]any)
		by := httpxtest.Objects(s["by_country"])
		if s["total_taxable_amount"] != "160.00" || s["total_vat_amount"] != "32.00" || s["total_transactions"] != float64(3) ||
			len(by) != 2 || by[1]["country_name"] != "France" || by[1]["vat_amount"] != "30.00" || by[0]["country_name"] != "Austria" {
			t.Errorf("summary %v", s)
		}

		// non_union: services (nothing shipped) to EU consumers, the home state included.
		r = h.Must(http.StatusOK, http.MethodPost, ossPath, map[string]any{"scheme": "non_union", "period": "2026-05", "member_state": "DE"}, "reader").Body
		if s := r["summary"].(map[string]any); s["total_transactions"] != float64(2) || s["total_vat_amount"] != "12.00" {
			t.Errorf("non_union %v", r)
		}
		// import: goods consignments of at most EUR 150.
		r = h.Must(http.StatusOK, http.MethodPost, ossPath, map[string]any{"scheme": "import", "period": "2026-05", "member_state": "DE"}, "reader").Body
		if s := r["summary"].(map[string]any); s["total_transactions"] != float64(2) || s["total_vat_amount"] != "39.00" {
			t.Errorf("import %v", r)
		}
		// An empty month.
		r = h.Must(http.StatusOK, http.MethodPost, ossPath, map[string]any{"scheme": "union", "period": "2026-01", "member_state": "DE"}, "reader").Body
		if s := r["summary"].(map[string]any); len(httpxtest.Objects(r["transactions"])) != 0 || s["total_vat_amount"] != "0.00" || s["total_transactions"] != float64(0) {
			t.Errorf("empty %v", r)
		}

		for _, c := range []struct {
			body  map[string]any
			field string
		}{
			{map[string]any{"period": "2026-05", "member_state": "DE"}, "scheme"},
			{map[string]any{"scheme": "eu", "period": "2026-05", "member_state": "DE"}, "scheme"},
			{map[string]any{"scheme": "union", "member_state": "DE"}, "period"},
			{map[string]any{"scheme": "union", "period": "2026-13", "member_state": "DE"}, "period"},
			{map[string]any{"scheme": "union", "period": "05/2026", "member_state": "DE"}, "period"},
			{map[string]any{"scheme": "union", "period": "2026-05"}, "member_state"},
			{map[string]any{"scheme": "union", "period": "2026-05", "member_state": "US"}, "member_state"},
		} {
			res := h.Do(http.MethodPost, ossPath, c.body, "reader")
			httpxtest.AssertError(t, res, http.StatusBadRequest, http.StatusBadRequest, "validation")
			if _, ok := res.Fields()[c.field]; !ok {
				t.Errorf("%v: fields %v, want %s", c.body, res.Fields(), c.field)
			}
		}
		// The store identifies in DE (tax.oss_member_state): another state's return fails.
		httpxtest.AssertError(t, h.Do(http.MethodPost, ossPath, map[string]any{"scheme": "union", "period": "2026-05", "member_state": "FR"}, "reader"),
			http.StatusBadRequest, "oss_report_failed", "validation")
		httpxtest.AssertError(t, h.Do(http.MethodPost, ossPath, map[string]any{"scheme": "union", "period": "2026-05", "member_state": "DE"}),
			http.StatusUnauthorized, http.StatusUnauthorized, "auth")
	})
	// Without tax.oss_member_state any member state may be reported.
	eachEngine(t, func(c *config.Config) { c.Tax.OSSMemberState = "" }, func(t *testing.T, h *harness) {
		h.order(orderData("o1", "DE", "2026-05-03T10:00:00Z", "100.00", "119.00", "0.19", "19.00", true))
		r := h.Must(http.StatusOK, http.MethodPost, ossPath, map[string]any{"scheme": "union", "period": "2026-05", "member_state": "fr"}, "reader").Body
		if s := r["summary"].(map[string]any); r["member_state"] != "FR" || s["total_vat_amount"] != "19.00" {
			t.Errorf("FR return %v", r)
		}
	})
}

// Orders to one state recorded concurrently all count: NY's nexus needs 100 orders.
func TestNexusConcurrentOrders(t *testing.T) {
	t.Parallel()
	eachEngine(t, nil, func(t *testing.T, h *harness) {
		var wg sync.WaitGroup
		errs := make(chan error, 100)
		for i := range 100 {
			wg.Go(func() {
				o := orderData("ny"+strconv.Itoa(i), "US", "2026-04-01T00:00:00Z", "1.00", "1.00", "", "", true)
				o["shipping_address"] = map[string]any{"country": "US", "state": "NY"}
				errs <- h.sub.Handle(t.Context(), orderEvent(t, o))
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		if r := h.calc(map[string]any{"items": []any{item("a", "100.00", 1)}, "shipping_address": addr("US", "NY"), "currency": "USD"}); r["total_tax"] != "4.00" {
			t.Errorf("NY after 100 concurrent orders %v", r)
		}
	})
}

// With the rules loaded, an order that does not reach a state's nexus keeps them (no
// reload per order); the order that reaches it taxes the state from the next
// calculation on.
func TestNexusReachedWhileRulesLoaded(t *testing.T) {
	t.Parallel()
	eachEngine(t, nil, func(t *testing.T, h *harness) {
		ny := func() any {
			return h.calc(map[string]any{"items": []any{item("a", "100.00", 1)}, "shipping_address": addr("US", "NY"), "currency": "USD"})["total_tax"]
		}
		record := func(from, to int) {
			for i := from; i < to; i++ {
				o := orderData("ny"+strconv.Itoa(i), "US", "2026-04-01T00:00:00Z", "1.00", "1.00", "", "", true)
				o["shipping_address"] = map[string]any{"country": "US", "state": "NY"}
				if err := h.sub.Handle(t.Context(), orderEvent(t, o)); err != nil {
					t.Fatal(err)
				}
			}
		}
		if got := ny(); got != "0.00" {
			t.Fatalf("NY before any order: %v", got)
		}
		record(0, 99)
		if got := ny(); got != "0.00" {
			t.Errorf("NY after 99 orders (threshold 100): %v", got)
		}
		record(99, 100)
		if got := ny(); got != "4.00" {
			t.Errorf("NY after the 100th order: %v", got)
		}
	})
}
