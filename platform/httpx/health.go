package httpx

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
)

// checkTimeout bounds the checks of one probe (they run at once).
const checkTimeout = 2 * time.Second

// Check is one dependency check; Ping nil means "not configured". The API cannot serve
// without a required dependency (the database). It can without an optional one (Redis:
// rate limits fall back to per-process counters), which then only degrades /health.
type Check struct {
	Name     string
	Ping     func(ctx context.Context) error
	Optional bool
}

// Health answers the probes (decision 0098):
//
//   - GET /health, for load balancers: 200 while every required dependency answers,
//     with status "degraded" and the optional dependency that is down named in checks;
//     503 "unavailable" when a required one is down;
//   - GET /ready, for orchestrators: strict, 503 "unavailable" when any configured
//     dependency is down.
type Health struct {
	checks  []Check
	version string
}

// NewHealth builds the probe handlers.
func NewHealth(version string, checks ...Check) *Health {
	return &Health{checks: checks, version: version}
}

// Health statuses.
const (
	StatusOK          = "ok"
	StatusDegraded    = "degraded"
	StatusUnavailable = "unavailable"
)

type checkResult struct {
	Status    string `json:"status"`
	LatencyMS int64  `json:"latency_ms,omitempty"`
	Error     string `json:"error,omitempty"`
}

// Handle answers GET /health: {status, version, time, checks: {name: {status,
// latency_ms, error}}}.
func (h *Health) Handle(c *gin.Context) { h.answer(c, false) }

// Ready answers GET /ready with the same body; any dependency down is 503.
func (h *Health) Ready(c *gin.Context) { h.answer(c, true) }

func (h *Health) answer(c *gin.Context, strict bool) {
	results, requiredDown, optionalDown := h.run(c.Request.Context())
	status, code := StatusOK, http.StatusOK
	switch {
	case requiredDown || (strict && optionalDown):
		status, code = StatusUnavailable, http.StatusServiceUnavailable
	case optionalDown:
		status = StatusDegraded
	}
	c.JSON(code, gin.H{"status": status, "version": h.version, "time": time.Now().UTC().Format(time.RFC3339), "checks": results})
}

// run pings every configured dependency at once, within checkTimeout, so one that
// hangs does not delay the others.
func (h *Health) run(ctx context.Context) (results map[string]checkResult, requiredDown, optionalDown bool) {
	ctx, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	out := make([]checkResult, len(h.checks))
	var wg sync.WaitGroup
	for i, ch := range h.checks {
		if ch.Ping == nil {
			out[i] = checkResult{Status: "disabled"}
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			if err := ch.Ping(ctx); err != nil {
				// The error may name hosts or credentials: never in the body.
				out[i] = checkResult{Status: "down", Error: "unreachable"}
				return
			}
			out[i] = checkResult{Status: "ok", LatencyMS: time.Since(start).Milliseconds()}
		}()
	}
	wg.Wait()
	results = make(map[string]checkResult, len(h.checks))
	for i, ch := range h.checks {
		results[ch.Name] = out[i]
		if out[i].Status == "down" {
			if ch.Optional {
				optionalDown = true
			} else {
				requiredDown = true
			}
		}
	}
	return results, requiredDown, optionalDown
}
