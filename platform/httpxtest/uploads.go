package httpxtest

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/platform/httpx"
)

// UploadRoutes registers, for the tests of what counts as an upload (the body rules,
// the rate limiter's upload class), two upload routes outside /api/v1/uploads and
// their neighbours, each answered by h:
//
//   - POST /api/v1/things/:id/files: a multipart/form-data upload (1 MiB)
//   - POST /api/v1/things/:id/pictures: a multipart/mixed body (1 MiB)
//   - GET /api/v1/things/:id/files and POST /api/v1/things/:id: not uploads
func UploadRoutes(r *httpx.Routes, h gin.HandlerFunc) {
	r.API.POST("/things/:id/files", h)
	r.API.GET("/things/:id/files", h)
	r.API.POST("/things/:id/pictures", h)
	r.API.POST("/things/:id", h)
	r.AllowMultipart(http.MethodPost, "/api/v1/things/:id/files", 1<<20)
	r.AllowBody(http.MethodPost, "/api/v1/things/:id/pictures", "multipart/mixed", httpx.BodyRule{Limit: 1 << 20})
}
