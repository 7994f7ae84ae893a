package httpx_test

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestBindJSON(t *testing.T) {
	t.Parallel()
	s, _ := newServer(t, serverOpts{})

	// Valid bodies, unknown members ignored; +json and charset accepted.
	for _, ct := range []string{"application/json", "application/json; charset=utf-8", "application/merge-patch+json", "Application/JSON"} {
		w := do(t, s, request{method: http.MethodPost, path: "/api/v1/items", contentType: ct,
			body: strings.NewReader(`{"name":"Mug","quantity":2,"email":"a@b.co","kind":"bundle","address":{"city":"Oslo"},"unknown":[1,{"x":null}],"Internal":"x"}` + "\n")})
		if w.Code != http.StatusCreated {
			t.Fatalf("%s: %d %s", ct, w.Code, w.Body)
		}
		want := `{"data":{"name":"Mug","email":"a@b.co","quantity":2,"kind":"bundle","address":{"city":"Oslo"}}}`
		if w.Body.String() != want {
			t.Fatalf("%s: body %s, want %s", ct, w.Body, want)
		}
	}

	cases := []struct {
		name, body string
		want       map[string]any
	}{
		{"empty object", `{}`, validation("name", "is required", "quantity", "must be greater than or equal to 1")},
		{"null", `null`, validation("name", "is required", "quantity", "must be greater than or equal to 1")},
		{"rules by json name", `{"name":"` + strings.Repeat("n", 21) + `","quantity":1,"email":"nope","kind":"other","address":{}}`,
			validation("name", "must be at most 20", "email", "must be a valid email address",
				"kind", "must be one of: simple, bundle", "address.city", "is required")},
		{"embedded struct's member", `{"name":"Mug","quantity":1,"sku":"123456789"}`, validation("sku", "must be at most 8")},
		{"malformed", `{"name":`, invalidJSON},
		{"not json", `name=Mug`, invalidJSON},
		{"trailing garbage", `{"name":"Mug","quantity":1} xyz`, invalidJSON},
		{"two objects", `{"name":"Mug","quantity":1}{"name":"Cup","quantity":9}`, invalidJSON},
		{"wrong type string", `{"name":5,"quantity":1}`, validation("name", "must be a string")},
		{"wrong type integer", `{"name":"Mug","quantity":"many"}`, validation("quantity", "must be an integer")},
		{"fractional integer", `{"name":"Mug","quantity":1.5}`, validation("quantity", "must be an integer")},
		{"nested wrong type", `{"name":"Mug","quantity":1,"address":{"city":7}}`, validation("address.city", "must be a string")},
		{"object expected", `{"name":"Mug","quantity":1,"address":"Oslo"}`, validation("address", "must be an object")},
		{"array body", `[1,2]`, validation("body", "must be an object")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			expectError(t, postJSON(t, s, "/api/v1/items", tc.body), http.StatusBadRequest, tc.want)
		})
	}

	// No body at all is validated as an empty object (not a 415).
	expectError(t, do(t, s, request{method: http.MethodPost, path: "/api/v1/items"}), http.StatusBadRequest,
		validation("name", "is required", "quantity", "must be greater than or equal to 1"))
	// A chunked body goes through the same rules.
	w := do(t, s, request{method: http.MethodPost, path: "/api/v1/items", body: chunked(`{"name":"Mug","quantity":3}`), contentType: "application/json"})
	if w.Code != http.StatusCreated {
		t.Fatalf("chunked valid body = %d %s", w.Code, w.Body)
	}
}

