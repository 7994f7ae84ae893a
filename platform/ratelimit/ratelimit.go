package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/wire"
	"github.com/redis/go-redis/v9"
	"go.uber.org/zap"

	"github.com/gocommerce/commerce/platform/auth"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/metrics"
)

// Response headers.
const (
	HeaderLimit      = "X-RateLimit-Limit"
	HeaderRemaining  = "X-RateLimit-Remaining"
	HeaderReset      = "X-RateLimit-Reset"
	HeaderPolicy     = "X-RateLimit-Policy"
	HeaderRetryAfter = "Retry-After"
)

// CodeExceeded is the error code of the 429 body.
const CodeExceeded = "RATE_LIMIT_EXCEEDED"

// Client types, as used by the commerce_rate_limit_*_total metrics.
const (
	TypeAnonymous     = "anonymous"
	TypeAuthenticated = "authenticated"
)

const (
	// DefaultKeyPrefix prefixes every Redis key the limiter writes.
	DefaultKeyPrefix = "commerce:ratelimit:"
	// window is the usage window (seconds).
	window = 60
	// maxMemKeys bounds the in-memory GCRA store.
	maxMemKeys = 100_000
	// maxTrackedClients bounds the usage tracking per process (and the admin view).
	maxTrackedClients = 10_000
	// storeTimeout bounds the store operations of one request: a healthy Redis runs the
	// script in well under a millisecond, and a Redis that does not answer within this
	// switches the process to its memory store (fallback.go) instead of adding seconds.
	storeTimeout = 250 * time.Millisecond
	// warnInterval is the minimum time between two "store unavailable" warnings.
	warnInterval = 10 * time.Second
	// maxRate caps a scaled limit so GCRA's emission interval stays positive.
	maxRate = 1 << 30
)

// authPrefixes are the authentication paths that share rate_limiting.auth.
var authPrefixes = []string{"/api/v1/auth/", "/api/v1/admin/auth/"}

// exemptPaths are never limited (probes and metrics: decision 0093); their responses
// report the caller's current figures without charging them (decision 0104).
var exemptPaths = []string{"/health", "/ready", "/metrics"}

// UploadsPath is the rate_limiting.endpoints entry of the file-upload limit (the spec's
// configuration example): besides its own path and the paths below it, it limits every
// upload route, i.e. every route that takes multipart bodies (httpx.IsUpload), in one
// bucket per client (decision 0105).
const UploadsPath = "/api/v1/uploads"

// ProviderSet provides the *Limiter, its httpx.RateLimitMiddleware and the admin module.
var ProviderSet = wire.NewSet(New, ProvideMiddleware, NewAdminModule)

// Limiter enforces the configured rate limits. It is safe for concurrent use.
type Limiter struct {
	cfg       config.RateLimiting
	log       *zap.Logger
	store     store        // GCRA state: in process, or in Redis
	leases    *leaseTable  // with Redis: requests taken ahead (nil in the embedded mode)
	fallback  *fallback    // with Redis: the per-process limits while it fails (nil in the embedded mode)
	prefix    string       // of the store's keys
	shared    *sharedUsage // nil in the embedded mode
	local     *tracker
	inst      *instruments
	now       func() time.Time
	endpoints []endpoint

	lastWarn   atomic.Int64
	suppressed atomic.Int64
}

// endpoint is one rate_limiting.endpoints entry.
type endpoint struct {
	path string
	rpm  int
}

// options are the knobs tests turn; New uses the defaults.
type options struct {
	prefix     string           // Redis key prefix
	now        func() time.Time // clock of the memory store, usage and headers
	maxClients int              // usage tracking bound
}

// New builds the limiter. rdb may be nil: the counters then live in this process
// (embedded mode); otherwise they live in Redis and are shared by every instance, and
// while Redis fails in this process (fallback.go). rdb should honour context deadlines
// (redisx.Options), so that a Redis that hangs costs a request at most storeTimeout.
// reg may be nil (no metrics are registered).
func New(cfg *config.Config, rdb *redis.Client, reg *metrics.Registry, log *zap.Logger) (*Limiter, error) {
	return newLimiter(cfg, rdb, reg, log, options{})
}

