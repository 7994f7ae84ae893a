package redisx

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gocommerce/commerce/platform/testredis"
)

func TestOptionsTimeouts(t *testing.T) {
	t.Parallel()
	opt, err := Options("redis://127.0.0.1:6379/0")
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]time.Duration{"dial": opt.DialTimeout, "read": opt.ReadTimeout, "write": opt.WriteTimeout, "pool": opt.PoolTimeout} {
		if got != Timeout {
			t.Errorf("%s timeout %v, want %v", name, got, Timeout)
		}
	}
	opt, err = Options("redis://127.0.0.1:6379/0?dial_timeout=2s&read_timeout=1s")
	if err != nil {
		t.Fatal(err)
	}
	if opt.DialTimeout != 2*time.Second || opt.ReadTimeout != time.Second || opt.WriteTimeout != Timeout {
		t.Errorf("URL timeouts: dial %v read %v write %v", opt.DialTimeout, opt.ReadTimeout, opt.WriteTimeout)
	}
	if !opt.ContextTimeoutEnabled {
		t.Error("context deadlines ignored")
	}
	if _, err := Options("http://nope"); err == nil {
		t.Error("bad URL accepted")
	}
}

// A pub/sub subscription (API key invalidations) idles far longer than Timeout between
// messages: the short read timeout must not break it.
func TestSubscriptionOutlivesTimeout(t *testing.T) {
	t.Parallel()
	opt, err := Options(testredis.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	c := redis.NewClient(opt)
	defer func() { _ = c.Close() }()
	ctx := context.Background()
	if err := c.Ping(ctx).Err(); err != nil {
		t.Fatalf("Redis at %s: %v", opt.Addr, err)
	}
	channel := "test:redisx:" + strconv.FormatInt(time.Now().UnixNano(), 36)
	ps := c.Subscribe(ctx, channel)
	defer func() { _ = ps.Close() }()
	if _, err := ps.Receive(ctx); err != nil { // the subscription confirmation
		t.Fatal(err)
	}
	msgs := ps.Channel()
	time.Sleep(3 * Timeout)
	if err := c.Publish(ctx, channel, "hello").Err(); err != nil {
		t.Fatal(err)
	}
	select {
	case m := <-msgs:
		if m.Payload != "hello" {
			t.Fatalf("payload %q", m.Payload)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no message after an idle subscription")
	}
}