func TestBodyRules(t *testing.T) {
	t.Parallel()
	s, _ := newServer(t, serverOpts{})
	unsupported := map[string]any{"code": 415, "message": "Content-Type must be application/json", "category": "request"}
	tooLarge := map[string]any{"code": 413, "message": fmt.Sprintf("Request body exceeds %d bytes", testLimit), "category": "request"}

	// Non-JSON bodies: 415 on every method with a body.
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		for _, ct := range []string{"text/plain", "", "application/x-www-form-urlencoded", "application/xml", "text/json+xml"} {
			w := do(t, s, request{method: m, path: "/api/v1/items", body: strings.NewReader(`{"name":"Mug"}`), contentType: ct})
			expectError(t, w, http.StatusUnsupportedMediaType, unsupported)
		}
	}
	// Bodyless requests pass whatever their Content-Type.
	for _, m := range []string{http.MethodDelete, http.MethodPut, http.MethodPatch} {
		if w := do(t, s, request{method: m, path: "/api/v1/items", contentType: "text/plain"}); w.Code != http.StatusOK {
			t.Fatalf("%s without body = %d %s", m, w.Code, w.Body)
		}
	}
	if w := do(t, s, request{method: http.MethodGet, path: "/api/v1/ping", contentType: "text/plain"}); w.Code != http.StatusOK {
		t.Fatalf("GET = %d %s", w.Code, w.Body)
	}

	// Multipart: refused on JSON routes, accepted where registered, with that route's limit.
	body, ct := multipartBody(t, 2000)
	expectError(t, do(t, s, request{method: http.MethodPost, path: "/api/v1/items", body: bytes.NewReader(body), contentType: ct}),
		http.StatusUnsupportedMediaType, unsupported)
	w := do(t, s, request{method: http.MethodPost, path: "/api/v1/uploads", body: bytes.NewReader(body), contentType: ct})
	if w.Code != http.StatusCreated || jsonBody(t, w)["size"] != 2000.0 {
		t.Fatalf("multipart upload under its limit (above the JSON limit) = %d %s", w.Code, w.Body)
	}
	big, bigCT := multipartBody(t, uploadLimit+1)
	expectError(t, do(t, s, request{method: http.MethodPost, path: "/api/v1/uploads", body: bytes.NewReader(big), contentType: bigCT}),
		http.StatusRequestEntityTooLarge, map[string]any{"code": 413, "message": fmt.Sprintf("Request body exceeds %d bytes", uploadLimit), "category": "request"})
	// JSON on the upload route still uses the JSON limit.
	expectError(t, postJSON(t, s, "/api/v1/uploads", padded(testLimit+1)), http.StatusRequestEntityTooLarge, tooLarge)
	// Chunked multipart over its limit: cut while parsing.
	expectError(t, do(t, s, request{method: http.MethodPost, path: "/api/v1/uploads", body: unsized{bytes.NewReader(big)}, contentType: bigCT}),
		http.StatusRequestEntityTooLarge, map[string]any{"code": 413, "message": fmt.Sprintf("Request body exceeds %d bytes", uploadLimit), "category": "request"})

	// Forms only where registered; a route's own too-large error.
	form := "application/x-www-form-urlencoded"
	expectError(t, do(t, s, request{method: http.MethodPost, path: "/api/v1/items", body: strings.NewReader("value=1"), contentType: form}),
		http.StatusUnsupportedMediaType, unsupported)
	if w := do(t, s, request{method: http.MethodPost, path: "/api/v1/hooks", body: strings.NewReader("value=ok"), contentType: form}); w.Code != http.StatusOK || jsonBody(t, w)["value"] != "ok" {
		t.Fatalf("form on a form route = %d %s", w.Code, w.Body)
	}
	if w := do(t, s, request{method: http.MethodPost, path: "/api/v1/images", body: strings.NewReader("123456789"), contentType: "image/png"}); w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), "IMAGE_TOO_LARGE") {
		t.Fatalf("route's own too-large error = %d %s", w.Code, w.Body)
	}

	// Declared Content-Length over the limit: refused before reading.
	expectError(t, postJSON(t, s, "/api/v1/items", padded(testLimit+1)), http.StatusRequestEntityTooLarge, tooLarge)
	// Exactly at the limit is fine.
	if w := postJSON(t, s, "/api/v1/items", padded(testLimit)); w.Code != http.StatusCreated {
		t.Fatalf("body of exactly the limit = %d %s", w.Code, w.Body)
	}
	// Chunked bodies over the limit are cut: 413 through BindJSON and through a raw read.
	expectError(t, do(t, s, request{method: http.MethodPost, path: "/api/v1/items", body: chunked(padded(testLimit + 500)), contentType: "application/json"}),
		http.StatusRequestEntityTooLarge, tooLarge)
	expectError(t, do(t, s, request{method: http.MethodPost, path: "/api/v1/raw", body: chunked(padded(testLimit + 1)), contentType: "application/json"}),
		http.StatusRequestEntityTooLarge, tooLarge)
	if w := do(t, s, request{method: http.MethodPost, path: "/api/v1/raw", body: chunked(padded(testLimit)), contentType: "application/json"}); w.Code != http.StatusOK {
		t.Fatalf("chunked body of exactly the limit = %d %s", w.Code, w.Body)
	}
}

// TestChunkedOverLimitOnTheWire sends a real chunked request through a real server.
func TestChunkedOverLimitOnTheWire(t *testing.T) {
	t.Parallel()
	s, _ := newServer(t, serverOpts{})
	ts := httptest.NewServer(s)
	defer ts.Close()
	for _, tc := range []struct {
		body   string
		status int
	}{{padded(testLimit * 4), http.StatusRequestEntityTooLarge}, {`{"name":"Mug","quantity":1}`, http.StatusCreated}} {
		req, err := http.NewRequest(http.MethodPost, ts.URL+"/api/v1/items", chunked(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.TransferEncoding = []string{"chunked"}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		_ = res.Body.Close()
		if res.StatusCode != tc.status {
			t.Fatalf("chunked %d bytes: status %d, body %s", len(tc.body), res.StatusCode, b)
		}
		if tc.status == http.StatusRequestEntityTooLarge {
			got := errorBody(t, res.StatusCode, b)
			if got["code"] != 413.0 || got["category"] != "request" {
				t.Fatalf("chunked over limit: %s", b)
			}
		}
	}
}

// multipartBody builds a form with one file field of size bytes of content.
func multipartBody(t *testing.T, size int) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, err := mw.CreateFormFile("file", "photo.png")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fw.Write(bytes.Repeat([]byte{0x89}, size)); err != nil {
		t.Fatal(err)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), mw.FormDataContentType()
}
