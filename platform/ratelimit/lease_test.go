package ratelimit

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gocommerce/commerce/platform/config"
)

// scriptCounter counts the limiter's script runs (EVALSHA/EVAL of the take script).
type scriptCounter struct{ n atomic.Int64 }

func (c *scriptCounter) DialHook(next redis.DialHook) redis.DialHook { return next }
func (c *scriptCounter) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if name := strings.ToLower(cmd.Name()); name == "evalsha" || name == "eval" {
			c.n.Add(1)
		}
		return next(ctx, cmd)
	}
}
func (c *scriptCounter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

// A busy client is served from leases: far fewer Redis round trips than requests, and
// Remaining still drops by one per request.
func TestRedisLeasesSkipRoundTrips(t *testing.T) {
	t.Parallel()
	e, counter := busyRedisEnv(t)

	const n = 500
	last := 10_000
	for i := range n {
		w := e.get("/api/v1/ping", ipA, "")
		status(t, w, http.StatusOK)
		h := rateHeaders(t, w)
		eq(t, h.Policy, "10000;w=3600", "policy (the hourly rule is the most restrictive)")
		// The hourly allowance refills by about 3 per second: never more than 1 between
		// two requests here.
		if h.Remaining > last || h.Remaining < last-1 {
			t.Fatalf("request %d: remaining %d after %d", i, h.Remaining, last)
		}
		last = h.Remaining
	}
	if last > 10_000-n+3 || last < 10_000-n-1 {
		t.Fatalf("remaining %d after %d requests", last, n)
	}
	if got := counter.n.Load(); got > n/10 {
		t.Fatalf("%d script runs for %d requests, want at most %d", got, n, n/10)
	}
}

// A lease that expires unused is given back with the next take.
func TestRedisTakeRefunds(t *testing.T) {
	t.Parallel()
	rdb, prefix := redisClient(t)
	s := newRedisStore(rdb)
	ctx := context.Background()
	rules := []rule{allowanceRule("h", 1000, time.Hour)}
	keys := []string{"rate:" + prefix + "h:x"}
	g, err := s.take(ctx, keys, rules, 10, 0)
	if err != nil {
		t.Fatal(err)
	}
	eq(t, g.n, 10, "granted")
	eq(t, g.rules[0].remaining, 990, "remaining after 10")
	g, err = s.take(ctx, keys, rules, 1, 9) // 9 of the 10 were not used
	if err != nil {
		t.Fatal(err)
	}
	eq(t, g.n, 1, "granted")
	eq(t, g.rules[0].remaining, 998, "remaining after 1 + 1 used")

	// All or nothing: a second rule that cannot admit leaves the first uncharged.
	tight := []rule{allowanceRule("h", 1000, time.Hour), allowanceRule("auth", 1, time.Minute)}
	tkeys := []string{keys[0], "rate:" + prefix + "auth:x"}
	if g, err = s.take(ctx, tkeys, tight, 5, 0); err != nil {
		t.Fatal(err)
	}
	eq(t, g.n, 1, "granted by the tighter rule")
	eq(t, g.rules[0].remaining, 997, "hourly after 1")
	if g, err = s.take(ctx, tkeys, tight, 1, 0); err != nil {
		t.Fatal(err)
	}
	eq(t, g.n, 0, "refused")
	eq(t, g.refusedBy, 1, "refused by")
	if g.rules[1].retryAfter <= 50*time.Second || g.rules[1].retryAfter > time.Minute {
		t.Fatalf("retry after %v, want about a minute", g.rules[1].retryAfter)
	}
	if g, err = s.take(ctx, keys, rules, 1, 0); err != nil {
		t.Fatal(err)
	}
	eq(t, g.rules[0].remaining, 996, "hourly not charged by the refused request")
}

// Leases never let two instances admit more than the limit, and give back what they
// did not use: 300 concurrent requests over two instances for 100 per hour.
func TestRedisLeasesAcrossInstances(t *testing.T) {
	t.Parallel()
	rdb, prefix := redisClient(t)
	cfg := testConfig()
	cfg.RateLimiting.Anonymous = config.Limit{RequestsPerMinute: 1_000_000, BurstCapacity: 1_000_000, RequestsPerHour: 100}
	servers := []*env{newRedisEnv(t, cfg, rdb, prefix), newRedisEnv(t, cfg, rdb, prefix)}
	var admitted, refused atomic.Int64
	var wg sync.WaitGroup
	for i := range 300 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			switch w := servers[i%2].get("/api/v1/ping", ipA, ""); w.Code {
			case http.StatusOK:
				admitted.Add(1)
			case http.StatusTooManyRequests:
				refused.Add(1)
			default:
				t.Errorf("status %d", w.Code)
			}
		}()
	}
	wg.Wait()
	// Near the limit a lease is at most 1/8 of what is left, so at the end at most a
	// few requests can sit unused in the other instance's lease.
	if a := admitted.Load(); a > 100 || a < 95 {
		t.Fatalf("admitted %d of 300 for a limit of 100 (refused %d)", a, refused.Load())
	}
	// After leaseTTL, unused requests go back to Redis with the next take: in all,
	// exactly the limit is admitted.
	time.Sleep(leaseTTL + 50*time.Millisecond)
	total := admitted.Load()
	for refusals := 0; refusals < 4; {
		for _, e := range servers {
			if e.get("/api/v1/ping", ipA, "").Code == http.StatusOK {
				total++
				refusals = 0
			} else {
				refusals++
			}
		}
	}
	eq(t, total, int64(100), "admitted in all")
}

