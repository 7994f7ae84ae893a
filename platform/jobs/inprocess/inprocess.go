// Package inprocess is the embedded-mode adapter of the jobs port: tasks run on a
// bounded pool of goroutines inside the `serve` process. Nothing is persisted: a task
// queued or waiting for a retry when the process stops is lost, which is acceptable
// because the database is the source of truth for scheduled work and the periodic
// sweeps pick it up again after a restart.
package inprocess

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/jobs"
	"github.com/gocommerce/commerce/platform/jobs/internal/core"
	clog "github.com/gocommerce/commerce/platform/log"
)

// Defaults used by New.
const (
	// DefaultMaxRetry is the retry budget of a task enqueued without jobs.MaxRetry.
	DefaultMaxRetry = 5
	// DefaultShutdownTimeout bounds how long Run waits for in-flight tasks.
	DefaultShutdownTimeout = 10 * time.Second
)

// DefaultBackoff is exponential: 5s before the first retry, doubling up to 10 minutes.
func DefaultBackoff(retry int) time.Duration {
	const base, maxDelay = 5 * time.Second, 10 * time.Minute
	if retry < 1 {
		retry = 1
	}
	if retry > 20 {
		return maxDelay
	}
	return min(base<<(retry-1), maxDelay)
}

// periodicPrefix namespaces the unique keys of periodic runs so that a tick is
// dropped while the previous run of the same task is still queued or running.
const periodicPrefix = "\x00periodic:"

// Jobs runs tasks in process. It implements jobs.Enqueuer, jobs.Registry and
// jobs.Runner. The exported fields tune it and must be set before Run.
type Jobs struct {
	// Backoff returns the delay before retry n (1 for the first retry).
	Backoff func(retry int) time.Duration
	// DefaultMaxRetry is the retry budget when a task is enqueued without one.
	DefaultMaxRetry int
	// ShutdownTimeout bounds how long Run waits for in-flight tasks once its
	// context is done; their contexts are canceled after it.
	ShutdownTimeout time.Duration

	log         *zap.Logger
	concurrency int
	reg         *core.Registry

	mu     sync.Mutex
	ready  []*task             // due tasks waiting for a worker
	unique map[string]struct{} // keys of tasks queued, waiting or running
	wake   chan struct{}       // signals the dispatcher that ready grew
	seq    uint64
}

type task struct {
	id       uint64
	taskType string
	payload  []byte
	key      string
	maxRetry int
	retried  int
}

var (
	_ jobs.Enqueuer = (*Jobs)(nil)
	_ jobs.Registry = (*Jobs)(nil)
	_ jobs.Runner   = (*Jobs)(nil)
)

// New returns an in-process runner with cfg.Jobs.Concurrency workers.
func New(cfg *config.Config, log *zap.Logger) *Jobs {
	n, log := core.Workers(cfg, log)
	j := &Jobs{
		Backoff:         DefaultBackoff,
		DefaultMaxRetry: DefaultMaxRetry,
		ShutdownTimeout: DefaultShutdownTimeout,
		log:             log,
		concurrency:     n,
		unique:          map[string]struct{}{},
		wake:            make(chan struct{}, 1),
	}
	j.reg = core.NewRegistry(j.log, j.loop)
	return j
}

// Handle registers the handler of taskType. Registering a type twice panics, as it
// does with the asynq adapter.
func (j *Jobs) Handle(taskType string, h jobs.Handler) { j.reg.Handle(taskType, h) }

// Every runs taskType with the payload jobs.Marshal(nil) ("{}") every interval while
// Run is active. The first run comes one interval after Run starts; a tick is
// skipped while the previous run of the same task is still queued or running.
func (j *Jobs) Every(taskType string, interval time.Duration) { j.reg.Every(taskType, interval) }

// Enqueue queues a task. It returns an error for a task type without a handler or a
// payload that cannot be marshaled. A task whose unique key matches a task still
// queued, waiting or running is dropped and Enqueue returns nil. Tasks enqueued before
// Run are kept and run once Run starts.
func (j *Jobs) Enqueue(_ context.Context, taskType string, payload any, opts ...jobs.Option) error {
	o, b, maxRetry, err := core.Prepare(taskType, payload, opts, j.DefaultMaxRetry)
	if err != nil {
		return err
	}
	if j.reg.Handler(taskType) == nil {
		return fmt.Errorf("jobs: no handler registered for task type %q", taskType)
	}

	j.mu.Lock()
	defer j.mu.Unlock()
	if o.UniqueKey != "" {
		if _, dup := j.unique[o.UniqueKey]; dup {
			j.log.Debug("duplicate task dropped", zap.String("task", taskType), zap.String("unique_key", o.UniqueKey))
			return nil
		}
		j.unique[o.UniqueKey] = struct{}{}
	}
	j.seq++
	t := &task{id: j.seq, taskType: taskType, payload: b, key: o.UniqueKey, maxRetry: maxRetry}
	if o.Delay > 0 {
		time.AfterFunc(o.Delay, func() { j.push(t) })
		return nil
	}
	j.pushLocked(t)
	return nil
}

