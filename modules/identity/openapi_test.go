package identity_test

import (
	"strings"
	"testing"

	"github.com/gocommerce/commerce/modules/identity"
	"github.com/gocommerce/commerce/platform/openapi"
	"github.com/gocommerce/commerce/platform/openapi/openapidoc"
)

// TestOpenAPIFragment checks that the fragment merges into a valid document and
// documents every identity route.
func TestOpenAPIFragment(t *testing.T) {
	t.Parallel()
	doc, err := openapidoc.Build([]openapi.Fragment{identity.NewModule(nil).OpenAPI()})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/api/v1/auth/register", "/api/v1/auth/login", "/api/v1/auth/refresh", "/api/v1/admin/auth/login"} {
		item := doc.Paths.Find(p)
		if item == nil || item.Post == nil {
			t.Errorf("POST %s not documented", p)
		}
	}
	if n := len(doc.Paths.Map()); n < 4 || !strings.HasPrefix(doc.OpenAPI, "3.") {
		t.Errorf("document: %d paths, openapi %q", n, doc.OpenAPI)
	}
}
