// Package openapi keeps one OpenAPI 3 document true for the whole project: the platform
// contributes base.yaml (health, metrics, shared schemas) and every module contributes a
// fragment (its paths and schemas) next to its HTTP adapter. openapidoc merges and
// validates them; the merged document is generated into the binary (make generate,
// cmd/commerce/openapi.json, checked current by a test), served at GET
// /api/v1/openapi.json and rendered at GET /docs; an end-to-end test checks that every
// route is documented, every documented operation exists, and real responses match
// their schemas.
package openapi

import (
	_ "embed"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/platform/httpx"
)

//go:embed base.yaml
var base []byte

// Base is the platform's part of the document (base.yaml).
func Base() []byte { return base }

// Fragment is a module's part of the document (YAML or JSON with paths and components).
type Fragment struct {
	Module string
	Data   []byte
}

// Documented is implemented by modules that publish a fragment.
type Documented interface {
	OpenAPI() Fragment
}

// Document is the merged document as served: JSON, generated at build time
// (openapidoc.Build, then encoding/json), so that the server neither parses YAML nor
// links the validator (the idle RSS of `make bench`, decisions 0121 and 0228).
type Document []byte

// Module serves the document and the docs page.
type Module struct{ doc Document }

// NewModule serves doc.
func NewModule(doc Document) *Module { return &Module{doc: doc} }

// Name names the module.
func (m *Module) Name() string { return "openapi" }

// RegisterRoutes adds GET /api/v1/openapi.json and the docs page (docs.go).
func (m *Module) RegisterRoutes(r *httpx.Routes) {
	r.API.GET("/openapi.json", func(c *gin.Context) {
		c.Data(http.StatusOK, "application/json", m.doc)
	})
	registerDocs(r)
}
