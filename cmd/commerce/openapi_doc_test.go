package main

import (
	"bytes"
	"os"
	"testing"

	"github.com/gocommerce/commerce/platform/openapi/openapidoc"
)

// TestOpenAPIDocumentIsCurrent: the document the binary serves (openapi.json, embedded)
// is the modules' fragments merged and validated now, byte for byte. UPDATE_OPENAPI=1
// writes it instead (make generate).
func TestOpenAPIDocumentIsCurrent(t *testing.T) {
	t.Parallel()
	doc, err := openapidoc.JSON(newFragments(bareModules()))
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("UPDATE_OPENAPI") == "1" {
		if err := os.WriteFile("openapi.json", doc, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(doc, servedOpenAPI) {
		t.Fatal("cmd/commerce/openapi.json is not the modules' document: run make generate")
	}
}