func newLimiter(cfg *config.Config, rdb *redis.Client, reg *metrics.Registry, log *zap.Logger, o options) (*Limiter, error) {
	if cfg == nil {
		return nil, errors.New("ratelimit: nil config")
	}
	if log == nil {
		log = zap.NewNop()
	}
	if o.prefix == "" {
		o.prefix = DefaultKeyPrefix
	}
	if o.now == nil {
		o.now = time.Now
	}
	if o.maxClients <= 0 {
		o.maxClients = maxTrackedClients
	}
	rl := cfg.RateLimiting
	if rl.Enabled {
		if err := validate(rl); err != nil {
			return nil, err
		}
	}
	l := &Limiter{
		cfg:   rl,
		log:   log.Named("ratelimit"),
		local: newTracker(o.maxClients),
		now:   o.now,
	}
	for p, e := range rl.Endpoints {
		p = normalizePath(p)
		if p == "" || e.RequestsPerMinute <= 0 {
			continue
		}
		l.endpoints = append(l.endpoints, endpoint{path: p, rpm: e.RequestsPerMinute})
	}
	// Most restrictive first, then by path, so the check order is deterministic.
	slices.SortFunc(l.endpoints, func(a, b endpoint) int {
		if a.rpm != b.rpm {
			return a.rpm - b.rpm
		}
		return strings.Compare(a.path, b.path)
	})

	mode := "memory"
	if rdb != nil {
		// One atomic Lua script checks and charges every rule of a request (no
		// compare-and-swap loop that contention could exhaust), and leases let busy
		// clients skip it for most requests (lease.go).
		l.store = newRedisStore(rdb)
		l.leases = newLeaseTable(maxTrackedClients)
		l.prefix = "rate:" + o.prefix + "gcra:"
		l.shared = newSharedUsage(rdb, o.prefix, l.local, l.warn)
		mode = "redis"
	} else {
		l.store = newMemStore(o.now, maxMemKeys)
	}
	inst, err := newInstruments(reg, l.local, l.now)
	if err != nil {
		return nil, err
	}
	l.inst = inst
	if rdb != nil {
		l.fallback = &fallback{store: newMemStore(o.now, maxMemKeys), log: l.log, inst: inst, probe: l.probe}
		l.shared.paused = l.fallback.active.Load
	}
	l.log.Info("rate limiting", zap.Bool("enabled", rl.Enabled), zap.String("store", mode))
	return l, nil
}

// validate checks the limits New relies on (config.Validate checks them too, with the
// same key names, for configurations that come from Load).
func validate(rl config.RateLimiting) error {
	var errs []error
	for name, lim := range map[string]config.Limit{"default": rl.Default, "jwt": rl.JWT, "anonymous": rl.Anonymous} {
		if lim.RequestsPerMinute <= 0 {
			errs = append(errs, fmt.Errorf("ratelimit: rate_limiting.%s.requests_per_minute: must be positive", name))
		}
		if lim.BurstCapacity < 0 {
			errs = append(errs, fmt.Errorf("ratelimit: rate_limiting.%s.burst_capacity: must not be negative", name))
		}
		if lim.RequestsPerHour < 0 {
			errs = append(errs, fmt.Errorf("ratelimit: rate_limiting.%s.requests_per_hour: must not be negative", name))
		}
	}
	if rl.Auth.RequestsPerMinute < 0 {
		errs = append(errs, errors.New("ratelimit: rate_limiting.auth.requests_per_minute: must not be negative"))
	}
	return errors.Join(errs...)
}

// ProvideMiddleware is the wire provider of the limiter's middleware.
func ProvideMiddleware(l *Limiter) httpx.RateLimitMiddleware { return l.Middleware() }

// Middleware returns the gin middleware. httpx installs it after authentication, so
// the principal (if any) is known.
func (l *Limiter) Middleware() httpx.RateLimitMiddleware {
	return func(c *gin.Context) { l.handle(c) }
}

// rule is one GCRA limit applied to a request.
type rule struct {
	name   string        // store key component: "m", "h", "auth", "ep:/path"
	limit  int           // X-RateLimit-Limit
	window time.Duration // X-RateLimit-Policy window
	burst  int           // requests allowed at once beyond the first
}

// client is the caller as the limiter sees it.
type client struct {
	id            string
	authenticated bool
	limit         config.Limit // after the multiplier
}

