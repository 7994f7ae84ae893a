package httpx

import (
	"context"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
)

// Check is one dependency check; Ping nil means "not configured".
type Check struct {
	Name string
	Ping func(ctx context.Context) error
}

// Health answers GET /health: 200 when every configured dependency answers, 503 otherwise.
type Health struct {
	checks  []Check
	version string
}

// NewHealth builds the health handler.
func NewHealth(version string, checks ...Check) *Health {
	return &Health{checks: checks, version: version}
}

type checkResult struct {
	Status    string `json:"status"`
	LatencyMS int64  `json:"latency_ms,omitempty"`
	Error     string `json:"error,omitempty"`
}

// Handle writes {status, version, time, checks: {name: {status, latency_ms, error}}}.
func (h *Health) Handle(c *gin.Context) {
	ctx, cancel := context.WithTimeout(c.Request.Context(), 2*time.Second)
	defer cancel()
	status := "ok"
	results := map[string]checkResult{}
	for _, ch := range h.checks {
		if ch.Ping == nil {
			results[ch.Name] = checkResult{Status: "disabled"}
			continue
		}
		start := time.Now()
		if err := ch.Ping(ctx); err != nil {
			status = "unavailable"
			results[ch.Name] = checkResult{Status: "down", Error: "unreachable"}
			continue
		}
		results[ch.Name] = checkResult{Status: "ok", LatencyMS: time.Since(start).Milliseconds()}
	}
	code := http.StatusOK
	if status != "ok" {
		code = http.StatusServiceUnavailable
	}
	c.JSON(code, gin.H{"status": status, "version": h.version, "time": time.Now().UTC().Format(time.RFC3339), "checks": results})
}
