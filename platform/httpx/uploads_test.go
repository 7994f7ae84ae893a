package httpx_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/httpxtest"
)

// uploadsModule registers upload routes (multipart bodies) and ordinary ones.
type uploadsModule struct{}

func (uploadsModule) RegisterRoutes(r *httpx.Routes) {
	ok := func(c *gin.Context) { c.Status(http.StatusNoContent) }
	httpxtest.UploadRoutes(r, ok)
	r.API.POST("/forms", ok)
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
		"POST /api/v1/things/t1/files":    true,
		"POST /api/v1/things/t2/files":    true,
		"POST /api/v1/things/t1/pictures": true,
		"GET /api/v1/things/t1/files":     false,
		"POST /api/v1/things/t1":          false,
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
