package catalog_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gocommerce/commerce/modules/catalog"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/openapi"
	"github.com/gocommerce/commerce/platform/openapi/openapidoc"
)

// TestOpenAPIFragment checks that the fragment merges into a valid document and
// documents every catalog route.
func TestOpenAPIFragment(t *testing.T) {
	t.Parallel()
	doc, err := openapidoc.Build([]openapi.Fragment{catalog.NewModule(nil).OpenAPI()})
	if err != nil {
		t.Fatal(err)
	}
	for path, methods := range map[string][]string{
		"/api/v1/products":                               {"GET", "POST"},
		"/api/v1/products/{id}":                          {"GET", "PUT", "PATCH", "DELETE"},
		"/api/v1/products/{id}/variants":                 {"GET", "POST"},
		"/api/v1/products/{id}/variants/{variant_id}":    {"GET", "PUT", "PATCH", "DELETE"},
		"/api/v1/products/{id}/images":                   {"GET", "POST"},
		"/api/v1/products/{id}/images/{image_id}":        {"PUT", "DELETE"},
		"/api/v1/collections":                            {"GET", "POST"},
		"/api/v1/collections/{id}":                       {"GET", "PATCH", "DELETE"},
		"/api/v1/collections/{id}/products":              {"POST"},
		"/api/v1/collections/{id}/products/{product_id}": {"DELETE"},
		"/uploads/{filepath}":                            {"GET"},
	} {
		item := doc.Paths.Find(path)
		if item == nil {
			t.Errorf("%s not documented", path)
			continue
		}
		for _, m := range methods {
			if item.GetOperation(m) == nil {
				t.Errorf("%s %s not documented", m, path)
			}
		}
	}
	if m := catalog.NewModule(nil); m.Name() != "catalog" || m.Migrations().Module != "catalog" {
		t.Errorf("module %q / %q", m.Name(), m.Migrations().Module)
	}
}

func TestConfiguration(t *testing.T) {
	t.Parallel()
	cfg := config.Default()
	cfg.DataDir = t.TempDir()
	cfg.HTTP.PublicURL = "https://shop.example/"
	st, err := catalog.NewImageStorage(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	url, err := st.Put(context.Background(), "k.png", "image/png", []byte("x"))
	if err != nil || url != "https://shop.example/uploads/k.png" {
		t.Fatalf("url %q %v", url, err)
	}
	if _, err := os.Stat(filepath.Join(cfg.DataDir, "uploads", "k.png")); err != nil {
		t.Fatalf("default directory: %v", err)
	}
	hs := catalog.NewHTTPSettings(&cfg)
	if hs.UploadsPath != "/uploads" || hs.UploadsDir != filepath.Join(cfg.DataDir, "uploads") || hs.MaxImageBytes != 10<<20 {
		t.Fatalf("http settings %+v", hs)
	}
	cdn := cfg
	cdn.Uploads.PublicURL = "https://cdn.example/img"
	cdn.Uploads.Dir = filepath.Join(t.TempDir(), "files")
	if hs := catalog.NewHTTPSettings(&cdn); hs.UploadsPath != "" {
		t.Fatalf("a CDN URL must not be served locally: %+v", hs)
	}
	if st, err := catalog.NewImageStorage(&cdn); err != nil {
		t.Fatal(err)
	} else if u, _ := st.Put(context.Background(), "a.png", "image/png", nil); u != "https://cdn.example/img/a.png" {
		t.Fatalf("cdn url %s", u)
	}
	for d, want := range map[string]string{"s3": "uploads.s3.", "ftp": "uploads.driver"} {
		bad := cfg
		bad.Uploads.Driver = d
		if _, err := catalog.NewImageStorage(&bad); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("driver %s: %v", d, err)
		}
		if hs := catalog.NewHTTPSettings(&bad); hs.UploadsPath != "" {
			t.Errorf("driver %s serves local files", d)
		}
	}
	s3cfg := cfg
	s3cfg.Uploads.Driver = "s3"
	s3cfg.Uploads.S3 = config.S3{Endpoint: "http://127.0.0.1:9000", Bucket: "images", Region: "us-east-1", AccessKeyID: "k", SecretAccessKey: "s"}
	if _, err := catalog.NewImageStorage(&s3cfg); err != nil {
		t.Errorf("configured s3: %v", err)
	}
}
