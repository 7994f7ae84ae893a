// Package ratelimit enforces the API rate limits of Part 1 "Limits" as an
// httpx.RateLimitMiddleware, exports usage metrics, and serves the admin usage view
// GET /api/v1/admin/rate-limits.
//
// # Algorithm and stores
//
// Every limit is GCRA (generic cell-rate algorithm, gcra.go). A request is checked
// against all of its rules at once and charged to all of them or to none. In the
// embedded mode the state lives in the process (a bounded map); when a *redis.Client
// is given it lives in Redis, checked and charged by one atomic Lua script per take
// (redisstore.go), so every `commerce serve` process behind a load balancer shares
// the same counters. A busy client does not cost a Redis round trip per request: an
// instance takes several requests at once and admits the following ones from that
// lease for up to a second, giving back what it did not use; leases never exceed an
// eighth of what is left, so near a limit every request is checked in Redis (lease.go).
// If Redis fails (an error, or no answer within storeTimeout), the process limits on
// its own, in memory, with the same rules and headers, until a background probe (at
// most one a second, started by traffic) finds Redis answering again: requests never
// wait for a Redis that is down, and are never let through unlimited. Each switch is
// logged once (a warning, then info) and shown by the commerce_rate_limit_fallback
// gauge (fallback.go, decision 0099).
//
// # Rules
//
// The client is the authenticated principal, or the remote address for anonymous
// callers (c.ClientIP(), which honours http.trusted_proxies):
//
//   - anonymous (no principal, or a bad credential): rate_limiting.anonymous, keyed "ip:<addr>";
//   - API key (auth.APIKey): rate_limiting.default scaled by the key's
//     RateLimitMultiplier (0 means 1), keyed "key:<prefix>";
//   - JWT (auth.Customer, auth.Staff): rate_limiting.jwt, keyed "customer:<id>" / "staff:<id>".
//
// Each client has a per-minute limit (requests_per_minute with burst_capacity) and,
// when requests_per_hour is positive, a per-hour limit; both must pass. On top of
// them, per client:
//
//   - every authentication path (/api/v1/auth/* and the staff login's /api/v1/admin/auth/*)
//     shares one bucket of rate_limiting.auth.requests_per_minute;
//   - every path listed in rate_limiting.endpoints has its own bucket of that many
//     requests per minute, matching the exact path and any path below it (so
//     /api/v1/uploads also covers /api/v1/uploads/images);
//   - the /api/v1/uploads entry (UploadsPath) is the file-upload limit: its bucket also
//     covers every upload route, i.e. every route registered as taking multipart bodies
//     (httpx.IsUpload), such as POST /api/v1/products/{id}/images (decision 0105).
//
// The multiplier scales only the client's own limits, not the authentication and
// endpoint limits (they protect specific resources, whoever calls). /health, /ready and
// /metrics are exempt: never refused and never charged, their responses carry the
// caller's current figures, read without taking anything (peek; decision 0104).
// rate_limiting.enabled=false turns everything off (no headers, no 429).
//
// # Burst semantics
//
// A per-minute limit of R requests with burst capacity B is GCRA with emission
// interval 60s/R and burst B:
// a fresh client may send B+1 requests at once, after which one request is admitted
// every 60/R seconds, i.e. R per minute sustained. With the anonymous defaults (60,
// burst 10) that is 11 requests at once, then one per second. Per-hour limits of H
// requests and endpoint limits of E requests per minute have no separate burst: they
// are GCRA with burst H-1 (E-1), i.e. the whole allowance can be used at once and it
// refills continuously at H per hour (E per minute).
//
// # Headers
//
// Every response (admitted or not, and the exempt paths' with the figures as they stand)
// carries:
//
//   - X-RateLimit-Limit: the rule's nominal allowance over its window: requests_per_minute
//     for a per-minute rule, requests_per_hour for the per-hour rule;
//   - X-RateLimit-Remaining: how many more requests would be admitted right now by that
//     rule (GCRA's instantaneous capacity, never above the limit). It drops by one per
//     request and rises again as the bucket refills, so a client that sends Remaining
//     requests immediately gets them all admitted. For a per-minute rule with burst B it
//     is at most B after a request (the first request of a fresh client shows B);
//   - X-RateLimit-Reset: the Unix time (seconds, rounded up) at which the rule is back
//     to its full, initial state;
//   - X-RateLimit-Policy: "<limit>;w=<window seconds>", e.g. "60;w=60" or "3000;w=3600".
//
// When several rules apply the headers describe the most restrictive one: the lowest
// Remaining, ties broken by the latest Reset. An exceeded request is answered 429 with
// the four headers (of the rule that refused it, Remaining 0), Retry-After (whole
// seconds until a request would be admitted, at least 1) and the body
//
//	{"error": {"code": "RATE_LIMIT_EXCEEDED", "message": "Rate limit exceeded. Try again in N seconds.", "retry_after": N, "category": "rate_limit", "request_id": "..."}}
//
// A request is charged to every rule or to none, so a request refused by a short rule
// does not eat into the hourly allowance. The refusing rule named in the headers is
// the first one that refuses, from the most specific to the least (endpoint and
// authentication rules, then per-minute, then per-hour).
//
// # Usage and metrics
//
// Requests seen (admitted or refused) are counted per client in one-second buckets
// over a sliding 60-second window: in memory in every process (for the
// commerce_rate_limit_current_rate gauge, which therefore reports what this process
// served) and, when Redis is configured, also in Redis (a hash of per-second counts
// per client with a short TTL and a sorted set of active clients, written in one
// batch per second), which the admin view reads so every instance shows the same
// cluster-wide numbers (other instances' last second may still be on its way). Clients idle for
// a minute are dropped; at most 10,000 clients are tracked per process.
//
// Metrics: commerce_rate_limit_hits_total{client_type="anonymous"|"authenticated"}
// (requests seen), commerce_rate_limit_rejected_total{client_type} (requests refused),
// commerce_rate_limit_current_rate{client_id} (requests in the last minute),
// commerce_rate_limit_fallback (1 while Redis is down and this process limits in
// memory) and commerce_rate_limit_fallback_decisions_total (requests decided so).
// While Redis is down the usage counts stay in the process and are written once it is
// back; the admin view answers 503 until then.
package ratelimit
