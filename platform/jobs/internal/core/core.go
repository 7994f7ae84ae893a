// Package core is what the jobs adapters share: the handler registry, the periodic
// schedule bound to the active Run, the reading of one Enqueue's options and the
// panic-safe handler call. Each adapter keeps only what its backend does differently
// (how a task is queued, retried and deduplicated, and when a periodic tick fires).
package core

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/jobs"
)

// Periodic is one Every registration.
type Periodic struct {
	TaskType string
	Interval time.Duration
}

// Registry holds the handlers and the periodic schedule. Its loop function runs one
// periodic task until the context of the Run it was started for ends.
type Registry struct {
	log  *zap.Logger
	loop func(ctx context.Context, p Periodic)

	mu       sync.Mutex
	handlers map[string]jobs.Handler
	periodic []Periodic
	runCtx   context.Context // non-nil while a Run runs the schedule
	loops    *sync.WaitGroup // periodic loops of the active Run
}

// NewRegistry returns an empty registry that logs to log and runs each periodic task
// with loop.
func NewRegistry(log *zap.Logger, loop func(ctx context.Context, p Periodic)) *Registry {
	return &Registry{log: log, loop: loop, handlers: map[string]jobs.Handler{}}
}

// Handle registers the handler of taskType (matched exactly). Registering a type
// twice panics.
func (r *Registry) Handle(taskType string, h jobs.Handler) {
	if taskType == "" || h == nil {
		panic("jobs: Handle needs a task type and a handler")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.handlers[taskType]; dup {
		panic(fmt.Sprintf("jobs: handler for %q registered twice", taskType))
	}
	r.handlers[taskType] = h
}

// Handler returns the handler of taskType, or nil.
func (r *Registry) Handler(taskType string) jobs.Handler {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.handlers[taskType]
}

// Every adds a periodic task; while a Run is active its loop starts at once. A
// non-positive interval is logged and ignored.
func (r *Registry) Every(taskType string, interval time.Duration) {
	if interval <= 0 {
		r.log.Error("periodic task ignored: interval must be positive",
			zap.String("task", taskType), zap.Duration("interval", interval))
		return
	}
	p := Periodic{TaskType: taskType, Interval: interval}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.periodic = append(r.periodic, p)
	if r.runCtx != nil {
		r.startLocked(p)
	}
}

// StartSchedule starts the periodic loops on ctx (from then on Every starts its loop
// itself) and returns stop, which detaches the schedule from ctx and waits for the
// loops: call it once ctx is done. ok is false, and nothing starts, while another
// Run has the schedule.
func (r *Registry) StartSchedule(ctx context.Context) (stop func(), ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.runCtx != nil {
		return nil, false
	}
	loops := &sync.WaitGroup{}
	r.runCtx, r.loops = ctx, loops
	for _, p := range r.periodic {
		r.startLocked(p)
	}
	return func() {
		r.mu.Lock()
		r.runCtx, r.loops = nil, nil // Every no longer starts loops on this group
		r.mu.Unlock()
		loops.Wait()
	}, true
}

func (r *Registry) startLocked(p Periodic) {
	ctx, wg := r.runCtx, r.loops
	wg.Add(1)
	go func() {
		defer wg.Done()
		r.loop(ctx, p)
	}()
}

// Workers is the adapters' worker count (cfg.Jobs.Concurrency, at least 1) and their
// logger, named "jobs" (a no-op one when log is nil).
func Workers(cfg *config.Config, log *zap.Logger) (int, *zap.Logger) {
	if log == nil {
		log = zap.NewNop()
	}
	return max(cfg.Jobs.Concurrency, 1), log.Named("jobs")
}

// Prepare reads the options of one Enqueue and marshals its payload. maxRetry is
// o.MaxRetry with 0 meaning def and a negative budget meaning none.
func Prepare(taskType string, payload any, opts []jobs.Option, def int) (o jobs.Options, b []byte, maxRetry int, err error) {
	for _, opt := range opts {
		opt(&o)
	}
	b, err = jobs.Marshal(payload)
	if err != nil {
		return o, nil, 0, fmt.Errorf("jobs: marshal %s payload: %w", taskType, err)
	}
	maxRetry = o.MaxRetry
	switch {
	case maxRetry == 0:
		maxRetry = def
	case maxRetry < 0:
		maxRetry = 0
	}
	return o, b, maxRetry, nil
}

// Call runs h, turning a panic into an error.
func Call(ctx context.Context, h jobs.Handler, payload []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("jobs: handler panic: %v\n%s", r, debug.Stack())
		}
	}()
	return h(ctx, payload)
}
