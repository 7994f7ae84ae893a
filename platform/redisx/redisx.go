// Package redisx provides the optional Redis client (nil when redis.url is empty).
package redisx

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gocommerce/commerce/platform/config"
)

// Timeout is the default dial, read, write and pool timeout of the client. The API
// calls Redis on the request path (rate limits, the admin usage view, API key
// revocations): a Redis that does not answer must cost a request a fraction of a
// second, not go-redis's defaults (5 s to dial, 3 s to read). The URL's dial_timeout,
// read_timeout, write_timeout and pool_timeout query parameters override it.
const Timeout = 500 * time.Millisecond

// Provide returns a client for redis.url, or nil when Redis is not configured.
func Provide(cfg *config.Config) (*redis.Client, func(), error) {
	if cfg.Redis.URL == "" {
		return nil, func() {}, nil
	}
	opt, err := Options(cfg.Redis.URL)
	if err != nil {
		return nil, nil, err
	}
	c := redis.NewClient(opt)
	return c, func() { _ = c.Close() }, nil
}

// Options parses a redis.url, applies Timeout where the URL sets none and makes the
// client honour its callers' context deadlines (go-redis ignores them by default, so
// a caller's short deadline, the rate limiter's for one, would not bound a read).
func Options(rawURL string) (*redis.Options, error) {
	opt, err := redis.ParseURL(rawURL)
	if err != nil {
		return nil, fmt.Errorf("config: redis.url: %w", err)
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("config: redis.url: %w", err)
	}
	opt.ContextTimeoutEnabled = true
	q := u.Query()
	for param, d := range map[string]*time.Duration{
		"dial_timeout": &opt.DialTimeout, "read_timeout": &opt.ReadTimeout,
		"write_timeout": &opt.WriteTimeout, "pool_timeout": &opt.PoolTimeout,
	} {
		if !q.Has(param) {
			*d = Timeout
		}
	}
	return opt, nil
}

// Ping returns a health check function, or nil when Redis is not configured.
func Ping(c *redis.Client) func(ctx context.Context) error {
	if c == nil {
		return nil
	}
	return func(ctx context.Context) error { return c.Ping(ctx).Err() }
}
