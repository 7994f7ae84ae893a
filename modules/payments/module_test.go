package payments_test

import (
	"net/http"
	"testing"

	"github.com/gocommerce/commerce/modules/payments"
	paymentshttp "github.com/gocommerce/commerce/modules/payments/adapters/http"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/testdb"
)

// TestOpenAPIFragment checks that the fragment is valid, that every route the module
// registers is documented, and that real answers match their documented schemas.
func TestOpenAPIFragment(t *testing.T) {
	m := payments.NewModule(nil, nil)
	if m.Name() != "payments" || m.Migrations().Module != "payments" {
		t.Fatalf("module %q / %q", m.Name(), m.Migrations().Module)
	}
	if n := httpxtest.AssertRoutesDocumented(t, payments.NewModule(paymentshttp.NewHandler(nil), nil), "/api/v1/payments", "/api/v2/webhooks"); n != 12 {
		t.Errorf("%d payment routes", n)
	}
	// Real answers, each checked against the document.
	s := newStack(t, testdb.Primary(), stackOptions{})
	checked := httpxtest.New(t, httpxtest.NewValidator(m.OpenAPI).Wrap(t, s.Server), s.DB)
	check := func(method, path, cred string, body any) {
		t.Helper()
		checked.Do(method, path, body, cred)
	}
	ok := s.pay("merchant", "10.00", "4242424242424242")
	id := ok.Body["payment_id"].(string)
	check(http.MethodPost, "/api/v1/payments", "merchant", payBody("10.00", "4242424242424242"))
	check(http.MethodPost, "/api/v1/payments", "merchant", payBody("10.00", "4000000000000002"))
	check(http.MethodPost, "/api/v1/payments", "merchant", payBody("10.00", "4000002500003155"))
	check(http.MethodPost, "/api/v1/payments", "merchant", payBody("0", "4242424242424242"))
	check(http.MethodGet, "/api/v1/payments/"+id, "merchant", nil)
	check(http.MethodPost, "/api/v1/payments/"+id+"/refund", "merchant", map[string]any{"amount": "1.00"})
	check(http.MethodPost, "/api/v1/payments/methods", "merchant", map[string]any{"currency": "USD", "amount": "10.00"})
	check(http.MethodPost, "/api/v1/payments/saved-methods", "alice", map[string]any{"payment_method_data": card("4242424242424242")})
	check(http.MethodGet, "/api/v1/payments/saved-methods", "alice", nil)
}
