package app

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gocommerce/commerce/modules/identity/ports"
	"github.com/gocommerce/commerce/platform/clock"
)

// usageRecorder keeps last_used_at / last_used_ip off the request path: a request only
// compares an atomic timestamp and, at most once per interval per key, queues the use
// in a small map that one writer goroutine (or Flush) saves. The database update is
// conditional (no write if a use within the interval is already recorded), so several
// processes together also write about once per interval per key.
type usageRecorder struct {
	keys     ports.APIKeyRepository
	clock    clock.Clock
	interval time.Duration

	last sync.Map // key id -> *atomic.Int64 (unix nanos of the last queued or stored use)

	mu      sync.Mutex
	pending map[string]keyUse
	wake    chan struct{}

	flushMu sync.Mutex // one writer at a time; Flush waits for an in-flight write
}

type keyUse struct {
	at time.Time
	ip string
}

func newUsageRecorder(keys ports.APIKeyRepository, clk clock.Clock, interval time.Duration) *usageRecorder {
	if interval <= 0 {
		interval = DefaultLastUsedInterval
	}
	return &usageRecorder{keys: keys, clock: clk, interval: interval, pending: map[string]keyUse{}, wake: make(chan struct{}, 1)}
}

func (u *usageRecorder) slot(id string) *atomic.Int64 {
	if v, ok := u.last.Load(id); ok {
		return v.(*atomic.Int64)
	}
	v, _ := u.last.LoadOrStore(id, new(atomic.Int64))
	return v.(*atomic.Int64)
}

// seed raises the known last use of a key to what the database says.
func (u *usageRecorder) seed(id string, lastUsed *time.Time) {
	if lastUsed == nil {
		return
	}
	s := u.slot(id)
	n := lastUsed.UnixNano()
	for {
		cur := s.Load()
		if cur >= n || s.CompareAndSwap(cur, n) {
			return
		}
	}
}

// touch records a use; cheap unless the key's last recorded use is older than the interval.
func (u *usageRecorder) touch(id, ip string) {
	now := u.clock.Now()
	s := u.slot(id)
	cur := s.Load()
	if now.UnixNano()-cur < int64(u.interval) || !s.CompareAndSwap(cur, now.UnixNano()) {
		return
	}
	u.mu.Lock()
	u.pending[id] = keyUse{at: now, ip: ip}
	u.mu.Unlock()
	select {
	case u.wake <- struct{}{}:
	default:
	}
}

// flush writes every queued use.
func (u *usageRecorder) flush(ctx context.Context) error {
	u.flushMu.Lock()
	defer u.flushMu.Unlock()
	u.mu.Lock()
	batch := u.pending
	u.pending = map[string]keyUse{}
	u.mu.Unlock()
	var errs []error
	for id, use := range batch {
		if err := u.keys.TouchLastUsed(ctx, id, use.at, use.ip, use.at.Add(-u.interval)); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// run writes queued uses as they come until ctx ends, then writes what is left.
func (u *usageRecorder) run(ctx context.Context, onErr func(error)) {
	for {
		select {
		case <-ctx.Done():
			fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			if err := u.flush(fctx); err != nil {
				onErr(err)
			}
			cancel()
			return
		case <-u.wake:
			fctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			if err := u.flush(fctx); err != nil && ctx.Err() == nil {
				onErr(err)
			}
			cancel()
		}
	}
}
