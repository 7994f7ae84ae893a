package ratelimit

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// takeScript is memStore.take as one atomic Lua script, on Redis's clock, in
// microseconds since 2017-01-01 (small enough to stay exact in Lua's doubles).
// KEYS: one TAT per rule. ARGV: n, refund, then per rule: interval (µs), capacity.
// Returns {k, refusedBy (1-based; 0 when admitted), then per rule: remaining,
// reset_after µs, retry_after µs}.
const takeScript = `
local t = redis.call('TIME')
local now = (tonumber(t[1]) - 1483228800) * 1000000 + tonumber(t[2])
local k = tonumber(ARGV[1])
local refund = tonumber(ARGV[2])
local tats, eis, caps = {}, {}, {}
local refused = 0
for i = 1, #KEYS do
  local ei = tonumber(ARGV[1 + 2 * i])
  local cap = tonumber(ARGV[2 + 2 * i])
  local tat = tonumber(redis.call('GET', KEYS[i]) or '0')
  if refund > 0 and tat > now then
    tat = tat - refund * ei
    redis.call('SET', KEYS[i], string.format('%.17g', tat), 'PX', math.max(math.ceil((tat - now) / 1000), 1))
  end
  if tat < now then tat = now end
  tats[i], eis[i], caps[i] = tat, ei, cap
  local fit = math.floor((cap * ei - (tat - now)) / ei + 1e-9)
  if fit < 1 and refused == 0 then refused = i end
  if fit < k then k = fit end
end
local out = {0, refused}
if refused > 0 then
  for i = 1, #KEYS do
    local reset, retry = 0, 0
    if i == refused then
      reset = math.ceil(tats[i] - now)
      retry = math.ceil(tats[i] + eis[i] - caps[i] * eis[i] - now)
    end
    out[#out + 1] = 0
    out[#out + 1] = reset
    out[#out + 1] = retry
  end
  return out
end
out[1] = k
for i = 1, #KEYS do
  local nt = tats[i] + k * eis[i]
  redis.call('SET', KEYS[i], string.format('%.17g', nt), 'PX', math.max(math.ceil((nt - now) / 1000), 1))
  out[#out + 1] = math.floor((caps[i] * eis[i] - (nt - now)) / eis[i] + 1e-9)
  out[#out + 1] = math.ceil(nt - now)
  out[#out + 1] = 0
end
return out
`

// peekScript reads what takeScript would see, writing nothing. KEYS: one TAT per rule.
// ARGV: per rule: interval (µs), capacity. Returns per rule: remaining (may be
// negative), reset_after µs.
const peekScript = `
local t = redis.call('TIME')
local now = (tonumber(t[1]) - 1483228800) * 1000000 + tonumber(t[2])
local out = {}
for i = 1, #KEYS do
  local ei = tonumber(ARGV[2 * i - 1])
  local cap = tonumber(ARGV[2 * i])
  local tat = tonumber(redis.call('GET', KEYS[i]) or '0')
  if tat < now then tat = now end
  out[#out + 1] = math.floor((cap * ei - (tat - now)) / ei + 1e-9)
  out[#out + 1] = math.ceil(tat - now)
end
return out
`

// redisStore keeps GCRA state in Redis, shared by every instance.
type redisStore struct {
	rdb    *redis.Client
	script *redis.Script
	peeker *redis.Script
}

func newRedisStore(rdb *redis.Client) *redisStore {
	return &redisStore{rdb: rdb, script: redis.NewScript(takeScript), peeker: redis.NewScript(peekScript)}
}

func (s *redisStore) peek(ctx context.Context, keys []string, rules []rule) ([]ruleState, error) {
	args := make([]any, 0, 2*len(rules))
	for _, r := range rules {
		args = append(args, intervalArg(r), r.capacity())
	}
	vals, err := s.peeker.Run(ctx, s.rdb, keys, args...).Int64Slice()
	if err != nil {
		return nil, err
	}
	if len(vals) != 2*len(rules) {
		return nil, fmt.Errorf("ratelimit: peek script returned %d values for %d rules", len(vals), len(rules))
	}
	out := make([]ruleState, len(rules))
	for i := range rules {
		out[i] = ruleState{remaining: int(max(vals[2*i], 0)), resetAfter: time.Duration(vals[2*i+1]) * time.Microsecond}
	}
	return out, nil
}

// intervalArg is r's emission interval in microseconds, as the scripts take it.
func intervalArg(r rule) string {
	return strconv.FormatFloat(float64(r.interval())/float64(time.Microsecond), 'f', -1, 64)
}

func (s *redisStore) take(ctx context.Context, keys []string, rules []rule, n, refund int) (grant, error) {
	args := make([]any, 0, 2+2*len(rules))
	args = append(args, n, refund)
	for _, r := range rules {
		args = append(args, intervalArg(r), r.capacity())
	}
	vals, err := s.script.Run(ctx, s.rdb, keys, args...).Int64Slice()
	if err != nil {
		return grant{}, err
	}
	if len(vals) != 2+3*len(rules) {
		return grant{}, fmt.Errorf("ratelimit: script returned %d values for %d rules", len(vals), len(rules))
	}
	g := grant{n: int(vals[0]), refusedBy: int(vals[1]) - 1, rules: make([]ruleState, len(rules))}
	for i := range rules {
		v := vals[2+3*i:]
		g.rules[i] = ruleState{
			remaining:  int(v[0]),
			resetAfter: time.Duration(v[1]) * time.Microsecond,
			retryAfter: time.Duration(v[2]) * time.Microsecond,
		}
	}
	if g.n == 0 && g.refusedBy < 0 {
		return grant{}, fmt.Errorf("ratelimit: script refused without naming a rule")
	}
	return g, nil
}
