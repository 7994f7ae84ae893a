package inventory_test

import (
	"testing"

	"github.com/gocommerce/commerce/modules/inventory"
	"github.com/gocommerce/commerce/platform/openapi"
	"github.com/gocommerce/commerce/platform/openapi/openapidoc"
)

// TestOpenAPIFragment checks that the fragment merges into a valid document and
// documents every inventory route.
func TestOpenAPIFragment(t *testing.T) {
	t.Parallel()
	m := inventory.NewModule(nil, nil, nil)
	doc, err := openapidoc.Build([]openapi.Fragment{m.OpenAPI()})
	if err != nil {
		t.Fatal(err)
	}
	for path, methods := range map[string][]string{
		"/api/v1/inventory":                        {"GET"},
		"/api/v1/inventory/{product_id}":           {"GET"},
		"/api/v1/inventory/movements":              {"GET"},
		"/api/v1/inventory/locations":              {"GET", "POST"},
		"/api/v1/inventory/adjust":                 {"POST"},
		"/api/v1/inventory/set":                    {"POST"},
		"/api/v1/inventory/receive":                {"POST"},
		"/api/v1/inventory/reserve":                {"POST"},
		"/api/v1/inventory/release":                {"POST"},
		"/api/v1/inventory/transfer":               {"POST"},
		"/api/v1/products/{id}/inventory/adjust":   {"POST"},
		"/api/v1/products/{id}/inventory/set":      {"POST"},
		"/api/v1/products/{id}/inventory/transfer": {"POST"},
	} {
		item := doc.Paths.Find(path)
		if item == nil {
			t.Errorf("%s not documented", path)
			continue
		}
		for _, method := range methods {
			if item.GetOperation(method) == nil {
				t.Errorf("%s %s not documented", method, path)
			}
		}
	}
	if m.Name() != "inventory" || m.Migrations().Module != "inventory" {
		t.Errorf("module %q / %q", m.Name(), m.Migrations().Module)
	}
}
