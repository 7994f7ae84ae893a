package httpx_test

import (
	"testing"

	"github.com/gocommerce/commerce/platform/httpx"
)

func TestJSONText(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in, text      string
		quoted, fails bool
	}{
		{`"12"`, "12", true, false},
		{` "a\"b" `, `a"b`, true, false},
		{`"null"`, "null", true, false},
		{`12.5`, "12.5", false, false},
		{` null `, "null", false, false},
		{`true`, "true", false, false},
		{``, "", false, false},
		{`"open`, "", true, true},
	} {
		text, quoted, err := httpx.JSONText([]byte(c.in))
		if text != c.text || quoted != c.quoted || (err != nil) != c.fails {
			t.Errorf("JSONText(%s) = %q, %v, %v", c.in, text, quoted, err)
		}
	}
}