func (j *Jobs) push(t *task) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.pushLocked(t)
}

func (j *Jobs) pushLocked(t *task) {
	j.ready = append(j.ready, t)
	select {
	case j.wake <- struct{}{}:
	default:
	}
}

// pop takes the oldest due task, or returns nil.
func (j *Jobs) pop() *task {
	j.mu.Lock()
	defer j.mu.Unlock()
	if len(j.ready) == 0 {
		return nil
	}
	t := j.ready[0]
	j.ready[0] = nil
	j.ready = j.ready[1:]
	return t
}

// Run executes tasks until ctx is done, then waits up to ShutdownTimeout for the
// tasks in flight (their contexts are canceled after it) and returns nil. Tasks still
// queued or waiting for a retry stay queued for a later Run of the same Jobs.
func (j *Jobs) Run(ctx context.Context) error {
	// Task contexts outlive ctx so in-flight work can finish; hardStop cancels them.
	taskCtx, hardStop := context.WithCancel(context.WithoutCancel(ctx))
	defer hardStop()
	stopSchedule, ok := j.reg.StartSchedule(ctx)
	if !ok {
		return errors.New("jobs: in-process runner is already running")
	}
	j.log.Info("in-process jobs runner started", zap.Int("concurrency", j.concurrency))

	var inflight sync.WaitGroup
	sem := make(chan struct{}, j.concurrency)
dispatch:
	for {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			break dispatch
		}
		t := j.pop()
		for t == nil {
			select {
			case <-j.wake:
				t = j.pop()
			case <-ctx.Done():
				<-sem
				break dispatch
			}
		}
		inflight.Add(1)
		go func() {
			defer func() { <-sem; inflight.Done() }()
			j.execute(taskCtx, t)
		}()
	}

	stopSchedule()

	done := make(chan struct{})
	go func() { inflight.Wait(); close(done) }()
	timer := time.NewTimer(j.ShutdownTimeout)
	defer timer.Stop()
	select {
	case <-done:
		j.log.Info("in-process jobs runner stopped")
	case <-timer.C:
		hardStop()
		j.log.Warn("in-process jobs runner stopped with tasks still running; their contexts were canceled",
			zap.Duration("shutdown_timeout", j.ShutdownTimeout))
	}
	return nil
}

// loop enqueues one periodic task every interval until ctx is done.
func (j *Jobs) loop(ctx context.Context, p core.Periodic) {
	clock.Every(ctx, p.Interval, func(ctx context.Context) {
		if err := j.Enqueue(ctx, p.TaskType, nil, jobs.Unique(periodicPrefix+p.TaskType), jobs.MaxRetry(-1)); err != nil {
			j.log.Error("periodic task not enqueued", zap.String("task", p.TaskType), zap.Error(err))
		}
	})
}

// execute runs one attempt of t and schedules its retry or releases its unique key.
func (j *Jobs) execute(ctx context.Context, t *task) {
	h := j.reg.Handler(t.taskType)
	attempt := t.retried + 1
	log := j.log.With(zap.String("task", t.taskType), zap.Uint64("task_id", t.id), zap.Int("attempt", attempt))
	start := time.Now()
	var err error
	if h == nil {
		err = fmt.Errorf("jobs: no handler registered for task type %q: %w", t.taskType, jobs.ErrSkipRetry)
	} else {
		err = core.Call(clog.WithContext(ctx, log), h, t.payload)
	}
	elapsed := time.Since(start)

	if err == nil {
		log.Debug("task done", zap.Duration("elapsed", elapsed))
		j.release(t)
		return
	}
	if errors.Is(err, jobs.ErrSkipRetry) || t.retried >= t.maxRetry {
		log.Error("task failed; dropped", zap.Error(err), zap.Duration("elapsed", elapsed),
			zap.Bool("skip_retry", errors.Is(err, jobs.ErrSkipRetry)))
		j.release(t)
		return
	}
	t.retried++
	delay := j.Backoff(t.retried)
	log.Warn("task failed; will retry", zap.Error(err), zap.Duration("elapsed", elapsed), zap.Duration("retry_in", delay))
	time.AfterFunc(delay, func() { j.push(t) })
}

func (j *Jobs) release(t *task) {
	if t.key == "" {
		return
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	delete(j.unique, t.key)
}
