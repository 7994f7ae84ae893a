package ratelimit

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// Usage is the admin view of current usage.
type Usage struct {
	Global   GlobalUsage   `json:"global"`
	ByClient []ClientUsage `json:"by_client"`
}

// GlobalUsage is the configured default (API key) per-minute limit and the number of
// requests seen in the last minute across all clients.
type GlobalUsage struct {
	RequestsPerMinute int `json:"requests_per_minute"`
	CurrentUsage      int `json:"current_usage"`
}

// ClientUsage is one client's requests in the last minute against its per-minute
// limit; Remaining is max(0, Limit - RequestsLastMinute).
type ClientUsage struct {
	ClientID           string `json:"client_id"`
	RequestsLastMinute int    `json:"requests_last_minute"`
	Limit              int    `json:"limit"`
	Remaining          int    `json:"remaining"`
}

// Usage reports requests in the last minute per client, busiest first. With Redis it
// reads the shared counters (every instance's requests); otherwise this process's.
func (l *Limiter) Usage(ctx context.Context) (Usage, error) {
	now := l.now()
	var (
		clients []ClientUsage
		err     error
	)
	if l.shared != nil {
		if l.fallback.active.Load() {
			return Usage{}, errStoreDown
		}
		if err := l.shared.flush(ctx); err != nil {
			return Usage{}, err
		}
		clients, err = l.shared.snapshot(ctx, now, l.local.max)
		if err != nil {
			return Usage{}, err
		}
	} else {
		clients = l.local.snapshot(now)
	}
	total := 0
	for i := range clients {
		total += clients[i].RequestsLastMinute
		clients[i].Remaining = max(clients[i].Limit-clients[i].RequestsLastMinute, 0)
	}
	slices.SortFunc(clients, func(a, b ClientUsage) int {
		if a.RequestsLastMinute != b.RequestsLastMinute {
			return b.RequestsLastMinute - a.RequestsLastMinute
		}
		return strings.Compare(a.ClientID, b.ClientID)
	})
	if clients == nil {
		clients = []ClientUsage{}
	}
	return Usage{
		Global:   GlobalUsage{RequestsPerMinute: l.cfg.Default.RequestsPerMinute, CurrentUsage: total},
		ByClient: clients,
	}, nil
}

// tracker counts requests per client in one-second buckets over the last minute, in
// memory. Clients idle for a minute are dropped; at most max clients are tracked.
type tracker struct {
	mu        sync.Mutex
	max       int
	clients   map[string]*clientWindow
	lastPrune int64
}

// clientWindow is a ring of per-second counts, with how much of each second has been
// written to Redis (sent).
type clientWindow struct {
	limit  int
	last   int64 // last second seen
	secs   [window]int64
	counts [window]int64
	sent   [window]int64
}

func newTracker(max int) *tracker {
	return &tracker{max: max, clients: map[string]*clientWindow{}}
}

func (w *clientWindow) add(sec int64) {
	i := sec % window
	if i < 0 {
		i += window
	}
	switch {
	case w.secs[i] == sec:
	case w.secs[i] < sec:
		w.secs[i], w.counts[i], w.sent[i] = sec, 0, 0
	default: // a second older than the bucket's: out of the window already
		return
	}
	w.counts[i]++
	w.last = max(w.last, sec)
}

// total is the number of requests in the window ending at sec.
func (w *clientWindow) total(sec int64) int {
	n := int64(0)
	for i, s := range w.secs {
		if s > sec-window && s <= sec {
			n += w.counts[i]
		}
	}
	return int(n)
}

// record counts one request of client id, whose per-minute limit is limit.
func (t *tracker) record(id string, limit int, now time.Time) {
	sec := now.Unix()
	t.mu.Lock()
	defer t.mu.Unlock()
	w, ok := t.clients[id]
	if !ok {
		if len(t.clients) >= t.max {
			if sec != t.lastPrune {
				t.lastPrune = sec
				t.pruneLocked(sec)
			}
			if len(t.clients) >= t.max {
				return // full of active clients: this one is limited but not tracked
			}
		}
		w = &clientWindow{}
		t.clients[id] = w
	}
	w.limit = limit
	w.add(sec)
}

func (t *tracker) pruneLocked(sec int64) {
	for id, w := range t.clients {
		if w.last <= sec-window {
			delete(t.clients, id)
		}
	}
}

// snapshot drops idle clients and returns the others' usage (unsorted, Remaining unset).
func (t *tracker) snapshot(now time.Time) []ClientUsage {
	sec := now.Unix()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.pruneLocked(sec)
	out := make([]ClientUsage, 0, len(t.clients))
	for id, w := range t.clients {
		if n := w.total(sec); n > 0 {
			out = append(out, ClientUsage{ClientID: id, RequestsLastMinute: n, Limit: w.limit})
		}
	}
	return out
}

// clientDelta is what one client counted since the last write to Redis.
type clientDelta struct {
	id    string
	limit int
	last  int64           // last second seen
	secs  map[int64]int64 // second → requests not written yet
}

// unsent returns the counts not written to Redis yet and marks them written.
func (t *tracker) unsent() []clientDelta {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []clientDelta
	for id, w := range t.clients {
		var d *clientDelta
		for i := range w.secs {
			if n := w.counts[i] - w.sent[i]; n > 0 {
				if d == nil {
					out = append(out, clientDelta{id: id, limit: w.limit, last: w.last, secs: map[int64]int64{}})
					d = &out[len(out)-1]
				}
				d.secs[w.secs[i]] = n
				w.sent[i] = w.counts[i]
			}
		}
	}
	return out
}

