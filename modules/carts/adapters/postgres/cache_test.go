package postgres

import (
	"testing"
	"time"

	"github.com/gocommerce/commerce/modules/carts/domain"
)

// The cache hands out copies, forgets carts after cacheTTL and, swept, holds nothing,
// so that an idle server keeps no carts in memory.
func TestCartCacheCopiesAndExpires(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_700_000_000, 0)
	k := newCartCache()
	k.now = func() time.Time { return now }
	c := domain.New("c1", "", "USD", now, time.Hour)
	c.Items = []*domain.Item{{ID: "i1", Quantity: 1, CustomAttributes: map[string]string{"a": "b"}}}
	k.put(c)
	got, ok := k.get("c1")
	if !ok || got.Items[0].Quantity != 1 {
		t.Fatalf("get after put: %v %v", got, ok)
	}
	got.Items[0].Quantity, got.Items[0].CustomAttributes["a"] = 5, "changed"
	if again, _ := k.get("c1"); again.Items[0].Quantity != 1 || again.Items[0].CustomAttributes["a"] != "b" {
		t.Fatal("a change of a copy reached the cache")
	}
	now = now.Add(cacheTTL + time.Millisecond)
	if _, ok := k.get("c1"); ok {
		t.Fatal("an expired cart was handed out")
	}
	k.sweep()
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.entries) != 0 || k.sweeping {
		t.Fatalf("after the sweep: %d entries, sweeping %v", len(k.entries), k.sweeping)
	}
}
