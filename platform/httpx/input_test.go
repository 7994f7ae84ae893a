package httpx_test

import (
	"bytes"
	"encoding/json"
	"math"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/platform/httpx"
)

// A NUL character, invalid UTF-8, broken percent-encoding or an oversized value in any
// query parameter or path parameter is a 400 naming it, before any handler runs.
func TestInputRulesQueryAndPath(t *testing.T) {
	t.Parallel()
	s, _ := newServer(t, serverOpts{})
	params := func(kv ...string) map[string]any { return invalid("Invalid request parameters", kv...) }
	long := strings.Repeat("a", 4097)
	cases := []struct {
		name, path string
		want       map[string]any
	}{
		{"NUL in a value", "/api/v1/products?q=a%00b", params("q", httpx.MsgNUL)},
		{"NUL in a value of a known parameter", "/api/v1/products?page=1%00", params("page", httpx.MsgNUL)},
		{"invalid UTF-8", "/api/v1/products?vendor=%ff%fe", params("vendor", httpx.MsgUTF8)},
		{"invalid UTF-8 in a name", "/api/v1/products?a%ff=1", params("a\uFFFD", httpx.MsgUTF8)},
		{"NUL in a name", "/api/v1/products?%00=1", params("\uFFFD", httpx.MsgNUL)},
		{"broken escape", "/api/v1/products?q=100%", params("q", httpx.MsgEncoding)},
		{"too long", "/api/v1/products?q=" + long, params("q", httpx.MsgTooLong)},
		{"several", "/api/v1/products?a=%00&b=%ff&c=ok", params("a", httpx.MsgNUL, "b", httpx.MsgUTF8)},
		{"NUL in a path parameter", "/api/v1/products/a%00b", params("id", httpx.MsgNUL)},
		{"invalid UTF-8 in a path parameter", "/api/v1/products/%c3%28", params("id", httpx.MsgUTF8)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			method := http.MethodGet
			if strings.Contains(tc.path, "/products/") {
				method = http.MethodPut // protected: the rules run before authentication
			}
			expectError(t, do(t, s, request{method: method, path: tc.path}), http.StatusBadRequest, tc.want)
		})
	}
	// Headers the API stores follow the same rules.
	w := do(t, s, request{method: http.MethodGet, path: "/api/v1/products", header: map[string]string{"Idempotency-Key": "k\xff"}})
	expectError(t, w, http.StatusBadRequest, params("Idempotency-Key", httpx.MsgUTF8))
	// Fine input passes, including UTF-8 text, '+' and empty values.
	for _, path := range []string{"/api/v1/products?q=caf%C3%A9+cr%C3%A8me&vendor=&page=2", "/api/v1/products?" + strings.Repeat("a", 4096)} {
		if w := get(t, s, path, nil); w.Code != http.StatusOK {
			t.Fatalf("%s: %d %s", path, w.Code, w.Body)
		}
	}
}

