package carts_test

import (
	"testing"

	"github.com/gocommerce/commerce/modules/carts"
	cartshttp "github.com/gocommerce/commerce/modules/carts/adapters/http"
	"github.com/gocommerce/commerce/platform/httpxtest"
)

// TestOpenAPIFragment checks that the fragment merges into a valid document and
// documents every route the handler registers, with its method.
func TestOpenAPIFragment(t *testing.T) {
	t.Parallel()
	if n := httpxtest.AssertRoutesDocumented(t, carts.NewModule(cartshttp.NewHandler(nil), nil), "/api/v1/carts"); n != 13 {
		t.Errorf("%d cart routes registered, want 13", n)
	}
	if m := carts.NewModule(nil, nil); m.Name() != "carts" || m.Migrations().Module != "carts" {
		t.Errorf("module %q / %q", m.Name(), m.Migrations().Module)
	}
}
