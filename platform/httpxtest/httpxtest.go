// Package httpxtest holds the HTTP helpers the module test harnesses share: sending a
// JSON request to a handler and decoding the answer, reading the response envelope
// (data, list, pagination, error), asserting the error envelope, and checking every
// response against a module's OpenAPI document. It is meant for _test.go files only;
// module-specific wiring (services, fakes, credentials) stays in each module.
package httpxtest

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
)

// Response is a recorded answer: the status, the decoded JSON body (nil when empty)
// and the raw body.
type Response struct {
	Code int
	Body map[string]any
	Raw  string
}

// Data returns the "data" member when it is an object.
func (r Response) Data() map[string]any {
	d, _ := r.Body["data"].(map[string]any)
	return d
}

// List returns the "data" member when it is an array of objects.
func (r Response) List() []map[string]any { return Objects(r.Body["data"]) }

// Pagination returns meta.pagination.
func (r Response) Pagination() map[string]any {
	m, _ := r.Body["meta"].(map[string]any)
	p, _ := m["pagination"].(map[string]any)
	return p
}

// Err returns the "error" member of the envelope.
func (r Response) Err() map[string]any {
	e, _ := r.Body["error"].(map[string]any)
	return e
}

// Fields returns the validation fields of an error response.
func (r Response) Fields() map[string]any {
	f, _ := r.Err()["fields"].(map[string]any)
	return f
}

// Encode returns a request body: nothing for nil, a string as is, anything else
// JSON-encoded.
func Encode(t testing.TB, body any) []byte {
	t.Helper()
	switch b := body.(type) {
	case nil:
		return nil
	case string:
		return []byte(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		return raw
	}
}

// NewRequest builds a request with the encoded body (Content-Type JSON unless body
// is nil); headers are "Name: value" strings, a bare value is a bearer credential and
// "" is skipped.
func NewRequest(t testing.TB, method, path string, body any, headers ...string) *http.Request {
	t.Helper()
	req := httptest.NewRequestWithContext(context.Background(), method, path, bytes.NewReader(Encode(t, body)))
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for _, c := range headers {
		if name, value, ok := strings.Cut(c, ": "); ok {
			req.Header.Set(name, value)
		} else if c != "" {
			req.Header.Set("Authorization", "Bearer "+c)
		}
	}
	return req
}

// Do sends a request (see NewRequest) to h and decodes the JSON answer, failing when
// a non-empty body is not JSON.
func Do(t testing.TB, h http.Handler, method, path string, body any, headers ...string) Response {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, NewRequest(t, method, path, body, headers...))
	out := Response{Code: w.Code, Raw: w.Body.String()}
	if w.Body.Len() > 0 {
		if err := json.Unmarshal(w.Body.Bytes(), &out.Body); err != nil {
			t.Fatalf("%s %s: body is not JSON: %q", method, path, w.Body.String())
		}
	}
	return out
}

// Must is Do that fails unless the status matches.
func Must(t testing.TB, h http.Handler, status int, method, path string, body any, headers ...string) Response {
	t.Helper()
	r := Do(t, h, method, path, body, headers...)
	if r.Code != status {
		t.Fatalf("%s %s: status %d, want %d: %s", method, path, r.Code, status, r.Raw)
	}
	return r
}

// AssertError checks the error envelope: the status, the code (the spec's string
// code, then with a matching "status" member, or the HTTP status as a number) and
// the category.
func AssertError(t testing.TB, r Response, status int, code any, category string) {
	t.Helper()
	e := r.Err()
	if r.Code != status || e == nil {
		t.Fatalf("status %d, want %d: %s", r.Code, status, r.Raw)
	}
	if c, ok := code.(int); ok {
		code = float64(c)
	}
	if e["code"] != code || e["category"] != category {
		t.Errorf("code %v category %v, want %v %s: %s", e["code"], e["category"], code, category, r.Raw)
	}
	if _, isString := code.(string); isString && e["status"] != float64(status) {
		t.Errorf("status member %v, want %d", e["status"], status)
	}
}

// AssertRequestID checks that the error envelope carries a request id.
func AssertRequestID(t testing.TB, r Response) {
	t.Helper()
	if id, _ := r.Err()["request_id"].(string); id == "" {
		t.Errorf("no request_id: %s", r.Raw)
	}
}

// Objects returns a decoded JSON array as objects (nil entries for non-objects).
func Objects(v any) []map[string]any {
	raw, _ := v.([]any)
	out := make([]map[string]any, len(raw))
	for i, e := range raw {
		out[i], _ = e.(map[string]any)
	}
	return out
}

// Keys returns the sorted keys of an object, comma-separated.
func Keys(m map[string]any) string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}
