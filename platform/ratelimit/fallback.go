package ratelimit

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"go.uber.org/zap"
)

// While the shared store (Redis) fails, each process limits on its own, in memory, with
// the same rules and headers (decision 0099): a Redis outage neither stops the API nor
// lets every request through. The limits then hold per process, so N instances admit
// up to N times the limit between them until Redis is back.
//
// The first store error switches the process to its memory store; from then on no
// request waits for Redis. At most once per probeInterval a request starts a probe in
// the background (one run of the take script on a key of its own, which expires at
// once); when it succeeds the process goes back to Redis. Each switch is logged once
// (a warning when entering, info when leaving) and the commerce_rate_limit_fallback
// gauge says which store is in use.

// errStoreDown answers the admin usage view while the fallback is active: the shared
// counters cannot be read, and this process's own would pass for the cluster's.
var errStoreDown = errors.New("ratelimit: the shared store is unavailable")

const (
	// probeInterval is the minimum time between two probes of the store during an outage.
	probeInterval = time.Second
)

// fallback is the state of the per-process fallback of a Redis limiter.
type fallback struct {
	store     *memStore
	log       *zap.Logger
	inst      *instruments
	probe     func(ctx context.Context) error
	active    atomic.Bool
	since     atomic.Int64 // Unix ns the current outage started
	decisions atomic.Int64 // requests decided in memory during the current outage
	lastProbe atomic.Int64 // Unix ns
	probing   atomic.Bool
}

// enter switches to the memory store after a store error (logged once per outage).
func (f *fallback) enter(err error) {
	if f.active.Load() || !f.active.CompareAndSwap(false, true) {
		return
	}
	now := time.Now().UnixNano()
	f.since.Store(now)
	f.lastProbe.Store(now)
	f.decisions.Store(0)
	f.inst.fallback.Set(1)
	f.log.Warn("rate-limit store unavailable: limiting per process in memory until it answers again", zap.Error(err))
}

// leave switches back to the shared store after a successful probe.
func (f *fallback) leave() {
	if !f.active.CompareAndSwap(true, false) {
		return
	}
	f.inst.fallback.Set(0)
	f.log.Info("rate-limit store available again: limits are shared through it",
		zap.Duration("outage", time.Duration(time.Now().UnixNano()-f.since.Load())),
		zap.Int64("decided_in_memory", f.decisions.Load()))
}

// decided counts one request decided by the memory store.
func (f *fallback) decided() {
	f.decisions.Add(1)
	f.inst.fallbackDecisions.Inc()
}

// maybeProbe starts a background probe of the store unless one ran within
// probeInterval or one is running. The request that calls it does not wait.
func (f *fallback) maybeProbe() {
	now := time.Now().UnixNano()
	if now-f.lastProbe.Load() < int64(probeInterval) || !f.probing.CompareAndSwap(false, true) {
		return
	}
	f.lastProbe.Store(now)
	go func() {
		defer f.probing.Store(false)
		ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
		defer cancel()
		if err := f.probe(ctx); err == nil {
			f.leave()
		}
	}()
}
