package domain

import (
	"strings"
	"testing"
	"time"
)

func TestAccountToken(t *testing.T) {
	t.Parallel()
	key := []byte("k1")
	tok, raw := NewAccountToken(key, "tid", "cust", PurposeActivation, time.Hour, now)
	if len(raw) != 43 || strings.ContainsAny(raw, "+/=") {
		t.Fatalf("raw token %q is not 43 URL-safe characters", raw)
	}
	if tok.Hash != HashToken(raw) || strings.Contains(tok.Hash, raw) || len(tok.Hash) != 64 {
		t.Fatalf("stored hash %q", tok.Hash)
	}
	if !tok.ExpiresAt.Equal(now.Add(time.Hour)) {
		t.Fatalf("expiry %v", tok.ExpiresAt)
	}
	if got, ok := tok.Raw(key, now); !ok || got != raw {
		t.Fatalf("Raw = %q, %v", got, ok)
	}
	if _, ok := tok.Raw(key, now.Add(time.Hour)); ok {
		t.Fatal("expired token rebuilt")
	}
	if _, ok := tok.Raw([]byte("k2"), now); ok {
		t.Fatal("token rebuilt with another key")
	}
	// Purpose, id and customer all change the token.
	for _, other := range []string{
		DeriveToken(key, PurposePasswordReset, "tid", "cust"),
		DeriveToken(key, PurposeActivation, "tid2", "cust"),
		DeriveToken(key, PurposeActivation, "tid", "cust2"),
	} {
		if other == raw {
			t.Fatal("token collision")
		}
	}
}
