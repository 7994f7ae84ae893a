// Package redis broadcasts API key invalidations and customer token revocations between
// processes over Redis pub/sub (docs/decisions/0011, 0096).
package redis

import (
	"context"
	"sync"

	goredis "github.com/redis/go-redis/v9"
	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/identity/ports"
)

// Channel is the pub/sub channel carrying the prefixes of revoked or deleted keys and
// customer revocation signals ("customer:<id>:<generation>"). Its name predates the
// latter and stays, so processes of two versions still hear each other.
const Channel = "commerce:identity:api_key_invalidations"

// Invalidations implements ports.KeyInvalidations. With a nil client (no Redis
// configured) it does nothing: the process that changes a key invalidates its own
// cache, and other processes rely on the periodic re-check.
type Invalidations struct {
	rdb *goredis.Client
	log *zap.Logger
}

var _ ports.KeyInvalidations = (*Invalidations)(nil)

// NewInvalidations builds the broadcaster; rdb may be nil.
func NewInvalidations(rdb *goredis.Client, log *zap.Logger) *Invalidations {
	return &Invalidations{rdb: rdb, log: log.Named("identity.invalidations")}
}

// Publish announces a changed key.
func (i *Invalidations) Publish(ctx context.Context, prefix string) error {
	if i.rdb == nil {
		return nil
	}
	return i.rdb.Publish(ctx, Channel, prefix).Err()
}

// Subscribe delivers announced prefixes to fn from one goroutine until stop is called.
// The subscription does not wait for Redis: go-redis connects, reconnects and
// re-subscribes in the background, so a Redis outage at start-up only delays
// invalidations (the re-check covers the gap).
func (i *Invalidations) Subscribe(fn func(prefix string)) (func(), error) {
	if i.rdb == nil {
		return func() {}, nil
	}
	ps := i.rdb.Subscribe(context.Background(), Channel)
	msgs := ps.Channel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for m := range msgs {
			fn(m.Payload)
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			if err := ps.Close(); err != nil {
				i.log.Debug("closing invalidation subscription", zap.Error(err))
			}
			<-done
		})
	}, nil
}
