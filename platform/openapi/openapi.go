// Package openapi keeps one OpenAPI 3 document true for the whole project: the platform
// contributes base.yaml (health, metrics, shared schemas) and every module contributes a
// fragment (its paths and schemas) next to its HTTP adapter. The fragments are merged and
// validated at start-up, served at GET /api/v1/openapi.json, rendered at GET /docs, and
// an end-to-end test checks that every route is documented, every documented operation
// exists, and real responses match their schemas.
package openapi

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/platform/httpx"
)

//go:embed base.yaml
var base []byte

// Fragment is a module's part of the document (YAML or JSON with paths and components).
type Fragment struct {
	Module string
	Data   []byte
}

// Documented is implemented by modules that publish a fragment.
type Documented interface {
	OpenAPI() Fragment
}

// Build merges the base document with the fragments and validates the result.
func Build(fragments []Fragment) (*openapi3.T, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(base)
	if err != nil {
		return nil, fmt.Errorf("openapi: base: %w", err)
	}
	sort.Slice(fragments, func(i, j int) bool { return fragments[i].Module < fragments[j].Module })
	for _, f := range fragments {
		part, err := openapi3.NewLoader().LoadFromData(withHeader(f.Data))
		if err != nil {
			return nil, fmt.Errorf("openapi: %s: %w", f.Module, err)
		}
		if part.Paths != nil {
			for path, item := range part.Paths.Map() {
				if doc.Paths.Value(path) != nil {
					return nil, fmt.Errorf("openapi: %s: path %s is documented twice", f.Module, path)
				}
				doc.Paths.Set(path, item)
			}
		}
		for name, s := range part.Components.Schemas {
			if _, dup := doc.Components.Schemas[name]; dup {
				return nil, fmt.Errorf("openapi: %s: schema %s is declared twice", f.Module, name)
			}
			doc.Components.Schemas[name] = s
		}
		for name, r := range part.Components.Responses {
			if _, dup := doc.Components.Responses[name]; dup {
				return nil, fmt.Errorf("openapi: %s: response %s is declared twice", f.Module, name)
			}
			doc.Components.Responses[name] = r
		}
		doc.Tags = append(doc.Tags, part.Tags...)
	}
	// Re-load the merged document so that every $ref resolves against the whole.
	raw, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	merged, err := openapi3.NewLoader().LoadFromData(raw)
	if err != nil {
		return nil, fmt.Errorf("openapi: merged: %w", err)
	}
	if err := merged.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("openapi: invalid document: %w", err)
	}
	return merged, nil
}

// withHeader lets fragments omit the openapi/info header.
func withHeader(data []byte) []byte {
	return append([]byte("openapi: 3.0.3\ninfo: {title: fragment, version: '0'}\n"), data...)
}

// Module serves the document and the docs page.
type Module struct {
	doc  *openapi3.T
	json []byte
}

// NewModule merges the fragments of every documented module.
func NewModule(fragments []Fragment) (*Module, error) {
	doc, err := Build(fragments)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	return &Module{doc: doc, json: raw}, nil
}

// Name names the module.
func (m *Module) Name() string { return "openapi" }

// Document returns the merged document.
func (m *Module) Document() *openapi3.T { return m.doc }

// RegisterRoutes adds GET /api/v1/openapi.json and GET /docs.
func (m *Module) RegisterRoutes(r *httpx.Routes) {
	r.API.GET("/openapi.json", func(c *gin.Context) { c.Data(http.StatusOK, "application/json", m.json) })
	r.Root.GET("/docs", func(c *gin.Context) { c.Data(http.StatusOK, "text/html; charset=utf-8", docsPage) })
}

var docsPage = []byte(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Commerce API</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><redoc spec-url="/api/v1/openapi.json"></redoc>
<noscript>The API reference is at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</noscript>
<script src="https://cdn.redoc.ly/redoc/latest/bundles/redoc.standalone.js"></script>
</body></html>`)
