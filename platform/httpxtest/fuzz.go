package httpxtest

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/httpx"
)

// FuzzQuery fuzzes a handler's query-string parser: for any raw query (seeded with
// seeds), parse returns nil or a 400 validation error naming at least one field (never
// another status, never a panic), and the same answer twice. `go test` runs the seeds;
// `make fuzz` runs the target for longer.
func FuzzQuery(f *testing.F, seeds []string, parse func(c *gin.Context) error) {
	f.Helper()
	gin.SetMode(gin.TestMode)
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		first := parse(QueryContext(raw))
		if first == nil {
			return
		}
		e, ok := apperr.As(first)
		if !ok || httpx.StatusOf(first) != http.StatusBadRequest || len(e.Fields) == 0 {
			t.Fatalf("?%s: %v (status %d), want a 400 naming the bad fields", raw, first, httpx.StatusOf(first))
		}
		if again := parse(QueryContext(raw)); again == nil || again.Error() != first.Error() {
			t.Fatalf("?%s: %v, then %v", raw, first, again)
		}
	})
}

// QueryContext is a gin context for GET /?raw, for calling a parser directly.
func QueryContext(raw string) *gin.Context {
	c, _ := gin.CreateTestContext(httptest.NewRecorder())
	c.Request = &http.Request{Method: http.MethodGet, URL: &url.URL{Path: "/", RawQuery: raw}, Header: http.Header{}}
	return c
}
