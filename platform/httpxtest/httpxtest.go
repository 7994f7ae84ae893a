// Package httpxtest is the test harness every module's HTTP tests share: a Harness
// (the module's server and database) with callers that carry their credentials,
// the response envelope (data, list, pagination, error) and typed decoding, error
// envelope assertions, outbox event and row count assertions, a fake authenticator
// (Principals), and a Validator checking every response against the module's OpenAPI
// document. It is meant for _test.go files only; module-specific wiring (services,
// fakes of other modules) stays in each module.
package httpxtest

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"
)

// Response is a recorded answer: the status, the decoded JSON body (nil when empty
// or not JSON), the raw body and the headers.
type Response struct {
	Code   int
	Body   map[string]any
	Raw    string
	Header http.Header
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

// Encode returns a request body: nothing for nil, a string or bytes as they are,
// anything else JSON-encoded.
func Encode(t testing.TB, body any) []byte {
	t.Helper()
	switch b := body.(type) {
	case nil:
		return nil
	case string:
		return []byte(b)
	case []byte:
		return b
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
	setHeaders(req, headers)
	return req
}

// setHeaders sets "Name: value" headers; a bare value is a bearer credential and ""
// is skipped.
func setHeaders(req *http.Request, headers []string) {
	for _, c := range headers {
		if name, value, ok := strings.Cut(c, ": "); ok {
			req.Header.Set(name, value)
		} else if c != "" {
			req.Header.Set("Authorization", "Bearer "+c)
		}
	}
}

// Do sends a request (see NewRequest) to h and decodes the answer (see Serve).
func Do(t testing.TB, h http.Handler, method, path string, body any, headers ...string) Response {
	t.Helper()
	return Serve(t, h, NewRequest(t, method, path, body, headers...))
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
// code, then with a matching "status" member, or the HTTP status as a number), the
// category and a request id.
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
	if id, _ := e["request_id"].(string); id == "" {
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

// IDs returns the "id" member of each object.
func IDs(list []map[string]any) []string {
	out := make([]string, len(list))
	for i, m := range list {
		out[i], _ = m["id"].(string)
	}
	return out
}

// Num reads a JSON number as an int.
func Num(v any) int {
	f, _ := v.(float64)
	return int(f)
}

// Concurrently sends n requests at once (send(i), each in its own goroutine) and
// answers their responses in order.
func Concurrently(n int, send func(i int) Response) []Response {
	out := make([]Response, n)
	var wg sync.WaitGroup
	for i := range out {
		wg.Go(func() { out[i] = send(i) })
	}
	wg.Wait()
	return out
}

// WithCode splits responses into those answered with code and the rest.
func WithCode(responses []Response, code int) (match, rest []Response) {
	for _, r := range responses {
		if r.Code == code {
			match = append(match, r)
		} else {
			rest = append(rest, r)
		}
	}
	return match, rest
}
