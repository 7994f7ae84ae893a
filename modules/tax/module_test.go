package tax_test

import (
	"strings"
	"testing"

	"github.com/gocommerce/commerce/modules/tax"
	taxhttp "github.com/gocommerce/commerce/modules/tax/adapters/http"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/testdb"
)

// TestModule checks that the fragment merges into a valid document and documents every
// route with its method, the module's names, its provider choice, and that
// order.created reaches the subscriber.
func TestModule(t *testing.T) {
	t.Parallel()
	if n := httpxtest.AssertRoutesDocumented(t, tax.NewModule(taxhttp.NewHandler(nil), nil), "/api/v1/tax", "/api/v1/admin/tax"); n != 8 {
		t.Errorf("%d tax routes, want 8", n)
	}
	cfg := config.Default()
	m := tax.NewModule(nil, nil)
	if m.Name() != "tax" || m.Migrations().Module != "tax" {
		t.Errorf("module %q / %q", m.Name(), m.Migrations().Module)
	}
	cfg.Tax.Provider = "avalara"
	if _, err := tax.NewProvider(&cfg); err == nil || !strings.Contains(err.Error(), "tax.provider") {
		t.Errorf("unknown provider: %v", err)
	}

	h := newHarness(t, testdb.Primary(), nil)
	bus := events.NewBus()
	tax.NewModule(nil, h.sub).Subscribe(bus)
	ev := orderEvent(t, orderData("o1", "US", "2026-02-01T00:00:00Z", "600000.00", "600000.00", "", "", true))
	ev.Data = []byte(strings.Replace(string(ev.Data), `"country":"US"`, `"country":"US","state":"FL"`, 1))
	if err := bus.Dispatch(t.Context(), ev); err != nil {
		t.Fatalf("order.created dispatch: %v", err)
	}
	if r := h.calc(map[string]any{"items": []any{item("a", "100.00", 1)}, "shipping_address": addr("US", "FL"), "currency": "USD"}); r["total_tax"] != "6.00" {
		t.Errorf("FL after the event %v", r)
	}
	// A payload that is not an order is dropped, not retried.
	if err := h.sub.Handle(t.Context(), eventOf("not json")); err != nil {
		t.Errorf("bad payload: %v", err)
	}
}
