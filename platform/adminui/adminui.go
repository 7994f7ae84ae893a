// Package adminui serves the admin dashboard page at /admin (docs/decisions/0176): a
// static page, its script and styles, and the uPlot charting library, all embedded in
// the binary. The page signs staff in through POST /api/v1/admin/auth/login and reads
// the statistics, products, dunning and webhooks endpoints with the staff token, so it
// adds no endpoint of its own and sees only what the token may read.
package adminui

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"net/http"
	"strings"
	"sync"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/httpx"
)

//go:embed assets
var assets embed.FS

// Paths of the page and its assets.
const (
	PagePath   = "/admin"
	AssetsPath = "/admin/assets/"
)

// csp lets the page load only what this server serves and send requests only to it;
// uPlot sizes its canvas with inline styles.
const csp = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
	"connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// asset is an embedded file with its content type and version.
type asset struct {
	body        []byte
	contentType string
	version     string
}

// files are the assets by name (the README is not served), read and hashed on the first
// request for the page or an asset, not at start: an idle server that never serves the
// page does not keep copies of them (docs/performance.md, idle RSS).
var files = sync.OnceValue(func() map[string]asset {
	types := map[string]string{".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8", ".LICENSE": "text/plain; charset=utf-8"}
	out := map[string]asset{}
	entries, err := assets.ReadDir("assets")
	if err != nil {
		panic(err)
	}
	for _, e := range entries {
		for ext, ct := range types {
			if strings.HasSuffix(e.Name(), ext) {
				body, err := assets.ReadFile("assets/" + e.Name())
				if err != nil {
					panic(err)
				}
				sum := sha256.Sum256(body)
				out[e.Name()] = asset{body: body, contentType: ct, version: hex.EncodeToString(sum[:6])}
			}
		}
	}
	return out
})

// page is index.html with each asset URL versioned by its content, so assets can be
// cached for a year and a new binary's page still loads its own. Built on first use.
var page = sync.OnceValue(func() []byte {
	raw, err := assets.ReadFile("assets/index.html")
	if err != nil {
		panic(err)
	}
	html := string(raw)
	for name, a := range files() {
		html = strings.ReplaceAll(html, `"`+AssetsPath+name+`"`, `"`+AssetsPath+name+"?v="+a.version+`"`)
	}
	return []byte(html)
})

// Module mounts the page.
type Module struct{}

// NewModule builds the module.
func NewModule() *Module { return &Module{} }

// Name names the module.
func (*Module) Name() string { return "adminui" }

// RegisterRoutes mounts GET /admin and GET /admin/assets/{file}.
func (*Module) RegisterRoutes(r *httpx.Routes) {
	r.Root.GET(PagePath, func(c *gin.Context) {
		c.Header("Content-Security-Policy", csp)
		c.Header("Cache-Control", "no-cache")
		c.Header("X-Frame-Options", "DENY")
		c.Data(http.StatusOK, "text/html; charset=utf-8", page())
	})
	r.Root.GET(AssetsPath+":file", func(c *gin.Context) {
		a, ok := files()[c.Param("file")]
		if !ok {
			httpx.Error(c, apperr.NotFoundf("Not found: %s %s", c.Request.Method, c.Request.URL.Path))
			return
		}
		c.Header("Cache-Control", "public, max-age=31536000, immutable")
		c.Header("X-Content-Type-Options", "nosniff")
		c.Data(http.StatusOK, a.contentType, a.body)
	})
}
