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
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/gin-gonic/gin"
	"github.com/oasdiff/yaml"

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
// Fragments are merged as plain documents first, so a fragment may reference the base's
// components (e.g. #/components/responses/Error) and other fragments' schemas.
func Build(fragments []Fragment) (*openapi3.T, error) {
	doc, err := decode(base)
	if err != nil {
		return nil, fmt.Errorf("openapi: base: %w", err)
	}
	sort.Slice(fragments, func(i, j int) bool { return fragments[i].Module < fragments[j].Module })
	for _, f := range fragments {
		part, err := decode(f.Data)
		if err != nil {
			return nil, fmt.Errorf("openapi: %s: %w", f.Module, err)
		}
		if err := mergeSection(doc, part, "paths", "path"); err != nil {
			return nil, fmt.Errorf("openapi: %s: %w", f.Module, err)
		}
		comps, _ := part["components"].(map[string]any)
		docComps := ensureMap(doc, "components")
		for kind := range comps {
			if err := mergeSection(docComps, comps, kind, kind); err != nil {
				return nil, fmt.Errorf("openapi: %s: components: %w", f.Module, err)
			}
		}
		if tags, ok := part["tags"].([]any); ok {
			existing, _ := doc["tags"].([]any)
			doc["tags"] = append(existing, tags...)
		}
	}
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

func decode(data []byte) (map[string]any, error) {
	raw, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	if m == nil {
		m = map[string]any{}
	}
	return m, nil
}

func ensureMap(m map[string]any, key string) map[string]any {
	v, ok := m[key].(map[string]any)
	if !ok {
		v = map[string]any{}
		m[key] = v
	}
	return v
}

// mergeSection copies part[key]'s entries into doc[key], refusing duplicates.
func mergeSection(doc, part map[string]any, key, what string) error {
	src, ok := part[key].(map[string]any)
	if !ok {
		return nil
	}
	dst := ensureMap(doc, key)
	for name, v := range src {
		if _, dup := dst[name]; dup {
			return fmt.Errorf("%s %s is declared twice", what, name)
		}
		dst[name] = v
	}
	return nil
}

// Module serves the document and the docs page. The document is merged, validated and
// encoded on its first request, not at start: a server that is never asked for it never
// parses YAML nor loads the validator (a few MB of heap and of mapped code, measured in
// the idle RSS of `make bench`, decision 0121). The tests build it for every
// change (TestOpenAPILint, the route-documentation tests), so an invalid fragment fails
// CI, not a request. It keeps only the JSON it serves.
type Module struct {
	fragments []Fragment
	once      sync.Once
	json      []byte
	err       error
}

// NewModule takes the fragments of every documented module.
func NewModule(fragments []Fragment) (*Module, error) {
	return &Module{fragments: fragments}, nil
}

// JSON returns the merged document, building it once.
func (m *Module) JSON() ([]byte, error) {
	m.once.Do(func() {
		doc, err := Build(m.fragments)
		if err != nil {
			m.err = err
			return
		}
		m.json, m.err = json.Marshal(doc)
		m.fragments = nil
	})
	return m.json, m.err
}

// Name names the module.
func (m *Module) Name() string { return "openapi" }

// RegisterRoutes adds GET /api/v1/openapi.json and the docs page (docs.go).
func (m *Module) RegisterRoutes(r *httpx.Routes) {
	r.API.GET("/openapi.json", func(c *gin.Context) {
		raw, err := m.JSON()
		if err != nil {
			httpx.Error(c, err)
			return
		}
		c.Data(http.StatusOK, "application/json", raw)
	})
	registerDocs(r)
}
