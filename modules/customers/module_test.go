package customers_test

import (
	"testing"

	"github.com/gocommerce/commerce/modules/customers"
	"github.com/gocommerce/commerce/platform/openapi"
)

// TestOpenAPIFragment checks that the fragment merges into a valid document and
// documents the customers routes.
func TestOpenAPIFragment(t *testing.T) {
	t.Parallel()
	doc, err := openapi.Build([]openapi.Fragment{customers.NewModule(nil).OpenAPI()})
	if err != nil {
		t.Fatal(err)
	}
	if item := doc.Paths.Find("/api/v1/customers/{id}"); item == nil || item.Get == nil {
		t.Error("GET /api/v1/customers/{id} not documented")
	}
	if m := customers.NewModule(nil); m.Name() != "customers" || m.Migrations().Module != "customers" {
		t.Errorf("module %q / %q", m.Name(), m.Migrations().Module)
	}
}
