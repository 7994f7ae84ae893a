package ratelimit

import (
	"context"
	"sync"
	"time"
)

// GCRA (generic cell-rate algorithm) state is one "theoretical arrival time" (TAT) per
// rule and client. A rule of limit requests per window admits a request when
//
//	now >= TAT + interval - capacity*interval   (interval = window/limit, capacity = burst+1)
//
// and then moves TAT to max(TAT, now) + interval. Both stores below implement this; the
// Redis one as a Lua script with the same arithmetic.

// store keeps GCRA state.
type store interface {
	// take admits up to n requests (n >= 1) of one client against every rule at once:
	// k = min(n, what each rule can admit now). With k >= 1 every rule is charged k
	// requests; with k == 0 nothing is charged and refusedBy is the index of the first
	// rule (in order) that cannot admit a single request. refund first returns that many
	// requests leased earlier and not used. keys[i] is rule i's state key.
	take(ctx context.Context, keys []string, rules []rule, n, refund int) (grant, error)
	// peek reads every rule's state as it stands (remaining may be 0: the rule would
	// refuse) and changes nothing.
	peek(ctx context.Context, keys []string, rules []rule) ([]ruleState, error)
}

// grant is a store's answer.
type grant struct {
	n         int         // requests admitted (0: refused)
	refusedBy int         // with n == 0: the refusing rule's index
	rules     []ruleState // per rule, after the charge
}

// ruleState is one rule's state after a take.
type ruleState struct {
	remaining  int           // requests that would be admitted right now
	resetAfter time.Duration // until the rule is back to its initial state
	retryAfter time.Duration // refused rule only: until one request would be admitted
}

// interval is the emission interval of r.
func (r rule) interval() time.Duration {
	return max(r.window/time.Duration(r.limit), 1)
}

// capacity is how many requests r admits at once from its initial state.
func (r rule) capacity() int64 { return int64(r.burst) + 1 }

// fit is how many requests r admits now given its TAT (tat >= now).
func (r rule) fit(tat, now time.Time) int64 {
	ei := r.interval()
	return (r.capacity()*int64(ei) - int64(tat.Sub(now))) / int64(ei)
}

// memStore is the in-process store of the embedded mode: a map of TATs behind one
// mutex, bounded to maxKeys (when full, entries already back to their initial state
// are dropped first, then arbitrary ones, which forgets those clients' usage).
type memStore struct {
	mu      sync.Mutex
	now     func() time.Time
	tat     map[string]time.Time
	maxKeys int
}

func newMemStore(now func() time.Time, maxKeys int) *memStore {
	return &memStore{now: now, tat: map[string]time.Time{}, maxKeys: maxKeys}
}

func (m *memStore) take(_ context.Context, keys []string, rules []rule, n, _ int) (grant, error) {
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	tats := make([]time.Time, len(rules))
	g := grant{n: n, refusedBy: -1, rules: make([]ruleState, len(rules))}
	for i, r := range rules {
		tat := m.tat[keys[i]]
		if tat.Before(now) {
			tat = now
		}
		tats[i] = tat
		fit := r.fit(tat, now)
		if fit < 1 && g.refusedBy < 0 {
			g.refusedBy = i
		}
		g.n = int(min(int64(g.n), max(fit, 0)))
	}
	if g.n == 0 {
		r, tat := rules[g.refusedBy], tats[g.refusedBy]
		g.rules[g.refusedBy] = ruleState{
			resetAfter: tat.Sub(now),
			retryAfter: tat.Add(r.interval() - time.Duration(r.capacity())*r.interval()).Sub(now),
		}
		return g, nil
	}
	g.refusedBy = 0
	m.makeRoom(len(keys), now)
	for i, r := range rules {
		next := tats[i].Add(time.Duration(g.n) * r.interval())
		m.tat[keys[i]] = next
		g.rules[i] = ruleState{remaining: int(r.fit(next, now)), resetAfter: next.Sub(now)}
	}
	return g, nil
}

func (m *memStore) peek(_ context.Context, keys []string, rules []rule) ([]ruleState, error) {
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]ruleState, len(rules))
	for i, r := range rules {
		tat := m.tat[keys[i]]
		if tat.Before(now) {
			tat = now
		}
		out[i] = ruleState{remaining: int(max(r.fit(tat, now), 0)), resetAfter: tat.Sub(now)}
	}
	return out, nil
}

// makeRoom keeps the map under maxKeys before n keys are written.
func (m *memStore) makeRoom(n int, now time.Time) {
	if len(m.tat)+n <= m.maxKeys {
		return
	}
	for k, t := range m.tat {
		if !t.After(now) {
			delete(m.tat, k)
		}
	}
	for k := range m.tat {
		if len(m.tat)+n <= m.maxKeys {
			break
		}
		delete(m.tat, k)
	}
}
