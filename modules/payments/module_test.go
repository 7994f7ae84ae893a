package payments_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/gocommerce/commerce/modules/payments"
	"github.com/gocommerce/commerce/platform/openapi"
	"github.com/gocommerce/commerce/platform/testdb"
)

var ginParam = regexp.MustCompile(`:([a-z_]+)`)

// TestOpenAPIFragment checks that the fragment is valid, that every route the module
// registers is documented, and that real answers match their documented schemas.
func TestOpenAPIFragment(t *testing.T) {
	m := payments.NewModule(nil, nil)
	if m.Name() != "payments" || m.Migrations().Module != "payments" {
		t.Fatalf("module %q / %q", m.Name(), m.Migrations().Module)
	}
	doc, err := openapi.Build([]openapi.Fragment{m.OpenAPI()})
	if err != nil {
		t.Fatal(err)
	}
	s := newStack(t, testdb.Primary(), stackOptions{})
	n := 0
	for _, r := range s.srv.Engine.Routes() {
		if !strings.HasPrefix(r.Path, "/api/v1/payments") && !strings.HasPrefix(r.Path, "/api/v2/webhooks") {
			continue
		}
		n++
		item := doc.Paths.Find(ginParam.ReplaceAllString(r.Path, "{$1}"))
		if item == nil || item.GetOperation(r.Method) == nil {
			t.Errorf("%s %s not documented", r.Method, r.Path)
		}
	}
	if n != 12 {
		t.Errorf("%d payment routes", n)
	}

	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	check := func(method, path, cred string, body any) {
		t.Helper()
		resp := s.do(method, path, cred, body)
		req := httptest.NewRequest(method, path, nil)
		route, params, err := router.FindRoute(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, ExcludeRequestBody: true}}
		out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: resp.Code, Header: resp.Header,
			Body: nopCloser{strings.NewReader(resp.Raw)}}
		if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
			t.Errorf("%s %s → %d does not match the document: %v", method, path, resp.Code, err)
		}
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

type nopCloser struct{ *strings.Reader }

func (nopCloser) Close() error { return nil }
