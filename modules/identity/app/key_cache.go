package app

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/gocommerce/commerce/modules/identity/domain"
	"github.com/gocommerce/commerce/platform/auth"
	"github.com/gocommerce/commerce/platform/clock"
)

// KeyCache holds verified API keys in memory so that authenticating a request with a
// known key needs no database round trip. An entry is keyed by the key's prefix and
// holds the SHA-256 of the secret it was verified with: a lookup hits only when the
// presented secret hashes to the same value (compared in constant time), so a wrong
// secret never rides on a cached entry. Entries live for the configured TTL; revoked
// keys are cached too (as revoked), so hammering with a revoked key stays cheap.
//
// Invalidate removes an entry and bumps a generation counter; Put ignores entries
// loaded under an older generation, so a request that read the database before a
// revocation committed cannot put the stale state back.
type KeyCache struct {
	ttl     time.Duration
	clock   clock.Clock
	mu      sync.RWMutex
	entries map[string]*keyEntry
	gen     atomic.Uint64
}

type keyEntry struct {
	secretHash string
	keyID      string
	revoked    bool
	principal  auth.Principal
	expires    time.Time
}

// NewKeyCache builds the cache with the settings' TTL (0 disables caching).
func NewKeyCache(s Settings, clk clock.Clock) *KeyCache {
	return &KeyCache{ttl: s.KeyCacheTTL, clock: clk, entries: map[string]*keyEntry{}}
}

// get returns the live entry for prefix whose secret hash equals secretHash.
func (c *KeyCache) get(prefix, secretHash string) (*keyEntry, bool) {
	if c.ttl <= 0 {
		return nil, false
	}
	c.mu.RLock()
	e, ok := c.entries[prefix]
	c.mu.RUnlock()
	if !ok || !c.clock.Now().Before(e.expires) || !domain.SecretHashEqual(e.secretHash, secretHash) {
		return nil, false
	}
	return e, true
}

// generation is read before loading a key from the database.
func (c *KeyCache) generation() uint64 { return c.gen.Load() }

// put stores an entry loaded under generation gen, unless an invalidation happened since.
func (c *KeyCache) put(prefix string, e *keyEntry, gen uint64) {
	if c.ttl <= 0 {
		return
	}
	e.expires = c.clock.Now().Add(c.ttl)
	c.mu.Lock()
	if c.gen.Load() == gen {
		c.entries[prefix] = e
	}
	c.mu.Unlock()
}

// Invalidate drops the entry of prefix at once.
func (c *KeyCache) Invalidate(prefix string) {
	c.mu.Lock()
	delete(c.entries, prefix)
	c.gen.Add(1)
	c.mu.Unlock()
}

// Len is the number of entries (tests, metrics).
func (c *KeyCache) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.entries)
}

// liveValidPrefixes drops expired entries and lists the prefixes cached as valid.
func (c *KeyCache) liveValidPrefixes() []string {
	now := c.clock.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]string, 0, len(c.entries))
	for p, e := range c.entries {
		if !now.Before(e.expires) {
			delete(c.entries, p)
			continue
		}
		if !e.revoked {
			out = append(out, p)
		}
	}
	return out
}
