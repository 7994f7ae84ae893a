package main

import (
	"bytes"
	"image"
	"image/png"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/testdb"
)

// uploadImage posts a PNG to the product's images as multipart/form-data, through the
// real router, and checks the answer against the OpenAPI document.
func (ta *testApp) uploadImage(productID string, data []byte, auth ...string) response {
	ta.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("file", "p.png")
	if err != nil {
		ta.t.Fatal(err)
	}
	_, _ = fw.Write(data)
	_ = mw.Close()
	req := httptest.NewRequest(http.MethodPost, "http://example.test/api/v1/products/"+productID+"/images", bytes.NewReader(body.Bytes()))
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return ta.send(req, auth...)
}

// rateFigures are a response's four X-RateLimit-* headers.
type rateFigures struct {
	Limit, Remaining int
	Policy           string
	HasReset         bool
}

func figures(t *testing.T, r response) rateFigures {
	t.Helper()
	var f rateFigures
	var err error
	if f.Limit, err = strconv.Atoi(r.Header.Get("X-RateLimit-Limit")); err != nil {
		t.Fatalf("X-RateLimit-Limit %q (status %d)", r.Header.Get("X-RateLimit-Limit"), r.Status)
	}
	if f.Remaining, err = strconv.Atoi(r.Header.Get("X-RateLimit-Remaining")); err != nil {
		t.Fatalf("X-RateLimit-Remaining %q (status %d)", r.Header.Get("X-RateLimit-Remaining"), r.Status)
	}
	_, err = strconv.ParseInt(r.Header.Get("X-RateLimit-Reset"), 10, 64)
	f.HasReset = err == nil
	f.Policy = r.Header.Get("X-RateLimit-Policy")
	return f
}

// Issue 16 items 2 and 5, through the whole process with the default upload limit: the
// upload route gets the 10-per-minute file-upload limit (the 11th upload in a minute is
// 429 with the spec's body and headers) while the client's other requests are
// unaffected; /health carries the caller's figures and does not spend them. API keys
// get 200 requests per hour here (and a wide per-minute limit), so that the figures
// do not move with the clock while the test runs (one request refills every 18 s).
func TestUploadLimitAndProbeHeaders(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, testdb.Primary(), func(cfg *config.Config) {
		cfg.RateLimiting.Default = config.Limit{RequestsPerMinute: 6000, BurstCapacity: 1000, RequestsPerHour: 200}
	})
	auth := ta.adminAuth()
	created := ta.must(http.StatusCreated, "POST", "/api/v1/products", map[string]any{"title": "Poster", "price": "12.00", "currency": "EUR"}, auth...)
	id := created.JSON(t)["data"].(map[string]any)["id"].(string)
	var img bytes.Buffer
	if err := png.Encode(&img, image.NewGray(image.Rect(0, 0, 2, 2))); err != nil {
		t.Fatal(err)
	}

	for i := range 10 {
		r := ta.uploadImage(id, img.Bytes(), auth...)
		if r.Status != http.StatusCreated {
			t.Fatalf("upload %d: %d %s", i+1, r.Status, r.Body)
		}
		if f := figures(t, r); f.Limit != 10 || f.Remaining != 9-i || f.Policy != "10;w=60" || !f.HasReset {
			t.Fatalf("upload %d headers: %+v", i+1, f)
		}
	}
	r := ta.uploadImage(id, img.Bytes(), auth...)
	if r.Status != http.StatusTooManyRequests {
		t.Fatalf("11th upload: %d %s", r.Status, r.Body)
	}
	if f := figures(t, r); f.Limit != 10 || f.Remaining != 0 || f.Policy != "10;w=60" || !f.HasReset {
		t.Fatalf("11th upload headers: %+v", f)
	}
	retry, err := strconv.Atoi(r.Header.Get("Retry-After"))
	if err != nil || retry < 1 || retry > 6 {
		t.Fatalf("Retry-After %q", r.Header.Get("Retry-After"))
	}
	e := errorOf(t, r)
	if e["code"] != "RATE_LIMIT_EXCEEDED" || e["retry_after"] != float64(retry) || e["message"] == "" || e["category"] != "rate_limit" {
		t.Fatalf("11th upload body: %s", r.Body)
	}

	// The client's other requests only see the key's own limits: the product, the 10
	// uploads and this request were charged to its hourly allowance, the refused upload
	// was not.
	got := ta.do("GET", "/api/v1/products/"+id+"/images", nil, auth...)
	if got.Status != http.StatusOK || len(got.JSON(t)["data"].([]any)) != 10 {
		t.Fatalf("images: %d %s", got.Status, got.Body)
	}
	f := figures(t, got)
	if f.Limit != 200 || f.Policy != "200;w=3600" || f.Remaining < 188 || f.Remaining > 189 {
		t.Fatalf("other request headers: %+v", f)
	}
	ta.must(http.StatusCreated, "POST", "/api/v1/products", map[string]any{"title": "Card", "price": "2.00", "currency": "EUR"}, auth...) // create another product after the uploads
	f = figures(t, ta.do("GET", "/api/v1/products/"+id, nil, auth...))

	// /health reports the key's figures and does not take from them.
	for range 5 {
		h := ta.must(http.StatusOK, "GET", "/health", nil, auth...)
		hf := figures(t, h)
		if hf.Limit != 200 || hf.Policy != "200;w=3600" || !hf.HasReset || hf.Remaining < f.Remaining || hf.Remaining > f.Remaining+1 {
			t.Fatalf("health headers %+v after a request with %+v", hf, f)
		}
	}
	after := figures(t, ta.do("GET", "/api/v1/products/"+id, nil, auth...))
	if after.Remaining < f.Remaining-1 || after.Remaining > f.Remaining {
		t.Fatalf("remaining %d after five /health calls, %d before them", after.Remaining, f.Remaining)
	}
}
