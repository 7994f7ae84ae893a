package apperr

import "testing"

// WithField and WithExtra add to a copy: the error they start from keeps its members.
func TestWithFieldAndWithExtraCopy(t *testing.T) {
	t.Parallel()
	base := New(Forbidden, "", "no").WithField("a", "1")
	more := base.WithField("b", "2").WithExtra("x", 7)
	if len(base.Fields) != 1 || base.Fields["a"] != "1" || base.Extra != nil {
		t.Fatalf("base changed: %v %v", base.Fields, base.Extra)
	}
	if more.Fields["a"] != "1" || more.Fields["b"] != "2" || more.Extra["x"] != 7 {
		t.Fatalf("copy: %v %v", more.Fields, more.Extra)
	}
	again := more.WithExtra("y", "z")
	if len(more.Extra) != 1 || again.Extra["x"] != 7 || again.Extra["y"] != "z" {
		t.Fatalf("extra: %v %v", more.Extra, again.Extra)
	}
}
