package domain

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/apperr"
)

func TestNormalizeEmail(t *testing.T) {
	t.Parallel()
	ok := map[string]string{
		"a@b.co":                                  "a@b.co",
		"\tJane.Doe@Example.COM\n":                "jane.doe@example.com",
		"x+tag@sub.example.org":                   "x+tag@sub.example.org",
		"o'brien@example.ie":                      "o'brien@example.ie",
		strings.Repeat("a", 240) + "@example.com": strings.Repeat("a", 240) + "@example.com",
	}
	for in, want := range ok {
		got, err := NormalizeEmail(in)
		if err != nil || got != want {
			t.Errorf("NormalizeEmail(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	bad := []string{
		"", " ", "plain", "a@b", "a@localhost", "@example.com", "a@", "a@.com", "a@example.", "a@exa..mple.com",
		"Jane <jane@example.com>", "a b@example.com", "a@b.com, c@d.com",
		strings.Repeat("a", 250) + "@example.com",
	}
	for _, in := range bad {
		if _, err := NormalizeEmail(in); !errors.Is(err, ErrInvalidEmail) {
			t.Errorf("NormalizeEmail(%q) err = %v, want INVALID_EMAIL", in, err)
		}
	}
}

func TestValidatePassword(t *testing.T) {
	t.Parallel()
	cases := []struct {
		pw   string
		want bool
	}{
		{"abcdefg1", true},
		{"Passw0rd!", true},
		{"пароль123", true}, // any script's letters count
		{strings.Repeat("a", 71) + "1", true},
		{strings.Repeat("a", 72) + "1", false}, // 73 bytes: above bcrypt's limit
		{"abc1234", false},                     // 7 bytes
		{"abcdefgh", false},                    // no digit
		{"12345678", false},                    // no letter
		{"", false},
		{"        ", false},
	}
	for _, c := range cases {
		err := ValidatePassword(c.pw)
		if (err == nil) != c.want {
			t.Errorf("ValidatePassword(%q) = %v, want ok=%v", c.pw, err, c.want)
		}
		if err != nil && !errors.Is(err, ErrInvalidPassword) {
			t.Errorf("ValidatePassword(%q) = %v, want INVALID_PASSWORD", c.pw, err)
		}
	}
	if !strings.Contains(ErrInvalidPassword.Message, "8 to 72") {
		t.Errorf("policy message %q should state the rule", ErrInvalidPassword.Message)
	}
}

func isAlnumString(s string) bool {
	for _, r := range s {
		if !strings.ContainsRune(KeyAlphabet, r) {
			return false
		}
	}
	return true
}

func TestGenerateKey(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for i := 0; i < 200; i++ {
		prefix, secret, err := GenerateKey(8, 32)
		if err != nil {
			t.Fatal(err)
		}
		if len(prefix) != 8 || len(secret) != 32 {
			t.Fatalf("lengths %d/%d, want 8/32", len(prefix), len(secret))
		}
		if !isAlnumString(prefix) || !isAlnumString(secret) {
			t.Fatalf("non-alphanumeric key %q.%q", prefix, secret)
		}
		if seen[prefix+secret] {
			t.Fatal("duplicate key")
		}
		seen[prefix+secret] = true
		p, s, ok := ParseKey(FormatKey(prefix, secret))
		if !ok || p != prefix || s != secret {
			t.Fatalf("ParseKey(FormatKey) = %q %q %v", p, s, ok)
		}
	}
	if p, s, err := GenerateKey(12, 48); err != nil || len(p) != 12 || len(s) != 48 {
		t.Fatalf("configured lengths: %d %d %v", len(p), len(s), err)
	}
}

func TestRandomStringRejectsBiasedBytes(t *testing.T) {
	t.Parallel()
	// Bytes 248..255 must be skipped; 0..247 map to KeyAlphabet[b%62].
	src := bytes.NewReader(append([]byte{255, 248, 0, 61, 62, 247}, make([]byte, 64)...))
	got, err := RandomString(src, 4)
	if err != nil {
		t.Fatal(err)
	}
	want := string([]byte{KeyAlphabet[0], KeyAlphabet[61], KeyAlphabet[0], KeyAlphabet[247%62]})
	if got != want {
		t.Fatalf("RandomString = %q, want %q", got, want)
	}
	// Uniformity smoke test: every symbol appears over a large sample.
	counts := map[rune]int{}
	for i := 0; i < 200; i++ {
		_, sec, _ := GenerateKey(4, 128)
		for _, r := range sec {
			counts[r]++
		}
	}
	if len(counts) != len(KeyAlphabet) {
		t.Fatalf("only %d of %d symbols seen", len(counts), len(KeyAlphabet))
	}
}

func TestParseKey(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"", "abc", ".secret", "prefix.", "pre-fix.secret", "prefix.sec.ret", "a.b c", "ab.cd.ef"} {
		if _, _, ok := ParseKey(bad); ok {
			t.Errorf("ParseKey(%q) accepted", bad)
		}
	}
}

func TestLooksLikeJWT(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln-_", "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0."} {
		if !LooksLikeJWT(s) {
			t.Errorf("LooksLikeJWT(%q) = false", s)
		}
	}
	for _, s := range []string{"abcd1234.secretsecret", "a.b", "a..c", ".b.c", "a.b.c.d", "a.b.c d", ""} {
		if LooksLikeJWT(s) {
			t.Errorf("LooksLikeJWT(%q) = true", s)
		}
	}
}