// sharedUsage keeps the same per-second counts in Redis, so every instance sees the
// cluster's usage: a hash per client (field = Unix second, value = count, plus field
// "limit"), expiring two windows after the client's last request, and a sorted set of
// client ids scored by the second they were last seen.
//
// The tracker counts requests in process; they are written in batches (one pipeline per
// usageFlushInterval, whatever the request rate), so the admin view may lag by up to
// that interval for requests served by other instances; this instance's own unsent
// counts are written before it reads.
type sharedUsage struct {
	rdb    *redis.Client
	prefix string
	script *redis.Script
	local  *tracker
	warn   func(msg string, err error)
	// paused reports an outage of the store (the limiter's fallback): counts are kept
	// in the tracker and written once it is back, as far as they are still in the
	// window. Nil: never paused.
	paused func() bool

	scheduled atomic.Bool // a flush is due
}

// usageFlushInterval is how often counted requests are written to Redis.
const usageFlushInterval = time.Second

// recordScript adds counts to KEYS[1]: ARGV[1] is the limit, ARGV[2] the window,
// ARGV[3] the latest second, then pairs of (second, count). It refreshes the TTL and
// drops seconds older than the window once the hash has grown to two windows.
const recordScript = `
local now = tonumber(ARGV[3])
local window = tonumber(ARGV[2])
for i = 4, #ARGV, 2 do
  redis.call('HINCRBY', KEYS[1], ARGV[i], ARGV[i + 1])
end
redis.call('HSET', KEYS[1], 'limit', ARGV[1])
redis.call('EXPIRE', KEYS[1], window * 2)
if redis.call('HLEN', KEYS[1]) > window * 2 then
  for _, f in ipairs(redis.call('HKEYS', KEYS[1])) do
    local s = tonumber(f)
    if s ~= nil and s <= now - window then
      redis.call('HDEL', KEYS[1], f)
    end
  end
end
return 1
`

func newSharedUsage(rdb *redis.Client, prefix string, local *tracker, warn func(string, error)) *sharedUsage {
	return &sharedUsage{rdb: rdb, prefix: prefix + "usage:", script: redis.NewScript(recordScript), local: local, warn: warn}
}

func (s *sharedUsage) clientKey(id string) string { return s.prefix + "c:" + id }
func (s *sharedUsage) activeKey() string          { return s.prefix + "active" }

// schedule makes sure a flush runs within usageFlushInterval (call after counting a
// request in the tracker).
func (s *sharedUsage) schedule() {
	if s.scheduled.Load() || !s.scheduled.CompareAndSwap(false, true) {
		return
	}
	time.AfterFunc(usageFlushInterval, func() {
		if s.paused != nil && s.paused() {
			s.scheduled.Store(false)
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
		defer cancel()
		if err := s.flush(ctx); err != nil {
			s.warn("rate-limit usage not recorded", err)
		}
	})
}

// flush writes the tracker's unsent counts (one pipelined round trip). On failure they
// are dropped: usage is a view, not a limit.
func (s *sharedUsage) flush(ctx context.Context) error {
	s.scheduled.Store(false)
	batch := s.local.unsent()
	if len(batch) == 0 {
		return nil
	}
	pipe := s.rdb.Pipeline()
	members := make([]redis.Z, 0, len(batch))
	for _, d := range batch {
		args := make([]any, 0, 3+2*len(d.secs))
		args = append(args, d.limit, window, d.last)
		for sec, n := range d.secs {
			args = append(args, sec, n)
		}
		s.script.Eval(ctx, pipe, []string{s.clientKey(d.id)}, args...)
		members = append(members, redis.Z{Score: float64(d.last), Member: d.id})
	}
	pipe.ZAdd(ctx, s.activeKey(), members...)
	pipe.Expire(ctx, s.activeKey(), 2*window*time.Second)
	if _, err := pipe.Exec(ctx); err != nil {
		return fmt.Errorf("ratelimit: record usage: %w", err)
	}
	return nil
}

// snapshot drops idle clients from the active set and reads the others' counts (at
// most max, the most recently seen).
func (s *sharedUsage) snapshot(ctx context.Context, now time.Time, max int) ([]ClientUsage, error) {
	sec := now.Unix()
	cutoff := sec - window
	if err := s.rdb.ZRemRangeByScore(ctx, s.activeKey(), "-inf", strconv.FormatInt(cutoff, 10)).Err(); err != nil {
		return nil, fmt.Errorf("ratelimit: usage: %w", err)
	}
	ids, err := s.rdb.ZRevRange(ctx, s.activeKey(), 0, int64(max-1)).Result()
	if err != nil {
		return nil, fmt.Errorf("ratelimit: usage: %w", err)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	pipe := s.rdb.Pipeline()
	cmds := make([]*redis.MapStringStringCmd, len(ids))
	for i, id := range ids {
		cmds[i] = pipe.HGetAll(ctx, s.clientKey(id))
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return nil, fmt.Errorf("ratelimit: usage: %w", err)
	}
	out := make([]ClientUsage, 0, len(ids))
	for i, id := range ids {
		fields := cmds[i].Val()
		u := ClientUsage{ClientID: id}
		for f, v := range fields {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				continue
			}
			if f == "limit" {
				u.Limit = int(n)
				continue
			}
			// Seconds a little ahead of ours (clock skew between instances) count too.
			if s, err := strconv.ParseInt(f, 10, 64); err == nil && s > cutoff {
				u.RequestsLastMinute += int(n)
			}
		}
		if u.RequestsLastMinute > 0 {
			out = append(out, u)
		}
	}
	return out, nil
}
