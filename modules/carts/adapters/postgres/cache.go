package postgres

import (
	"sync"
	"time"

	"github.com/gocommerce/commerce/modules/carts/domain"
)

// Bounds of the cache of recently written carts. Entries live cacheTTL and are swept
// within another cacheTTL, so an idle server holds none after 4 s, when its idle
// trimmer returns freed memory to the OS (platform/httpx idleTrimAfter).
const (
	cacheSize = 4096
	cacheTTL  = 1500 * time.Millisecond
)

// cartCache keeps copies of the carts this process wrote last, so that the next
// unlocked change of a cart can skip reading it (Apply). A copy may be stale (another
// instance, or a locked change, wrote the cart since): the versioned write then
// applies nothing and the change runs again on a fresh read, and any answer other
// than success is taken from a fresh read. Staleness costs a round trip, never a
// wrong write (docs/decisions/0089).
type cartCache struct {
	mu       sync.Mutex
	entries  map[domain.CartID]cacheEntry
	now      func() time.Time
	sweeping bool // a sweep is scheduled
}

type cacheEntry struct {
	cart *domain.Cart
	at   time.Time
}

func newCartCache() *cartCache {
	return &cartCache{entries: map[domain.CartID]cacheEntry{}, now: time.Now}
}

// get returns a copy of the cart written last by this process, if recent. The
// methods of a nil cache (switched off: WriteOptions.Cache) keep nothing.
func (k *cartCache) get(id domain.CartID) (*domain.Cart, bool) {
	if k == nil {
		return nil, false
	}
	k.mu.Lock()
	e, ok := k.entries[id]
	k.mu.Unlock()
	if !ok || k.now().Sub(e.at) > cacheTTL {
		return nil, false
	}
	return e.cart.Clone(), true
}

// put keeps a copy of c as just written. When the cache is full, expired entries are
// dropped, and if none expired, any eighth of the entries.
func (k *cartCache) put(c *domain.Cart) {
	if k == nil {
		return
	}
	now := k.now()
	cp := c.Clone()
	k.mu.Lock()
	defer k.mu.Unlock()
	if _, ok := k.entries[c.ID]; !ok && len(k.entries) >= cacheSize {
		k.evict(now)
	}
	k.entries[c.ID] = cacheEntry{cart: cp, at: now}
	if !k.sweeping {
		k.sweeping = true
		time.AfterFunc(cacheTTL, k.sweep)
	}
}

// sweep drops expired entries, and comes back while some are left.
func (k *cartCache) sweep() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.dropExpired(k.now())
	if len(k.entries) > 0 {
		time.AfterFunc(cacheTTL, k.sweep)
		return
	}
	k.sweeping = false
}

func (k *cartCache) evict(now time.Time) {
	k.dropExpired(now)
	for id := range k.entries {
		if len(k.entries) < cacheSize-cacheSize/8 {
			return
		}
		delete(k.entries, id)
	}
}

func (k *cartCache) dropExpired(now time.Time) {
	for id, e := range k.entries {
		if now.Sub(e.at) > cacheTTL {
			delete(k.entries, id)
		}
	}
}

// drop forgets a cart (written by a locked change, or deleted).
func (k *cartCache) drop(id domain.CartID) {
	if k == nil {
		return
	}
	k.mu.Lock()
	delete(k.entries, id)
	k.mu.Unlock()
}