func TestSecretHash(t *testing.T) {
	t.Parallel()
	h := HashSecret("s3cret")
	if len(h) != 64 || h == "s3cret" {
		t.Fatalf("hash %q", h)
	}
	k := APIKey{SecretHash: h}
	if !k.VerifySecret("s3cret") || k.VerifySecret("s3cret!") {
		t.Fatal("VerifySecret")
	}
}

func TestParseScopes(t *testing.T) {
	t.Parallel()
	got, err := ParseScopes([]string{" products:read", "orders:write", "products:read", "admin", ""})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, ",") != "products:read,orders:write,admin" {
		t.Fatalf("ParseScopes = %v", got)
	}
	for _, bad := range [][]string{nil, {""}, {"products"}, {"products:delete"}, {"Products:read"}, {":read"}} {
		if _, err := ParseScopes(bad); err == nil {
			t.Errorf("ParseScopes(%q) accepted", bad)
		}
	}
}

func TestValidateAPIKeyInput(t *testing.T) {
	t.Parallel()
	in, err := ValidateAPIKeyInput(NewAPIKeyInput{Name: " svc ", Scopes: []string{"products:read"}, RateLimitMultiplier: "2.5"})
	if err != nil || in.Name != "svc" || in.RateLimitMultiplier == nil || in.RateLimitMultiplier.String() != "2.5" {
		t.Fatalf("valid input: %+v %v", in, err)
	}
	_, err = ValidateAPIKeyInput(NewAPIKeyInput{Name: "", Scopes: []string{"nope"}, RateLimitMultiplier: "-1"})
	e, ok := apperr.As(err)
	if !ok || e.Kind != apperr.Invalid {
		t.Fatalf("want validation error, got %v", err)
	}
	for _, f := range []string{"name", "scopes", "rate_limit_multiplier"} {
		if e.Fields[f] == "" {
			t.Errorf("field %s not reported: %v", f, e.Fields)
		}
	}
	for _, m := range []string{"0", "abc", "1e9999"} {
		if _, err := ValidateAPIKeyInput(NewAPIKeyInput{Name: "n", Scopes: []string{"read"}, RateLimitMultiplier: m}); err == nil {
			t.Errorf("multiplier %q accepted", m)
		}
	}
}

func TestRevoke(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	k := APIKey{}
	if err := k.Revoke("  ", now); err == nil {
		t.Fatal("empty reason accepted")
	}
	if err := k.Revoke("leaked", now); err != nil || !k.Revoked() || k.RevocationReason != "leaked" || !k.RevokedAt.Equal(now) {
		t.Fatalf("revoke: %v %+v", err, k)
	}
	if err := k.Revoke("again", now); !errors.Is(err, ErrAPIKeyAlreadyRevoked) {
		t.Fatalf("second revoke: %v", err)
	}
}
