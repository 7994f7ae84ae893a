package openapidoc

import (
	"testing"

	"github.com/gocommerce/commerce/platform/openapi"
)

func TestBuildBase(t *testing.T) {
	t.Parallel()
	doc, err := Build(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/health", "/ready", "/metrics"} {
		if doc.Paths.Value(p) == nil {
			t.Fatalf("%s not documented", p)
		}
	}
}

func TestBuildRejectsDuplicatePath(t *testing.T) {
	t.Parallel()
	frag := []byte("paths:\n  /health:\n    get:\n      responses:\n        '200': {description: ok}\n")
	if _, err := Build([]openapi.Fragment{{Module: "x", Data: frag}}); err == nil {
		t.Fatal("duplicate path accepted")
	}
}

func TestBuildRejectsDanglingRef(t *testing.T) {
	t.Parallel()
	frag := []byte("paths:\n  /x:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: {$ref: '#/components/schemas/Nope'}\n")
	if _, err := Build([]openapi.Fragment{{Module: "x", Data: frag}}); err == nil {
		t.Fatal("dangling reference accepted")
	}
}

func TestFragmentMayReferenceBaseComponents(t *testing.T) {
	t.Parallel()
	frag := []byte("paths:\n  /x:\n    get:\n      responses:\n        '404': {$ref: '#/components/responses/Error'}\n")
	doc, err := Build([]openapi.Fragment{{Module: "x", Data: frag}})
	if err != nil {
		t.Fatal(err)
	}
	if doc.Paths.Value("/x") == nil {
		t.Fatal("fragment path missing")
	}
}
