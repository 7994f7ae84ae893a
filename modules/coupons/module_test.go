package coupons_test

import (
	"strings"
	"testing"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/coupons"
	couponshttp "github.com/gocommerce/commerce/modules/coupons/adapters/http"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/openapi"
	"github.com/gocommerce/commerce/platform/testdb"
)

// TestOpenAPIFragment checks that the fragment merges into a valid document and
// documents every route the handler registers, with its method; and the module's
// subscription.
func TestOpenAPIFragment(t *testing.T) {
	t.Parallel()
	doc, err := openapi.Build([]openapi.Fragment{coupons.NewModule(nil, nil).OpenAPI()})
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	srv, err := httpx.NewServer(&cfg, zap.NewNop(), nil, nil, nil, nil, []httpx.Module{coupons.NewModule(couponshttp.NewHandler(nil, nil), nil)})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range srv.Engine.Routes() {
		if !strings.HasPrefix(r.Path, "/api/v1/coupons") {
			continue
		}
		n++
		item := doc.Paths.Find(strings.ReplaceAll(r.Path, ":id", "{code_or_id}"))
		if item == nil || item.GetOperation(r.Method) == nil {
			t.Errorf("%s %s is not documented", r.Method, r.Path)
		}
	}
	if n != 7 {
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