// JSON bodies: a NUL character or invalid UTF-8 in any string, or a number outside the
// 32-bit range, is a 400 naming the member's path.
func TestInputRulesJSONBody(t *testing.T) {
	t.Parallel()
	s, _ := newServer(t, serverOpts{})
	cases := []struct {
		name, body string
		want       map[string]any
	}{
		{"NUL in a value", `{"name":"a\u0000b","quantity":1}`, validation("name", httpx.MsgNUL)},
		{"NUL in an unknown member", `{"name":"a","quantity":1,"extra":{"list":["x","\u0000"]}}`, validation("extra.list[1]", httpx.MsgNUL)},
		{"NUL in a member name", `{"na\u0000me":"a"}`, validation(`na\u0000me`, httpx.MsgNUL)},
		{"NUL in a top-level string", `"\u0000"`, validation("body", httpx.MsgNUL)},
		{"invalid UTF-8", "{\"name\":\"caf\xe9\",\"quantity\":1}", validation("name", httpx.MsgUTF8)},
		{"2^31", `{"name":"a","quantity":2147483648}`, validation("quantity", httpx.MsgNumberRange)},
		{"-2^31-1", `{"name":"a","quantity":-2147483649}`, validation("quantity", httpx.MsgNumberRange)},
		{"2^63", `{"name":"a","quantity":9223372036854775808}`, validation("quantity", httpx.MsgNumberRange)},
		{"huge float", `{"name":"a","address":{"lat":1e300}}`, validation("address.lat", httpx.MsgNumberRange)},
		{"overflowing float", `{"name":"a","items":[0,1e999]}`, validation("items[1]", httpx.MsgNumberRange)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			expectError(t, postJSON(t, s, "/api/v1/items", tc.body), http.StatusBadRequest, tc.want)
		})
	}
	// In range, escapes other than NUL, and other characters pass.
	w := postJSON(t, s, "/api/v1/items", `{"name":"\u00e9\"\\\n\ud83d\ude00","quantity":2147483647,"x":[-2147483648,1.5e3,0,-0.5,true,null]}`)
	if w.Code != http.StatusCreated {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	// Broken JSON is left to the handler, which reports it as such, even after a NUL.
	expectError(t, postJSON(t, s, "/api/v1/items", `{"name":"x", "quantity":`), http.StatusBadRequest,
		invalidJSON)
	// The body limit still answers 413 for a chunked body.
	w = do(t, s, request{method: http.MethodPost, path: "/api/v1/items", contentType: "application/json", body: chunked(padded(testLimit + 1))})
	if w.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("chunked over the limit: %d %s", w.Code, w.Body)
	}
}

type providerModule struct{}

func (providerModule) RegisterRoutes(r *httpx.Routes) {
	r.Root.POST("/hooks/:gateway", func(c *gin.Context) { c.JSON(http.StatusOK, gin.H{"ok": true}) })
	r.KeepNumbers(http.MethodPost, "/hooks/:gateway")
}

// A route that keeps its numbers (a provider's JSON) still has its strings checked.
func TestInputRulesKeepNumbers(t *testing.T) {
	t.Parallel()
	s, _ := newServer(t, serverOpts{module: providerModule{}})
	if w := postJSON(t, s, "/hooks/stripe", `{"amount":99999999999,"created":1e12}`); w.Code != http.StatusOK {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	expectError(t, postJSON(t, s, "/hooks/stripe", `{"data":{"object":{"id":"\u0000"}}}`), http.StatusBadRequest,
		validation("data.object.id", httpx.MsgNUL))
}

func FuzzCheckJSON(f *testing.F) {
	for _, s := range []string{`{"a":[1,"x",{"b":null}]}`, `"\u0000"`, `{"a":2147483648}`, "{\"\xff\":1}", `[1e999]`, `{"a":`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path, msg := httpx.CheckJSON(data, true)
		if (path == "") != (msg == "") {
			t.Fatalf("path %q msg %q", path, msg)
		}
		// What encoding/json accepts and finds a NUL or a big number in, the scan reports.
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var v any
		if !json.Valid(data) || dec.Decode(&v) != nil {
			return
		}
		if badValue(v) && msg == "" {
			t.Fatalf("%q: problem not reported", data)
		}
	})
}

func badValue(v any) bool {
	switch x := v.(type) {
	case string:
		return strings.ContainsRune(x, 0)
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		return err != nil || f > math.MaxInt32 || f < math.MinInt32
	case []any:
		for _, e := range x {
			if badValue(e) {
				return true
			}
		}
	case map[string]any:
		for k, e := range x {
			if strings.ContainsRune(k, 0) || badValue(e) {
				return true
			}
		}
	}
	return false
}

func BenchmarkCheckJSON(b *testing.B) {
	body := []byte(`{"product_id":"01a213b9-dfeb-750d-b231-e90b608e331d","variant_id":"01a213b9-dfeb-750d-b231-e90b608e331e","quantity":2,"custom_attributes":{"gift":"yes","note":"caf\u00e9 cr\u00e8me"}}`)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if _, msg := httpx.CheckJSON(body, true); msg != "" {
			b.Fatal(msg)
		}
	}
}
