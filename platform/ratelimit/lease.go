package ratelimit

import (
	"sync"
	"time"
)

// Leases keep the Redis store off the hot path. When a client sends many requests, an
// instance takes several requests from Redis at once (one script run charges every
// rule n requests) and admits the following requests of that client from the lease,
// in process, until it is used up or leaseTTL passes. Unused requests of an expired
// lease are given back (refunded) with the next take, so nothing is lost.
//
// The lease size adapts: it starts at one request, doubles each time a lease is used
// up before it expires (up to maxLease) and halves when one expires unused. It never
// exceeds an eighth of what the rules had left at the last take, so a client close to
// a limit is checked against Redis on every request, and limits stay exact across
// instances exactly where they matter; while far from its limits a busy client costs
// one Redis round trip per maxLease requests instead of one per request.
//
// Headers stay truthful for the instance: Remaining is what Redis reported at the
// take plus the requests still leased here.
const (
	leaseTTL = 5 * time.Second
	maxLease = 64
	// leaseShare is the fraction (1/leaseShare) of the remaining allowance one lease
	// may take.
	leaseShare = 8
)

// leaseSweepEvery is how often the lease table drops expired leases.
const leaseSweepEvery = 10 * time.Second

// leaseTable holds the leases of one instance, per client and rule set: at most max,
// and expired ones are dropped every leaseSweepEvery, so it holds about the clients of
// the last few seconds.
type leaseTable struct {
	mu        sync.Mutex
	m         map[string]*lease
	max       int
	lastSweep time.Time
}

// lease is one client's (and rule set's) requests admitted by the store and not used yet.
type lease struct {
	mu      sync.Mutex
	tokens  int       // admitted by the store, not used yet
	expires time.Time // tokens are not used after this (they are refunded)
	size    int       // requests to ask for at the next take
	at      time.Time // when g was taken
	g       grant     // the store's answer at the last take
}

func newLeaseTable(max int) *leaseTable {
	return &leaseTable{m: map[string]*lease{}, max: max}
}

// get returns the lease of key, creating it. Expired leases that nobody holds are
// dropped every leaseSweepEvery and when the table is full (their unused requests, at
// most maxLease per client, are then not refunded; Redis refills them with time). A
// client that finds the table full of live leases gets a lease of its own that is not
// kept: it is checked in Redis on every request.
func (t *leaseTable) get(key string, now time.Time) *lease {
	t.mu.Lock()
	defer t.mu.Unlock()
	if le, ok := t.m[key]; ok {
		return le
	}
	if len(t.m) >= t.max || now.Sub(t.lastSweep) >= leaseSweepEvery {
		t.lastSweep = now
		for k, le := range t.m {
			if le.mu.TryLock() {
				idle := !now.Before(le.expires)
				le.mu.Unlock()
				if idle {
					delete(t.m, k)
				}
			}
		}
	}
	le := &lease{size: 1}
	if len(t.m) < t.max {
		t.m[key] = le
	}
	return le
}

// lookup returns the lease of key, or nil; it creates none.
func (t *leaseTable) lookup(key string) *lease {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.m[key]
}

// nextTake decides how many requests to ask the store for, and how many leased
// requests to give back. It is called with le.mu held, when the lease cannot admit.
func (le *lease) nextTake(now time.Time) (n, refund int) {
	refund = le.tokens
	switch {
	case refund > 0: // expired unused: the client is slower than the lease
		le.size = max(le.size/2, 1)
	case le.g.n > 0 && now.Before(le.expires): // used up early: the client is busy
		le.size = min(le.size*2, maxLease)
	}
	left := -1
	for _, rs := range le.g.rules {
		if left < 0 || rs.remaining < left {
			left = rs.remaining
		}
	}
	return max(min(le.size, left/leaseShare), 1), refund
}

// admitLocal uses one leased request, if the lease has one.
func (le *lease) admitLocal(now time.Time) bool {
	if le.tokens > 0 && now.Before(le.expires) {
		le.tokens--
		return true
	}
	return false
}

// record keeps the store's answer.
func (le *lease) record(g grant, now time.Time) {
	le.g, le.at, le.tokens = g, now, 0
	if g.n > 0 {
		le.tokens = g.n - 1
		le.expires = now.Add(leaseTTL)
	}
}