// outcome is the verdict on one request, described by one rule: the refusing rule, or
// the most restrictive admitting one.
type outcome struct {
	rule       rule
	limited    bool
	remaining  int
	reset      time.Time     // when the rule is back to its initial state
	retryAfter time.Duration // refused only
}

func (l *Limiter) handle(c *gin.Context) {
	p := c.Request.URL.Path
	if !l.cfg.Enabled {
		c.Next()
		return
	}
	cl := l.classify(c)
	now := l.now()
	if isExempt(p) {
		l.report(c, cl, p, now)
		c.Next()
		return
	}
	l.inst.seen(cl.authenticated)
	l.local.record(cl.id, cl.limit.RequestsPerMinute, now)

	if l.shared != nil {
		l.shared.schedule()
	}
	out, err := l.check(c.Request.Context(), cl.id, l.rules(cl, p, httpx.IsUpload(c)), now)
	if err != nil { // only a store without a fallback fails (none today)
		l.warn("rate-limit check failed; request allowed without limits", err)
		c.Next()
		return
	}

	h := c.Writer.Header()
	setHeaders(h, out)
	if !out.limited {
		c.Next()
		return
	}
	l.inst.reject(cl.authenticated)
	retry := max(int(math.Ceil(out.retryAfter.Seconds())), 1)
	h.Set(HeaderRetryAfter, strconv.Itoa(retry))
	c.AbortWithStatusJSON(http.StatusTooManyRequests, exceededBody{Error: exceededError{
		Code:       CodeExceeded,
		Message:    fmt.Sprintf("Rate limit exceeded. Try again in %d seconds.", retry),
		RetryAfter: retry,
		Category:   "rate_limit",
		RequestID:  httpx.RequestID(c),
	}})
}

// report puts the client's current figures on the response of an exempt path: the
// headers a request of the client's would be described by, computed without taking
// from its allowance (decision 0104). The request is not counted in the usage either.
func (l *Limiter) report(c *gin.Context, cl client, p string, now time.Time) {
	out, err := l.peek(c.Request.Context(), cl.id, l.rules(cl, p, false), now)
	if err != nil { // only a store without a fallback fails (none today)
		l.warn("rate-limit peek failed; response sent without headers", err)
		return
	}
	setHeaders(c.Writer.Header(), out)
}

// setHeaders writes the four X-RateLimit-* headers describing out.
func setHeaders(h http.Header, out outcome) {
	h.Set(HeaderLimit, strconv.Itoa(out.rule.limit))
	h.Set(HeaderRemaining, strconv.Itoa(out.remaining))
	h.Set(HeaderReset, strconv.FormatInt(ceilUnix(out.reset), 10))
	h.Set(HeaderPolicy, strconv.Itoa(out.rule.limit)+";w="+strconv.Itoa(int(out.rule.window/time.Second)))
}

// exceededBody is the 429 body the spec shows, plus the envelope's category and
// request_id.
type exceededBody struct {
	Error exceededError `json:"error"`
}

type exceededError struct {
	Code       string `json:"code"`
	Message    string `json:"message"`
	RetryAfter int    `json:"retry_after"`
	Category   string `json:"category"`
	RequestID  string `json:"request_id"`
}

// classify names the client and its (scaled) limits.
func (l *Limiter) classify(c *gin.Context) client {
	if p := httpx.Principal(c); p != nil {
		switch p.Kind {
		case auth.APIKey:
			return client{id: p.ClientID(), authenticated: true, limit: scale(l.cfg.Default, p.RateLimitMultiplier)}
		case auth.Customer, auth.Staff:
			return client{id: p.ClientID(), authenticated: true, limit: l.cfg.JWT}
		case auth.Anonymous:
		}
	}
	return client{id: "ip:" + c.ClientIP(), limit: l.cfg.Anonymous}
}

// scale applies an API key's multiplier (0 or negative means 1).
func scale(lim config.Limit, m float64) config.Limit {
	if m <= 0 || m == 1 || math.IsNaN(m) {
		return lim
	}
	f := func(n, floor int) int {
		v := math.Round(float64(n) * m)
		if v > maxRate {
			return maxRate
		}
		return max(int(v), floor)
	}
	out := config.Limit{
		RequestsPerMinute: f(lim.RequestsPerMinute, 1),
		BurstCapacity:     f(lim.BurstCapacity, 0),
	}
	if lim.RequestsPerHour > 0 {
		out.RequestsPerHour = f(lim.RequestsPerHour, 1)
	}
	return out
}

