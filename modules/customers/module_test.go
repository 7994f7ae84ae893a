package customers_test

import (
	"strings"
	"testing"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/customers"
	customershttp "github.com/gocommerce/commerce/modules/customers/adapters/http"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/openapi"
)

// TestOpenAPIFragment checks that the fragment merges into a valid document and
// documents every route the handler registers, with its method.
func TestOpenAPIFragment(t *testing.T) {
	t.Parallel()
	doc, err := openapi.Build([]openapi.Fragment{customers.NewModule(nil, nil, nil).OpenAPI()})
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	srv, err := httpx.NewServer(&cfg, zap.NewNop(), nil, nil, nil, nil, []httpx.Module{customers.NewModule(customershttp.NewHandler(nil), nil, nil)})
	if err != nil {
		t.Fatal(err)
	}
	names := strings.NewReplacer(":id", "{id}", ":address_id", "{address_id}", ":segment_id", "{segment_id}")
	n := 0
	for _, r := range srv.Engine.Routes() {
		if !strings.HasPrefix(r.Path, "/api/v1/customers") {
			continue
		}
		n++
		item := doc.Paths.Find(names.Replace(r.Path))
		if item == nil || item.GetOperation(r.Method) == nil {
			t.Errorf("%s %s is not documented", r.Method, r.Path)
		}
	}
	if n != 26 {
		t.Errorf("%d customers routes registered, want 26", n)
	}
	if get := doc.Paths.Find("/api/v1/customers/{id}"); get == nil || get.Get == nil || get.Get.Responses.Value("404") == nil {
		t.Error("GET /api/v1/customers/{id} lacks its 404")
	}
	if m := customers.NewModule(nil, nil, nil); m.Name() != "customers" || m.Migrations().Module != "customers" {
		t.Errorf("module %q / %q", m.Name(), m.Migrations().Module)
	}
}
