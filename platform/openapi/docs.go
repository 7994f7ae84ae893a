package openapi

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"net/http"
	"sync"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/platform/httpx"
)

// The /docs page renders the document with Redoc, served from the binary so the page
// works without internet (decision 0107); redoc/README.md records the vendored version.
var (
	//go:embed redoc/redoc.standalone.js
	redocJS []byte
	//go:embed redoc/LICENSE
	redocLicense []byte
	//go:embed redoc/redoc.standalone.js.LICENSE.txt
	redocNotices []byte
)

// Paths of the docs page and its assets.
const (
	DocsPath        = "/docs"
	RedocPath       = "/docs/redoc.standalone.js"
	RedocNoticePath = "/docs/redoc.standalone.js.LICENSE.txt" // the bundle's first line points here
)

// RedocJS returns the embedded Redoc bundle.
func RedocJS() []byte { return redocJS }

// redocVersion changes the script URL whenever the bundle changes, so it can be cached
// for a year. It is computed on the first request for the docs page, not at start:
// hashing the 1.1 MB bundle reads every page of it, which then stay mapped in the
// server's memory (idle RSS, docs/performance.md).
var redocVersion = sync.OnceValue(func() string {
	sum := sha256.Sum256(redocJS)
	return hex.EncodeToString(sum[:6])
})

// docsCSP lets the page load only what this server serves: a browser refuses anything
// else (e.g. the bundle's link to a logo on Redoc's CDN), so the page never depends on
// another host. Redoc injects its styles and runs its search index in a blob: worker.
const docsCSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'self'"

// docsPage is the page at DocsPath, built on first use (it names the bundle's version).
var docsPage = sync.OnceValue(func() []byte {
	return []byte(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Commerce API</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><redoc spec-url="/api/v1/openapi.json"></redoc>
<noscript>The API reference is at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</noscript>
<script src="` + RedocPath + `?v=` + redocVersion() + `"></script>
</body></html>`)
})

func registerDocs(r *httpx.Routes) {
	r.Root.GET(DocsPath, func(c *gin.Context) {
		c.Header("Content-Security-Policy", docsCSP)
		c.Header("Cache-Control", "no-cache")
		c.Data(http.StatusOK, "text/html; charset=utf-8", docsPage())
	})
	r.Root.GET(RedocPath, func(c *gin.Context) {
		c.Header("Cache-Control", "public, max-age=31536000, immutable")
		c.Header("X-Content-Type-Options", "nosniff")
		c.Data(http.StatusOK, "text/javascript; charset=utf-8", redocJS)
	})
	notices := append(append(append([]byte{}, redocLicense...), "\n\n"...), redocNotices...)
	r.Root.GET(RedocNoticePath, func(c *gin.Context) {
		c.Header("Cache-Control", "public, max-age=86400")
		c.Data(http.StatusOK, "text/plain; charset=utf-8", notices)
	})
}
