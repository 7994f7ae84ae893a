package openapi

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

// The vendored bundle is the one redoc/README.md records (npm redoc 2.5.4), unchanged.
func TestVendoredRedoc(t *testing.T) {
	t.Parallel()
	const want = "dcaf76612bc4a3fbcc923a8966dee2f6146a5f32e5ce1b6f02dd60cbbf89500b"
	sum := sha256.Sum256(RedocJS())
	if got := hex.EncodeToString(sum[:]); got != want {
		t.Fatalf("redoc/redoc.standalone.js sha256 = %s, redoc/README.md records %s", got, want)
	}
	if !bytes.Contains(redocNotices, []byte(`Version: "2.5.4"`)) || !bytes.Contains(redocLicense, []byte("MIT License")) {
		t.Fatal("redoc licence files do not match the vendored version")
	}
	if !strings.Contains(string(docsPage()), RedocPath+"?v="+want[:12]) {
		t.Fatalf("the docs page does not load the bundle by its content version:\n%s", docsPage())
	}
}
