package jwt

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/gocommerce/commerce/modules/identity/domain"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
)

func newTokens(t *testing.T) (*Tokens, *clock.Fake) {
	t.Helper()
	cfg := config.Default()
	cfg.Security.JWT.Secret = "test-secret-test-secret-test-secret-0123"
	clk := clock.NewFake(time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC))
	tk, err := NewTokens(&cfg, clk)
	if err != nil {
		t.Fatal(err)
	}
	return tk, clk
}

func issue(t *testing.T, tk *Tokens, iat, exp time.Time) string {
	t.Helper()
	s, err := tk.Issue(domain.Claims{
		ID: "jti-1", Subject: "cus_1", Kind: domain.SubjectCustomer, Type: domain.AccessToken,
		Scopes: []string{"read", "write"}, Email: "a@example.com", IssuedAt: iat, ExpiresAt: exp,
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A verified token parses the same from the cache, and the cache changes none of the
// checks: time limits are applied on every use, and a token that differs in any byte
// is verified in full.
func TestParseRemembersVerifiedTokensOnly(t *testing.T) {
	tk, clk := newTokens(t)
	now := clk.Now()
	token := issue(t, tk, now, now.Add(time.Hour))

	first, err := tk.Parse(token)
	if err != nil {
		t.Fatal(err)
	}
	if len(tk.verified.m) != 1 {
		t.Fatalf("%d verified tokens remembered, want 1", len(tk.verified.m))
	}
	first.Scopes[0] = "admin" // a caller's change must not reach the cache
	again, err := tk.Parse(token)
	if err != nil || again.Subject != "cus_1" || again.Email != "a@example.com" || !slices.Equal(again.Scopes, []string{"read", "write"}) ||
		!again.ExpiresAt.Equal(now.Add(time.Hour)) || again.Type != domain.AccessToken {
		t.Fatalf("from the cache: %+v %v", again, err)
	}

	// Any other byte: the signature no longer matches.
	for _, bad := range []string{token[:len(token)-2] + "xx", token + "a", "x" + token[1:]} {
		if _, err := tk.Parse(bad); !errors.Is(err, domain.ErrInvalidToken) {
			t.Errorf("altered token: %v, want ErrInvalidToken", err)
		}
	}

	// Within the 5 s leeway after exp it is still good; past it, expired.
	clk.Advance(time.Hour + 4*time.Second)
	if _, err := tk.Parse(token); err != nil {
		t.Fatalf("within the leeway: %v", err)
	}
	clk.Advance(2 * time.Second)
	if _, err := tk.Parse(token); !errors.Is(err, domain.ErrTokenExpired) {
		t.Fatalf("after exp: %v, want ErrTokenExpired", err)
	}
}

// A token issued in the future is refused, and is not remembered.
func TestParseRefusesTokensFromTheFuture(t *testing.T) {
	tk, clk := newTokens(t)
	now := clk.Now()
	token := issue(t, tk, now.Add(time.Minute), now.Add(time.Hour))
	if _, err := tk.Parse(token); !errors.Is(err, domain.ErrInvalidToken) {
		t.Fatalf("iat a minute ahead: %v, want ErrInvalidToken", err)
	}
	if len(tk.verified.m) != 0 {
		t.Fatal("a refused token was remembered")
	}
	clk.Advance(time.Minute)
	if _, err := tk.Parse(token); err != nil {
		t.Fatalf("once its iat has come: %v", err)
	}
}

// The cache holds at most maxVerified tokens.
func TestVerifiedTokensAreBounded(t *testing.T) {
	var v verifiedTokens
	for i := range maxVerified + 10 {
		v.put([32]byte{byte(i), byte(i >> 8), byte(i >> 16)}, domain.Claims{})
	}
	if n := len(v.m); n > maxVerified {
		t.Fatalf("%d entries, want at most %d", n, maxVerified)
	}
}
