package httpx_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/httpx"
)

func TestTokenCache(t *testing.T) {
	t.Parallel()
	var c httpx.TokenCache
	calls := 0
	fetch := func(lifetime time.Duration, err error) func(context.Context) (string, time.Duration, error) {
		return func(context.Context) (string, time.Duration, error) {
			calls++
			return "tok", lifetime, err
		}
	}
	ctx := context.Background()
	if _, err := c.Token(ctx, fetch(time.Hour, errors.New("down"))); err == nil || calls != 1 {
		t.Fatalf("failed fetch: %v after %d calls", err, calls)
	}
	for range 2 {
		if tok, err := c.Token(ctx, fetch(time.Hour, nil)); err != nil || tok != "tok" {
			t.Fatalf("token %q %v", tok, err)
		}
	}
	if calls != 2 {
		t.Fatalf("%d fetches, want the token cached after the first good one", calls)
	}
	c.Forget()
	_, _ = c.Token(ctx, fetch(30*time.Second, nil)) // lives less than the minute kept in reserve
	_, _ = c.Token(ctx, fetch(30*time.Second, nil))
	if calls != 4 {
		t.Fatalf("%d fetches, want one after Forget and one for the token about to expire", calls)
	}
}
