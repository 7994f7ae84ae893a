package carts_test

import (
	"strings"
	"testing"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/carts"
	cartshttp "github.com/gocommerce/commerce/modules/carts/adapters/http"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/openapi"
)

// TestOpenAPIFragment checks that the fragment merges into a valid document and
// documents every route the handler registers, with its method.
func TestOpenAPIFragment(t *testing.T) {
	t.Parallel()
	doc, err := openapi.Build([]openapi.Fragment{carts.NewModule(nil, nil).OpenAPI()})
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	srv, err := httpx.NewServer(&cfg, zap.NewNop(), nil, nil, nil, nil, []httpx.Module{carts.NewModule(cartshttp.NewHandler(nil), nil)})
	if err != nil {
		t.Fatal(err)
	}
	names := strings.NewReplacer(":item_id", "{item_id}", ":id", "{cart_id}")
	n := 0
	for _, r := range srv.Engine.Routes() {
		if !strings.HasPrefix(r.Path, "/api/v1/carts") {
			continue
		}
		n++
		item := doc.Paths.Find(names.Replace(r.Path))
		if item == nil || item.GetOperation(r.Method) == nil {
			t.Errorf("%s %s is not documented", r.Method, r.Path)
		}
	}
	if n != 13 {
		t.Errorf("%d cart routes registered, want 13", n)
	}
	if m := carts.NewModule(nil, nil); m.Name() != "carts" || m.Migrations().Module != "carts" {
		t.Errorf("module %q / %q", m.Name(), m.Migrations().Module)
	}
}
