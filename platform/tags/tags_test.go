package tags_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gocommerce/commerce/platform/tags"
)

func TestNormalize(t *testing.T) {
	got, p := tags.Normalize([]string{" VIP ", "vip", "", "Wholesale", "wholesale ", "a,b"}, tags.TooLong)
	if p != 0 || strings.Join(got, "|") != "VIP|Wholesale|a,b" {
		t.Fatalf("Normalize = %q, %v", got, p)
	}
	long := strings.Repeat("x", tags.MaxLength+1) + ","
	if got, p := tags.Normalize([]string{"ok", long, "later"}, tags.Comma|tags.TooLong); p != tags.Comma|tags.TooLong || len(got) != 1 {
		t.Fatalf("bad tag: %q, %v", got, p)
	}
	if _, p := tags.Normalize([]string{"a,b"}, tags.Comma); p != tags.Comma {
		t.Fatalf("comma: %v", p)
	}
	many := make([]string, tags.MaxCount+1)
	for i := range many {
		many[i] = fmt.Sprint("t", i)
	}
	if _, p := tags.Normalize(many, tags.Comma|tags.TooLong); p != tags.TooMany {
		t.Fatalf("too many: %v", p)
	}
	if _, p := tags.Normalize(many[:tags.MaxCount], tags.Comma|tags.TooLong); p != 0 {
		t.Fatalf("at the limit: %v", p)
	}
}