func TestLeaseSizing(t *testing.T) {
	t.Parallel()
	now := t0
	le := &lease{size: 1}
	n, refund := le.nextTake(now)
	eq(t, [2]int{n, refund}, [2]int{1, 0}, "first take")
	big := grant{n: 1, rules: []ruleState{{remaining: 1000}}}
	le.record(big, now)
	for _, want := range []int{2, 4, 8, 16, 32, 64, 64} { // used up early: doubles up to maxLease
		n, refund = le.nextTake(now)
		eq(t, [2]int{n, refund}, [2]int{want, 0}, "busy client")
		le.record(grant{n: n, rules: big.rules}, now)
		for le.admitLocal(now) {
		}
	}
	// Expired with 63 unused: they are given back and the size halves.
	le.record(grant{n: 64, rules: big.rules}, now)
	later := now.Add(leaseTTL)
	if le.admitLocal(later) {
		t.Fatal("an expired lease admitted")
	}
	n, refund = le.nextTake(later)
	eq(t, [2]int{n, refund}, [2]int{32, 63}, "after expiry")
	// Close to the limit: one request per take.
	le.record(grant{n: 1, rules: []ruleState{{remaining: 12}}}, later)
	n, _ = le.nextTake(later)
	eq(t, n, 1, "near the limit")
}

// The lease table forgets expired leases every leaseSweepEvery and stays bounded.
func TestLeaseTableBounded(t *testing.T) {
	t.Parallel()
	tab := newLeaseTable(3)
	now := t0
	for _, k := range []string{"a", "b", "c"} {
		tab.get(k, now).record(grant{n: 2, rules: []ruleState{{remaining: 100}}}, now)
	}
	// Full of live leases: a new client gets a lease that is not kept.
	if le := tab.get("d", now); tab.get("d", now) == le {
		t.Fatal("a fourth lease was kept in a table of 3 live ones")
	}
	eq(t, len(tab.m), 3, "entries")
	// Once expired, the next sweep drops them.
	later := now.Add(leaseSweepEvery)
	tab.get("e", later)
	eq(t, len(tab.m), 1, "entries after the sweep")
}

// busyRedisEnv is a Redis env whose anonymous limits a busy client never reaches
// (10,000 an hour), with its Redis scripts counted.
func busyRedisEnv(t *testing.T) (*env, *scriptCounter) {
	t.Helper()
	rdb, prefix := redisClient(t)
	counter := &scriptCounter{}
	rdb.AddHook(counter)
	cfg := testConfig()
	cfg.RateLimiting.Anonymous = config.Limit{RequestsPerMinute: 1_000_000, BurstCapacity: 1_000_000, RequestsPerHour: 10_000}
	return newRedisEnv(t, cfg, rdb, prefix), counter
}
