package httpx_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/limits"
)

// The request parsers, fuzzed: `go test` runs the seeds, `make fuzz` runs each target
// for longer.

// ParsePage takes any query: a page within 1..limits.MaxPage and a per_page within
// 1..100, or a 400 naming page or per_page.
func FuzzParsePage(f *testing.F) {
	seeds := []string{"", "page=2&per_page=50", "page=0", "per_page=1000", "page=-1&per_page=abc", "page=99999999999999999999",
		"page=%zz", "page=1e3", "page= 2", "page=+3&per_page=0x10", "per_page=100&per_page=1"}
	httpxtest.FuzzQuery(f, seeds, func(c *gin.Context) error {
		p, err := httpx.ParsePage(c)
		if err == nil && (p.Page < 1 || p.Page > limits.MaxPage || p.PerPage < 1 || p.PerPage > httpx.MaxPerPage) {
			return apperr.New(apperr.Internal, "", "page out of range")
		}
		if e, ok := apperr.As(err); ok {
			for name := range e.Fields {
				if name != "page" && name != "per_page" {
					return apperr.New(apperr.Internal, "", "unknown field "+name)
				}
			}
		}
		return err
	})
}

type fuzzReq struct {
	itemReq
	Tags  []string          `json:"tags" binding:"max=3"`
	Price *json.Number      `json:"price"`
	Meta  map[string]string `json:"meta"`
	Flag  bool              `json:"flag"`
}

// BindJSON takes any body: it accepts only what encoding/json decodes into the target
// and the binding rules pass, and refuses the rest with a 400 naming the bad fields
// (or a 413), never another status and never a panic.
func FuzzBindJSON(f *testing.F) {
	for _, s := range []string{`{"name":"Mug","quantity":2}`, `{"name":"Mug","quantity":2,"tags":["a","b","c","d"]}`,
		`{"name":5}`, `{"name":"x","quantity":1.5}`, `{"quantity":1e400}`, `[1]`, `null`, ``, ` `, `{"name":"a","quantity":1} x`,
		`{"name":"a","quantity":1,"address":{"city":null},"meta":{"k":"v"},"price":"12.5","flag":true}`, `{"price":12.50}`,
		"{\"name\":\"\xff\",\"quantity\":1}", `{"name":"\u0000","quantity":1,"Internal":"x"}`, `{"a":{"b":[[[[{}]]]]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		c, _ := gin.CreateTestContext(httptest.NewRecorder())
		c.Request = httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
		var got fuzzReq
		err := httpx.BindJSON(c, &got)
		if err == nil {
			var want fuzzReq
			if uerr := json.Unmarshal(body, &want); uerr != nil {
				t.Fatalf("%q accepted, but encoding/json refuses it: %v", body, uerr)
			}
			return
		}
		e, ok := apperr.As(err)
		if !ok || httpx.StatusOf(err) != http.StatusBadRequest || len(e.Fields) == 0 {
			t.Fatalf("%q: %v (status %d), want a 400 naming the bad fields", body, err, httpx.StatusOf(err))
		}
	})
}
