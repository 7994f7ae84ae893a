// Package openapidoc merges the platform's base document and the modules' fragments
// into one OpenAPI 3 document and validates it. The tests and the generator of
// cmd/commerce/openapi.json use it; the server serves the generated JSON and does not
// link it.
package openapidoc

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oasdiff/yaml"

	"github.com/gocommerce/commerce/platform/openapi"
)

// Build merges the base document with the fragments and validates the result.
// Fragments are merged as plain documents first, so a fragment may reference the base's
// components (e.g. #/components/responses/Error) and other fragments' schemas.
func Build(fragments []openapi.Fragment) (*openapi3.T, error) {
	doc, err := decode(openapi.Base())
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

// JSON is the document as the server serves it.
func JSON(fragments []openapi.Fragment) ([]byte, error) {
	doc, err := Build(fragments)
	if err != nil {
		return nil, err
	}
	return json.Marshal(doc)
}
