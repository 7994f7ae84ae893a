package catalog_test

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gocommerce/commerce/platform/httpxtest"
)

// webp1x1 is a valid 1x1 lossless WebP (the classic feature-detection image).
var webp1x1, _ = base64.StdEncoding.DecodeString("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==")

func pngBytes(t *testing.T, w, h int, noisy bool) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := 0; x < w; x++ {
		for y := 0; y < h; y++ {
			c := color.RGBA{R: uint8(x), G: uint8(y), B: 128, A: 255}
			if noisy {
				c = color.RGBA{R: uint8(x*31 + y*17), G: uint8(x * y), B: uint8(x ^ y*7), A: 255}
			}
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func jpegBytes(t *testing.T, w, h int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, image.NewGray(image.Rect(0, 0, w, h)), nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func gifBytes(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := gif.Encode(&buf, image.NewPaletted(image.Rect(0, 0, 2, 2), []color.Color{color.Black, color.White}), nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestImages(t *testing.T) {
	forEngine(t, func(t *testing.T, s *stack) {
		p := s.mustCreate(map[string]any{"title": "Vase", "price": "30.00", "currency": "USD"})
		pid := p["id"].(string)
		pngData, jpgData := pngBytes(t, 3, 2, false), jpegBytes(t, 5, 4)

		// Content decides the type: a JPEG named .png is a JPEG.
		r := s.upload("writer", pid, "photo.png", jpgData, map[string]string{"alt_text": "Front"})
		img1 := r.Data()
		if r.Code != 201 || img1["file_type"] != "image/jpeg" || img1["width"] != float64(5) || img1["height"] != float64(4) ||
			img1["file_size"] != float64(len(jpgData)) || img1["position"] != float64(1) || img1["alt_text"] != "Front" || img1["product_id"] != pid {
			t.Fatalf("jpeg upload: %d %s", r.Code, r.Raw)
		}
		want := "alt_text,created_at,file_size,file_type,height,id,position,product_id,url,width"
		if httpxtest.Keys(img1) != want {
			t.Fatalf("image fields %s", httpxtest.Keys(img1))
		}
		url1 := img1["url"].(string)
		if !strings.HasPrefix(url1, "/uploads/") || !strings.HasSuffix(url1, ".jpg") {
			t.Fatalf("url %s", url1)
		}
		r = s.upload("writer", pid, "x.bin", pngData, nil)
		img2 := r.Data()
		if r.Code != 201 || img2["file_type"] != "image/png" || img2["width"] != float64(3) || img2["height"] != float64(2) || img2["position"] != float64(2) {
			t.Fatalf("png upload: %d %s", r.Code, r.Raw)
		}
		// Insert at position 1: the others move down.
		r = s.upload("writer", pid, "tiny.webp", webp1x1, map[string]string{"position": "1"})
		img3 := r.Data()
		if r.Code != 201 || img3["file_type"] != "image/webp" || img3["width"] != float64(1) || img3["height"] != float64(1) || img3["position"] != float64(1) {
			t.Fatalf("webp upload: %d %s", r.Code, r.Raw)
		}
		order := func() []string {
			r := s.Do(http.MethodGet, "/api/v1/products/"+pid+"/images", nil, "reader")
			var out []string
			for i, it := range r.List() {
				if it["position"] != float64(i+1) {
					t.Fatalf("positions not contiguous: %s", r.Raw)
				}
				out = append(out, it["id"].(string))
			}
			return out
		}
		id1, id2, id3 := img1["id"].(string), img2["id"].(string), img3["id"].(string)
		if got := order(); !slices.Equal(got, []string{id3, id1, id2}) {
			t.Fatalf("order after insert %v", got)
		}
		// The summary shows the first image.
		if r := s.Do(http.MethodGet, "/api/v1/products?ids="+pid, nil, "reader"); r.List()[0]["image_url"] != img3["url"] {
			t.Fatalf("summary image_url: %s", r.Raw)
		}
		// Move with PUT; past the end means last.
		r = s.Do(http.MethodPut, "/api/v1/products/"+pid+"/images/"+id3, map[string]any{"position": 99, "alt_text": "Tiny"}, "writer")
		if r.Code != 200 || r.Data()["position"] != float64(3) || r.Data()["alt_text"] != "Tiny" {
			t.Fatalf("move last: %d %s", r.Code, r.Raw)
		}
		if got := order(); !slices.Equal(got, []string{id1, id2, id3}) {
			t.Fatalf("order after move %v", got)
		}
		if r := s.Do(http.MethodPut, "/api/v1/products/"+pid+"/images/"+id2, map[string]any{"position": 1}, "writer"); r.Code != 200 {
			t.Fatalf("move first: %d %s", r.Code, r.Raw)
		}
		if got := order(); !slices.Equal(got, []string{id2, id1, id3}) {
			t.Fatalf("order after move up %v", got)
		}
		if r := s.Do(http.MethodPut, "/api/v1/products/"+pid+"/images/"+id2, map[string]any{"position": 0}, "writer"); r.Code != 400 || r.Fields()["position"] == nil {
			t.Fatalf("position 0: %d %s", r.Code, r.Raw)
		}
		// The file is served publicly with its type.
		key := strings.TrimPrefix(url1, "/uploads/")
		req := httptest.NewRequest(http.MethodGet, "http://example.test"+url1, nil)
		got := s.Send(req, "")
		if got.Code != 200 || got.Raw != string(jpgData) || got.Header.Get("Content-Type") != "image/jpeg" ||
			!strings.Contains(got.Header.Get("Cache-Control"), "immutable") {
			t.Fatalf("serve: %d %v", got.Code, got.Header)
		}
		for _, bad := range []string{"/uploads/nope.jpg", "/uploads/..%2Fsecret", "/uploads/.hidden"} {
			if r := s.Send(httptest.NewRequest(http.MethodGet, "http://example.test"+bad, nil), ""); r.Code != 404 {
				t.Fatalf("%s: %d", bad, r.Code)
			}
		}
		// Delete removes the record and the file; later images move up.
		if r := s.Do(http.MethodDelete, "/api/v1/products/"+pid+"/images/"+id1, nil, "writer"); r.Code != 204 {
			t.Fatalf("delete image: %d %s", r.Code, r.Raw)
		}
		if _, err := os.Stat(filepath.Join(s.uploads, key)); !os.IsNotExist(err) {
			t.Fatalf("file still on disk: %v", err)
		}
		if got := order(); !slices.Equal(got, []string{id2, id3}) {
			t.Fatalf("order after delete %v", got)
		}
		if r := s.Do(http.MethodDelete, "/api/v1/products/"+pid+"/images/"+id1, nil, "writer"); r.Code != 404 || r.Err()["code"] != "IMAGE_NOT_FOUND" {
			t.Fatalf("delete twice: %d %s", r.Code, r.Raw)
		}

		// Refusals: wrong content, missing file, unknown product, wrong scope.
		for name, data := range map[string][]byte{"gif named .png": gifBytes(t), "text named .jpg": []byte("hello, not an image at all"),
			"truncated png": pngData[:30], "webp header only": []byte("RIFF\x10\x00\x00\x00WEBPVP8 garbage")} {
			r := s.upload("writer", pid, "a.jpg", data, nil)
			if r.Code != 400 || r.Err()["code"] != "INVALID_IMAGE_TYPE" {
				t.Errorf("%s: %d %s", name, r.Code, r.Raw)
			}
		}
		if r := s.upload("writer", pid, "", nil, map[string]string{"alt_text": "x"}); r.Code != 400 || r.Fields()["file"] == nil {
			t.Fatalf("no file: %d %s", r.Code, r.Raw)
		}
		if r := s.upload("writer", pid, "a.png", pngData, map[string]string{"position": "first"}); r.Code != 400 || r.Fields()["position"] == nil {
			t.Fatalf("bad position: %d %s", r.Code, r.Raw)
		}
		if r := s.upload("writer", "0190a7f0-0000-7000-8000-000000000000", "a.png", pngData, nil); r.Code != 404 || r.Err()["code"] != "PRODUCT_NOT_FOUND" {
			t.Fatalf("unknown product: %d %s", r.Code, r.Raw)
		}
		if r := s.upload("reader", pid, "a.png", pngData, nil); r.Code != 403 {
			t.Fatalf("reader uploads: %d", r.Code)
		}
		if r := s.Do(http.MethodPost, "/api/v1/products/"+pid+"/images", map[string]any{"file": "x"}, "writer"); r.Code != 400 {
			t.Fatalf("JSON upload: %d %s", r.Code, r.Raw)
		}
		entries, _ := os.ReadDir(s.uploads)
		if len(entries) != 2 {
			t.Fatalf("files on disk after refusals: %d", len(entries))
		}
		// Deleting the product deletes its files.
		if r := s.Do(http.MethodDelete, "/api/v1/products/"+pid, nil, "writer"); r.Code != 204 {
			t.Fatalf("delete product: %d", r.Code)
		}
		if entries, _ := os.ReadDir(s.uploads); len(entries) != 0 {
			t.Fatalf("files left after product deletion: %d", len(entries))
		}
	})
}

func TestImageTooLarge(t *testing.T) {
	forEngine(t, func(t *testing.T, s *stack) {
		p := s.mustCreate(map[string]any{"title": "Poster", "price": "5.00", "currency": "USD"})
		big := pngBytes(t, 160, 160, true)
		if len(big) <= 4096 {
			t.Fatalf("fixture too small: %d", len(big))
		}
		r := s.upload("writer", p["id"].(string), "big.png", big, nil)
		if r.Code != 400 || r.Err()["code"] != "IMAGE_TOO_LARGE" || r.Err()["status"] != float64(400) {
			t.Fatalf("too large: %d %s", r.Code, r.Raw)
		}
		// A body beyond the route's limit (the image limit plus 64 KiB for the form) is
		// refused by the platform before the handler reads it, with the spec's code.
		huge := bytes.Repeat([]byte{0x89}, 4096+70<<10)
		if r := s.upload("writer", p["id"].(string), "huge.png", huge, nil); r.Code != 400 || r.Err()["code"] != "IMAGE_TOO_LARGE" {
			t.Fatalf("huge body: %d %s", r.Code, r.Raw)
		}
		small := pngBytes(t, 4, 4, false)
		if r := s.upload("writer", p["id"].(string), "small.png", small, nil); r.Code != 201 {
			t.Fatalf("small: %d %s", r.Code, r.Raw)
		}
	}, stackOptions{maxImageBytes: 4096})
}
