// Package redisx provides the optional Redis client (nil when redis.url is empty).
package redisx

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"

	"github.com/gocommerce/commerce/platform/config"
)

// Provide returns a client for redis.url, or nil when Redis is not configured.
func Provide(cfg *config.Config) (*redis.Client, func(), error) {
	if cfg.Redis.URL == "" {
		return nil, func() {}, nil
	}
	opt, err := redis.ParseURL(cfg.Redis.URL)
	if err != nil {
		return nil, nil, fmt.Errorf("config: redis.url: %w", err)
	}
	c := redis.NewClient(opt)
	return c, func() { _ = c.Close() }, nil
}

// Ping returns a health check function, or nil when Redis is not configured.
func Ping(c *redis.Client) func(ctx context.Context) error {
	if c == nil {
		return nil
	}
	return func(ctx context.Context) error { return c.Ping(ctx).Err() }
}
