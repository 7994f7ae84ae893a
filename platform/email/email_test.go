package email_test

import (
	"strings"
	"testing"

	"github.com/gocommerce/commerce/platform/email"
)

func TestNormalize(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"  Ana@Example.COM ", "ana@example.com"},
		{"a.b+c@mail.shop.io", "a.b+c@mail.shop.io"},
	} {
		if got, ok := email.Normalize(c.in); !ok || got != c.want {
			t.Errorf("Normalize(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
	long := strings.Repeat("a", email.MaxLength-len("@example.com")+1) + "@example.com"
	for _, in := range []string{"", "ana", "Ana <ana@example.com>", "ana@localhost", "ana@.example.com", "ana@example.com.", "ana@example..com", long} {
		if got, ok := email.Normalize(in); ok {
			t.Errorf("Normalize(%q) = %q, accepted", in, got)
		}
	}
}
