package httpx_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/platform/httpx"
)

// Route names a matched request by its template and any other as "unmatched".
func TestRoute(t *testing.T) {
	t.Parallel()
	r := gin.New()
	var got []string
	r.Use(func(c *gin.Context) { c.Next(); got = append(got, httpx.Route(c)) })
	r.GET("/items/:id", func(c *gin.Context) { c.Status(http.StatusNoContent) })
	for _, p := range []string{"/items/7", "/nope"} {
		r.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, p, nil))
	}
	if fmt.Sprint(got) != "[/items/:id unmatched]" {
		t.Fatalf("routes = %v", got)
	}
}
