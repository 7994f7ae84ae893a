package customers_test

import (
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/customers"
	customershttp "github.com/gocommerce/commerce/modules/customers/adapters/http"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/openapi"
	"github.com/gocommerce/commerce/platform/openapi/openapidoc"
)

// TestOpenAPIFragment checks that the fragment merges into a valid document and
// documents every route the handler registers, with its method.
func TestOpenAPIFragment(t *testing.T) {
	t.Parallel()
	doc, err := openapidoc.Build([]openapi.Fragment{customers.NewModule(nil, nil, nil).OpenAPI()})
	if err != nil {
		t.Fatal(err)
	}
	if n := httpxtest.AssertRoutesDocumented(t, customers.NewModule(customershttp.NewHandler(nil), nil, nil), "/api/v1/customers"); n != 26 {
		t.Errorf("%d customers routes registered, want 26", n)
	}
	if get := doc.Paths.Find("/api/v1/customers/{id}"); get == nil || get.Get == nil || get.Get.Responses.Value("404") == nil {
		t.Error("GET /api/v1/customers/{id} lacks its 404")
	}
	if m := customers.NewModule(nil, nil, nil); m.Name() != "customers" || m.Migrations().Module != "customers" {
		t.Errorf("module %q / %q", m.Name(), m.Migrations().Module)
	}
}

// TestJobs checks the module's one background task: the expired-token sweep, hourly.
func TestJobs(t *testing.T) {
	t.Parallel()
	if j := customers.NewJobs(nil, zap.NewNop()); j.Task != "customers:purge_expired_tokens" || j.Every != time.Hour ||
		j.Done != "expired account tokens purged" {
		t.Errorf("sweep %q every %v", j.Task, j.Every)
	}
}