// rules lists the limits of one request, most specific first; upload says whether it
// is routed to an upload route (httpx.IsUpload).
func (l *Limiter) rules(cl client, reqPath string, upload bool) []rule {
	p := normalizePath(reqPath)
	var rs []rule
	for _, e := range l.endpoints {
		if p == e.path || strings.HasPrefix(p, e.path+"/") || (upload && e.path == UploadsPath) {
			rs = append(rs, allowanceRule("ep:"+e.path, e.rpm, time.Minute))
		}
	}
	if n := l.cfg.Auth.RequestsPerMinute; n > 0 && isAuthPath(p) {
		rs = append(rs, allowanceRule("auth", n, time.Minute))
	}
	rpm := min(cl.limit.RequestsPerMinute, maxRate)
	rs = append(rs, rule{name: "m", limit: rpm, window: time.Minute, burst: cl.limit.BurstCapacity})
	if cl.limit.RequestsPerHour > 0 {
		rs = append(rs, allowanceRule("h", cl.limit.RequestsPerHour, time.Hour))
	}
	return rs
}

// allowanceRule is n requests per window with the whole allowance usable at once.
func allowanceRule(name string, n int, w time.Duration) rule {
	n = min(n, maxRate)
	return rule{name: name, limit: n, window: w, burst: n - 1}
}

// check admits one request of the client against every rule at once (all or nothing:
// a request refused by one rule is not charged to the others), from the client's
// lease when it has one (Redis) or from the store. While Redis fails, the process's
// memory store decides (fallback.go).
func (l *Limiter) check(ctx context.Context, clientID string, rules []rule, now time.Time) (outcome, error) {
	if l.leases == nil {
		return l.checkOnce(ctx, l.store, clientID, rules, now)
	}
	if l.fallback.active.Load() {
		l.fallback.maybeProbe()
		return l.checkInMemory(ctx, clientID, rules, now)
	}
	le := l.leases.get(leaseKey(clientID, rules), now)
	le.mu.Lock()
	defer le.mu.Unlock()
	if l.fallback.active.Load() { // Redis failed while this request waited for the lease
		return l.checkInMemory(ctx, clientID, rules, now)
	}
	if le.admitLocal(now) {
		return verdict(rules, le.g, le.tokens, le.at), nil
	}
	n, refund := le.nextTake(now)
	g, err := l.take(ctx, l.store, clientID, rules, n, refund)
	if err != nil {
		le.record(grant{}, now)
		l.fallback.enter(err)
		return l.checkInMemory(ctx, clientID, rules, now)
	}
	le.record(g, now)
	return verdict(rules, g, le.tokens, now), nil
}

// checkOnce takes one request from st.
func (l *Limiter) checkOnce(ctx context.Context, st store, clientID string, rules []rule, now time.Time) (outcome, error) {
	g, err := l.take(ctx, st, clientID, rules, 1, 0)
	if err != nil {
		return outcome{}, err
	}
	return verdict(rules, g, 0, now), nil
}

// checkInMemory decides with the fallback's memory store (Redis down).
func (l *Limiter) checkInMemory(ctx context.Context, clientID string, rules []rule, now time.Time) (outcome, error) {
	l.fallback.decided()
	return l.checkOnce(ctx, l.fallback.store, clientID, rules, now)
}

// take asks st, within storeTimeout. A client that goes away does not cancel the take
// (only the store's own failure should switch to the fallback).
func (l *Limiter) take(ctx context.Context, st store, clientID string, rules []rule, n, refund int) (grant, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	g, err := st.take(ctx, l.keys(clientID, rules), rules, n, refund)
	if err != nil {
		return grant{}, fmt.Errorf("ratelimit: %w", err)
	}
	return g, nil
}

// keys are the store keys of the client's rules.
func (l *Limiter) keys(clientID string, rules []rule) []string {
	keys := make([]string, len(rules))
	for i, r := range rules {
		keys[i] = l.prefix + r.name + ":" + clientID
	}
	return keys
}

