// Package jobs is the background-work port: modules register task handlers and
// periodic sweeps; Asynq (Redis, run by `commerce worker`) or the in-process runner
// (embedded mode, run by `serve`) executes them. The database stays the source of
// truth for anything scheduled (expires_at, next_retry_at, next_attempt_at): periodic
// sweeps read it, so a restart loses nothing.
package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// Handler processes one task payload. Returning an error retries the task;
// wrap ErrSkipRetry to drop a task that can never succeed (e.g. a bad payload).
type Handler func(ctx context.Context, payload []byte) error

// ErrSkipRetry marks a permanent failure.
var ErrSkipRetry = errors.New("skip retry")

// Options tune one enqueue.
type Options struct {
	Delay     time.Duration // run after this delay
	UniqueKey string        // drop duplicates with the same key while one is pending
	MaxRetry  int           // 0: the adapter's default
	Queue     string        // "default" when empty
}

// Option sets Options.
type Option func(*Options)

// Delay runs the task after d.
func Delay(d time.Duration) Option { return func(o *Options) { o.Delay = d } }

// Unique drops duplicates with the same key while one is pending.
func Unique(key string) Option { return func(o *Options) { o.UniqueKey = key } }

// MaxRetry sets the retry budget.
func MaxRetry(n int) Option { return func(o *Options) { o.MaxRetry = n } }

// Enqueuer queues tasks; use cases depend on it.
type Enqueuer interface {
	Enqueue(ctx context.Context, taskType string, payload any, opts ...Option) error
}

// Registry is where modules declare their handlers and periodic sweeps.
type Registry interface {
	Handle(taskType string, h Handler)
	// Every runs taskType (with an empty payload) at the given interval.
	Every(taskType string, interval time.Duration)
}

// Runner executes registered work until ctx ends.
type Runner interface {
	Run(ctx context.Context) error
}

// Marshal encodes a payload.
func Marshal(payload any) ([]byte, error) {
	if b, ok := payload.([]byte); ok {
		return b, nil
	}
	if payload == nil {
		return []byte("{}"), nil
	}
	return json.Marshal(payload)
}
