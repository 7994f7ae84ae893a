package httpx_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/tx"
)

// deadlineModule has routes that wait for the request's context and report how.
type deadlineModule struct{}

func (deadlineModule) RegisterRoutes(r *httpx.Routes) {
	// waits like a database call bound to the request's context does.
	r.API.GET("/wait", func(c *gin.Context) {
		ctx := c.Request.Context()
		if _, ok := ctx.Deadline(); !ok {
			c.JSON(http.StatusOK, gin.H{"deadline": false})
			return
		}
		<-ctx.Done()
		httpx.Error(c, fmt.Errorf("repo: read: %w", ctx.Err()))
	})
	// reports the arrival the database's gates order waiters by (platform/tx).
	r.API.GET("/arrival", func(c *gin.Context) {
		at, ok := tx.Arrival(c.Request.Context())
		c.JSON(http.StatusOK, gin.H{"ok": ok, "at": at.UnixNano()})
	})
	// a store busy past the acquire timeout (platform/db's ErrBusy is this kind).
	r.API.GET("/busy", func(c *gin.Context) {
		httpx.Error(c, apperr.New(apperr.Unavailable, "", "The store is busy; retry shortly").WithCause(context.DeadlineExceeded))
	})
}

func deadlineServer(t *testing.T, timeout time.Duration) http.Handler {
	t.Helper()
	s, _ := newServer(t, serverOpts{cfg: func(c *config.Config) { c.HTTP.RequestTimeout = timeout }, module: deadlineModule{}})
	return s
}

// Every request carries the server-side deadline of http.request_timeout; a request
// that outlives it answers 503 in the envelope with Retry-After, and a bounded wait
// for the store does too.
func TestRequestDeadline(t *testing.T) {
	h := deadlineServer(t, 100*time.Millisecond)
	start := time.Now()
	w := get(t, h, "/api/v1/wait", nil)
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("the request ran %v past a 100ms deadline", took)
	}
	expectError(t, w, http.StatusServiceUnavailable, map[string]any{"code": 503, "category": "unavailable", "message": "The request took too long; retry shortly"})
	if w.Header().Get("Retry-After") == "" {
		t.Errorf("503 without Retry-After: %v", w.Header())
	}

	w = get(t, h, "/api/v1/busy", nil)
	expectError(t, w, http.StatusServiceUnavailable, map[string]any{"code": 503, "category": "unavailable", "message": "The store is busy; retry shortly"})
	if w.Header().Get("Retry-After") != "1" {
		t.Errorf("busy: Retry-After = %q", w.Header().Get("Retry-After"))
	}
}

// The default configuration gives requests a deadline too.
func TestRequestDeadlineByDefault(t *testing.T) {
	if config.Default().HTTP.RequestTimeout <= 0 {
		t.Fatal("http.request_timeout has no default")
	}
	cfg := config.Default()
	cfg.HTTP.RequestTimeout = 0
	if err := cfg.Validate(); err == nil {
		t.Error("http.request_timeout 0 passed validation")
	}
}

// Every request carries its arrival time, by which the database serves the waits of
// earlier requests first (docs/decisions/0237).
func TestRequestArrival(t *testing.T) {
	h := deadlineServer(t, time.Second)
	before := time.Now()
	w := get(t, h, "/api/v1/arrival", nil)
	after := time.Now()
	var body struct {
		OK bool  `json:"ok"`
		At int64 `json:"at"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
		t.Fatalf("%d %s: %v", w.Code, w.Body, err)
	}
	if !body.OK || body.At < before.UnixNano() || body.At > after.UnixNano() {
		t.Fatalf("arrival %+v, want one between %v and %v", body, before, after)
	}
}
