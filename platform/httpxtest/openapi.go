package httpxtest

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/openapi"
	"github.com/gocommerce/commerce/platform/openapi/openapidoc"
)

// Validator checks responses against the OpenAPI document built from one module's
// fragment (merged the way platform/openapi serves it). The document is built once,
// on first use, so a package-level Validator serves every test of a package.
type Validator struct {
	fragments      func() []openapi.Fragment
	undocumentedOK []int

	once   sync.Once
	router routers.Router
	err    error
}

// NewValidator returns a Validator for the fragment; an answer to an undocumented
// route is an error unless its status is one of undocumentedOK.
func NewValidator(fragment func() openapi.Fragment, undocumentedOK ...int) *Validator {
	return NewDocValidator(func() []openapi.Fragment { return []openapi.Fragment{fragment()} }, undocumentedOK...)
}

// NewDocValidator is NewValidator for the document of several fragments (the whole
// process's, say).
func NewDocValidator(fragments func() []openapi.Fragment, undocumentedOK ...int) *Validator {
	return &Validator{fragments: fragments, undocumentedOK: undocumentedOK}
}

func (v *Validator) load(t testing.TB) routers.Router {
	t.Helper()
	v.once.Do(func() {
		doc, err := openapidoc.Build(v.fragments())
		if err != nil {
			v.err = err
			return
		}
		doc.Servers = nil
		v.router, v.err = gorillamux.NewRouter(doc)
	})
	if v.err != nil {
		t.Fatal(v.err)
	}
	return v.router
}

// Wrap returns next with every answer checked: each response the tests provoke must
// be documented with its status and match its schema.
func (v *Validator) Wrap(t testing.TB, next http.Handler) http.Handler {
	t.Helper()
	router := v.load(t)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		for k, vals := range rec.Header() {
			w.Header()[k] = vals
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
		route, params, err := router.FindRoute(r)
		if err != nil {
			if !slices.Contains(v.undocumentedOK, rec.Code) {
				t.Errorf("%s %s answered %d but is not documented: %v", r.Method, r.URL.Path, rec.Code, err)
			}
			return
		}
		in := &openapi3filter.RequestValidationInput{Request: r, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, ExcludeRequestBody: true}}
		out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: rec.Code, Header: rec.Header(),
			Options: &openapi3filter.Options{IncludeResponseStatus: true}}
		out.SetBodyBytes(rec.Body.Bytes())
		if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
			t.Errorf("%s %s -> %d: response does not match the OpenAPI document: %v\nbody: %s", r.Method, r.URL.Path, rec.Code, err, rec.Body.String())
		}
	})
}

// DocumentedModule is a module with routes and an OpenAPI fragment.
type DocumentedModule interface {
	httpx.Module
	OpenAPI() openapi.Fragment
}

var ginParam = regexp.MustCompile(`:([A-Za-z_]+)`)

// AssertRoutesDocumented checks that m's fragment builds into a valid document and
// documents, with its method, every route m registers under one of the prefixes; it
// returns how many such routes there are.
func AssertRoutesDocumented(t testing.TB, m DocumentedModule, prefixes ...string) int {
	t.Helper()
	doc, err := openapidoc.Build([]openapi.Fragment{m.OpenAPI()})
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	n := 0
	for _, r := range NewServer(t, &cfg, nil, nil, m).Engine.Routes() {
		if !slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(r.Path, p) }) {
			continue
		}
		n++
		item := doc.Paths.Find(ginParam.ReplaceAllString(r.Path, "{$1}"))
		if item == nil || item.GetOperation(r.Method) == nil {
			t.Errorf("%s %s is not documented", r.Method, r.Path)
		}
	}
	return n
}

// ReadAsText lets every Validator read bodies of these content types (a page, a
// script, an image) as text; kin-openapi knows only JSON and forms. Call it from init.
func ReadAsText(contentTypes ...string) {
	for _, ct := range contentTypes {
		openapi3filter.RegisterBodyDecoder(ct, readAsText)
	}
}

func readAsText(body io.Reader, _ http.Header, _ *openapi3.SchemaRef, _ openapi3filter.EncodingFn) (any, error) {
	b, err := io.ReadAll(body)
	return string(b), err
}
