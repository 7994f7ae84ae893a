package httpx

import (
	"context"
	"sync"
	"time"
)

// TokenCache keeps a provider's OAuth2 access token (client credentials: PayPal, the
// carriers) until a minute before it expires. The zero value is ready to use.
type TokenCache struct {
	mu      sync.Mutex
	token   string
	expires time.Time
}

// Token returns the cached token while it is good, else asks fetch for a new one (the
// token and how long it lives). The lock is held meanwhile, so concurrent callers ask
// once; a failed fetch keeps nothing.
func (c *TokenCache) Token(ctx context.Context, fetch func(context.Context) (string, time.Duration, error)) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.token != "" && time.Now().Before(c.expires) {
		return c.token, nil
	}
	token, lifetime, err := fetch(ctx)
	if err != nil {
		return "", err
	}
	c.token, c.expires = token, time.Now().Add(lifetime-time.Minute)
	return token, nil
}

// Forget drops the token (the provider refused it before its time).
func (c *TokenCache) Forget() {
	c.mu.Lock()
	c.token = ""
	c.mu.Unlock()
}