// peek describes the client's rules as they stand, charging nothing: what a request's
// headers would say, less that request. With Redis, a live lease of this instance
// answers without a round trip (its unused requests count as remaining, as they do in
// the headers of the requests it admits); while Redis fails, the memory store answers.
func (l *Limiter) peek(ctx context.Context, clientID string, rules []rule, now time.Time) (outcome, error) {
	if l.leases == nil {
		return l.peekStore(ctx, l.store, clientID, rules, now)
	}
	if l.fallback.active.Load() {
		l.fallback.maybeProbe()
		return l.peekStore(ctx, l.fallback.store, clientID, rules, now)
	}
	if le := l.leases.lookup(leaseKey(clientID, rules)); le != nil && le.mu.TryLock() {
		live := le.tokens > 0 && now.Before(le.expires)
		g, tokens, at := le.g, le.tokens, le.at
		le.mu.Unlock()
		if live {
			return verdict(rules, g, tokens, at), nil
		}
	}
	out, err := l.peekStore(ctx, l.store, clientID, rules, now)
	if err != nil {
		l.fallback.enter(err)
		return l.peekStore(ctx, l.fallback.store, clientID, rules, now)
	}
	return out, nil
}

// peekStore reads the client's rules from st, within storeTimeout.
func (l *Limiter) peekStore(ctx context.Context, st store, clientID string, rules []rule, now time.Time) (outcome, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	states, err := st.peek(ctx, l.keys(clientID, rules), rules)
	if err != nil {
		return outcome{}, fmt.Errorf("ratelimit: %w", err)
	}
	return verdict(rules, grant{n: 1, rules: states}, 0, now), nil
}

// probeRule is the rule of the fallback's probe: its key expires a millisecond after
// the take.
var probeRule = rule{name: "probe", limit: 1, window: time.Millisecond}

// probe runs the take script once against a key of its own: nil when Redis answers
// (and can write), which ends the fallback.
func (l *Limiter) probe(ctx context.Context) error {
	_, err := l.store.take(ctx, []string{l.prefix + "probe"}, []rule{probeRule}, 1, 0)
	return err
}

// leaseKey names a client's lease for one set of rules.
func leaseKey(clientID string, rules []rule) string {
	var b strings.Builder
	b.WriteString(clientID)
	for _, r := range rules {
		b.WriteByte(0)
		b.WriteString(r.name)
	}
	return b.String()
}

// verdict describes a grant taken at time at, with unused requests still leased: the
// refusing rule, or the admitting rule with the lowest Remaining (ties: latest Reset).
func verdict(rules []rule, g grant, unused int, at time.Time) outcome {
	if g.n == 0 {
		rs := g.rules[g.refusedBy]
		return outcome{rule: rules[g.refusedBy], limited: true, reset: at.Add(max(rs.resetAfter, 0)), retryAfter: rs.retryAfter}
	}
	var best outcome
	for i, r := range rules {
		rs := g.rules[i]
		o := outcome{rule: r, remaining: min(max(rs.remaining+unused, 0), r.limit), reset: at.Add(max(rs.resetAfter, 0))}
		if i == 0 || o.remaining < best.remaining || (o.remaining == best.remaining && o.reset.After(best.reset)) {
			best = o
		}
	}
	return best
}

// warn logs a store failure, at most once per warnInterval.
func (l *Limiter) warn(msg string, err error) {
	now := time.Now().UnixNano()
	last := l.lastWarn.Load()
	if now-last < int64(warnInterval) || !l.lastWarn.CompareAndSwap(last, now) {
		l.suppressed.Add(1)
		return
	}
	l.log.Warn(msg, zap.Error(err), zap.Int64("suppressed", l.suppressed.Swap(0)))
}

func isExempt(p string) bool {
	p = normalizePath(p)
	return slices.Contains(exemptPaths, p)
}

func isAuthPath(p string) bool {
	for _, pre := range authPrefixes {
		if strings.HasPrefix(p, pre) || p == strings.TrimSuffix(pre, "/") {
			return true
		}
	}
	return false
}

// normalizePath drops trailing slashes ("/" stays "/").
func normalizePath(p string) string {
	p = strings.TrimSpace(p)
	if p == "" {
		return ""
	}
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	if t := strings.TrimRight(p, "/"); t != "" {
		return t
	}
	return "/"
}

// ceilUnix is t in Unix seconds, rounded up.
func ceilUnix(t time.Time) int64 {
	s := t.Unix()
	if t.Nanosecond() > 0 {
		s++
	}
	return s
}
