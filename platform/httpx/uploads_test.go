package httpx_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/platform/httpx"
)

// uploadsModule registers upload routes (multipart bodies) and ordinary ones.
type uploadsModule struct{}

func (uploadsModule) RegisterRoutes(r *httpx.Routes) {
	ok := func(c *gin.Context) { c.Status(http.StatusNoContent) }
	r.API.POST("/products/:id/images", ok)
	r.API.GET("/products/:id/images", ok)
	r.API.POST("/products/:id", ok)
	r.API.POST("/forms", ok)
	r.API.POST("/mixed", ok)
	r.AllowMultipart(http.MethodPost, "/api/v1/products/:id/images", 1<<20)
	r.AllowBody(http.MethodPost, "/api/v1/mixed", "multipart/mixed", httpx.BodyRule{Limit: 1 << 20})
	r.AllowForm(http.MethodPost, "/api/v1/forms", 1<<10)
}

// The rate-limit hook sees which requests are routed to an upload route.
func TestIsUpload(t *testing.T) {
	seen := func(c *gin.Context) {
		if httpx.IsUpload(c) {
			c.Header("X-Upload", "yes")
		}
	}
	s, _ := newServer(t, serverOpts{limiter: seen, module: uploadsModule{}})
	for req, want := range map[string]bool{
		"POST /api/v1/products/p1/images": true,
		"POST /api/v1/products/p2/images": true,
		"POST /api/v1/mixed":              true,
		"GET /api/v1/products/p1/images":  false,
		"POST /api/v1/products/p1":        false,
		"POST /api/v1/forms":              false,
		"POST /api/v1/nope":               false,
	} {
		method, path, _ := strings.Cut(req, " ")
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest(method, path, nil))
		if got := w.Header().Get("X-Upload") == "yes"; got != want {
			t.Errorf("%s: upload %v, want %v", req, got, want)
		}
	}
}
