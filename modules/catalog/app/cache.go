package app

import (
	"sync"
	"time"
)

// memo is a small in-process cache of values read from the database (list totals,
// the smart collections). An entry lives for ttl at most, which bounds how stale it may
// be after a write through another process; a write through this process drops every
// entry at once (invalidate), so this process never serves a value older than its own
// committed writes (docs/decisions/0085).
//
// A read that misses takes a generation with get, reads the database, and hands the
// generation back to put: a value read while a write committed is not stored.
type memo[V any] struct {
	ttl time.Duration
	max int // entries at most; a full cache starts over
	now func() time.Time

	mu      sync.Mutex
	gen     uint64
	entries map[string]memoEntry[V]
}

type memoEntry[V any] struct {
	value   V
	expires time.Time
}

func newMemo[V any](ttl time.Duration, maxEntries int) *memo[V] {
	return &memo[V]{ttl: ttl, max: maxEntries, now: time.Now, entries: map[string]memoEntry[V]{}}
}

// get returns the live value under key, or false and the generation to store a fresh
// value under.
func (m *memo[V]) get(key string) (value V, gen uint64, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, found := m.entries[key]
	if found && m.now().Before(e.expires) {
		return e.value, m.gen, true
	}
	return value, m.gen, false
}

// put stores value under key unless the cache was invalidated since gen was taken.
func (m *memo[V]) put(key string, gen uint64, value V) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if gen != m.gen {
		return
	}
	if len(m.entries) >= m.max {
		clear(m.entries)
	}
	m.entries[key] = memoEntry[V]{value: value, expires: m.now().Add(m.ttl)}
}

// invalidate drops every entry; call it after a write commits.
func (m *memo[V]) invalidate() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.gen++
	clear(m.entries)
}
