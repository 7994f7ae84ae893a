package tax_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/testdb"
)

// BenchmarkCalculateHTTP is POST /tax/calculate for a 5-line cart with shipping through
// the whole HTTP stack (rates from memory; no VAT id, so no VIES or cache read).
func BenchmarkCalculateHTTP(b *testing.B) {
	h := newHarness(b, testdb.Primary(), nil)
	body := map[string]any{"items": []any{item("a", "10.00", 1), item("b", "5.00", 2, "tax_category_id", catFood),
		item("c", "3.99", 3, "is_digital", true), item("d", "20.00", 1), item("e", "0.99", 5)},
		"shipping_address": addr("FR"), "currency": "EUR", "shipping_amount": "4.90"}
	h.Must(http.StatusOK, http.MethodPost, calcPath, body, "reader") // loads the book
	raw := string(httpxtest.Encode(b, body))
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		h.bare.ServeHTTP(w, httpxtest.NewRequest(b, http.MethodPost, calcPath, raw, "reader"))
		if w.Code != http.StatusOK {
			b.Fatal(w.Body.String())
		}
	}
}
