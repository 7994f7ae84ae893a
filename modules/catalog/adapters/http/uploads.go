package http

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/modules/catalog/adapters/localdisk"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/httpx"
)

// serveUpload answers GET {uploads.public_url}/{file}: a stored image, public (images
// are shown to anyone a product page is shown to) and cacheable forever (every upload
// gets a new name).
func (h *Handler) serveUpload(c *gin.Context) {
	name := strings.TrimPrefix(c.Param("filepath"), "/")
	notFound := apperr.NotFoundf("Not found: %s", c.Request.URL.Path)
	if !localdisk.ValidKey(name) {
		httpx.Error(c, notFound)
		return
	}
	path := filepath.Join(h.settings.UploadsDir, name)
	f, err := os.Open(path) // #nosec G304 -- name is a validated flat file name inside the uploads directory
	if err != nil {
		httpx.Error(c, notFound)
		return
	}
	defer func() { _ = f.Close() }()
	st, err := f.Stat()
	if err != nil || st.IsDir() {
		httpx.Error(c, notFound)
		return
	}
	c.Header("Cache-Control", "public, max-age=31536000, immutable")
	c.Header("X-Content-Type-Options", "nosniff")
	http.ServeContent(c.Writer, c.Request, name, st.ModTime(), f)
}
