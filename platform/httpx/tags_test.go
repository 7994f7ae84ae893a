package httpx

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/platform/apperr"
)

func TestTags(t *testing.T) {
	t.Parallel()
	type body struct {
		Tags    *Tags `json:"tags"`
		Filters struct {
			Tags *Tags `json:"tags"`
		} `json:"filters"`
	}
	read := func(s string) (body, error) {
		c, _ := gin.CreateTestContext(httptest.NewRecorder())
		c.Request = httptest.NewRequest("POST", "/", strings.NewReader(s))
		var b body
		err := BindJSON(c, &b)
		return b, err
	}
	b, err := read(`{"tags":"a, b,c"}`)
	if err != nil || len(*b.Tags) != 3 || (*b.Tags)[1] != " b" {
		t.Fatalf("comma string: %v %v", b.Tags, err)
	}
	b, err = read(`{"tags":["x"]}`)
	if err != nil || (*b.Tags.Slice())[0] != "x" || b.Filters.Tags.Slice() != nil {
		t.Fatalf("array: %v %v", b.Tags, err)
	}
	if b, _ = read(`{"tags":[]}`); b.Tags.Slice() == nil || len(*b.Tags.Slice()) != 0 {
		t.Fatalf("empty array: %v", b.Tags)
	}
	for in, field := range map[string]string{`{"tags":1}`: "tags", `{"filters":{"tags":{}}}`: "filters.tags"} {
		_, err := read(in)
		e, ok := apperr.As(err)
		if !ok || e.Fields[field] != "must be an array" {
			t.Fatalf("%s: %v", in, err)
		}
	}
}
