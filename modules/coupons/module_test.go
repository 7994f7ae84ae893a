package coupons_test

import (
	"testing"

	"github.com/gocommerce/commerce/modules/coupons"
	couponshttp "github.com/gocommerce/commerce/modules/coupons/adapters/http"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/testdb"
)

// TestOpenAPIFragment checks that the fragment merges into a valid document and
// documents every route the handler registers, with its method; and the module's
// subscription.
func TestOpenAPIFragment(t *testing.T) {
	t.Parallel()
	if n := httpxtest.AssertRoutesDocumented(t, coupons.NewModule(couponshttp.NewHandler(nil, nil), nil), "/api/v1/coupons"); n != 7 {
		t.Errorf("%d coupon routes registered, want 7", n)
	}
	m := coupons.NewModule(nil, nil)
	if m.Name() != "coupons" || m.Migrations().Module != "coupons" {
		t.Errorf("module %q / %q", m.Name(), m.Migrations().Module)
	}
	h := newHarness(t, testdb.Primary(), false)
	bus := events.NewBus()
	coupons.NewModule(nil, h.sub).Subscribe(bus)
	if err := bus.Dispatch(t.Context(), orderEvent(t, map[string]any{"id": "o-1", "total_price": "1.00", "currency": "USD"})); err != nil {
		t.Errorf("order.created dispatch: %v", err)
	}
}
