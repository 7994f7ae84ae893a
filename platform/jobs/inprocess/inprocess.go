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
	"runtime/debug"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/jobs"
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

	mu       sync.Mutex
	handlers map[string]jobs.Handler
	periodic []periodic
	ready    []*task             // due tasks waiting for a worker
	unique   map[string]struct{} // keys of tasks queued, waiting or running
	wake     chan struct{}       // signals the dispatcher that ready grew
	runCtx   context.Context     // non-nil while Run is active
	loops    *sync.WaitGroup     // periodic loops of the active Run
	seq      uint64
}

type periodic struct {
	taskType string
	interval time.Duration
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
	n := cfg.Jobs.Concurrency
	if n <= 0 {
		n = 1
	}
	if log == nil {
		log = zap.NewNop()
	}
	return &Jobs{
		Backoff:         DefaultBackoff,
		DefaultMaxRetry: DefaultMaxRetry,
		ShutdownTimeout: DefaultShutdownTimeout,
		log:             log.Named("jobs"),
		concurrency:     n,
		handlers:        map[string]jobs.Handler{},
		unique:          map[string]struct{}{},
		wake:            make(chan struct{}, 1),
	}
}

// Handle registers the handler of taskType. Registering a type twice panics, as it
// does with the asynq adapter.
func (j *Jobs) Handle(taskType string, h jobs.Handler) {
	if taskType == "" || h == nil {
		panic("jobs: Handle needs a task type and a handler")
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if _, dup := j.handlers[taskType]; dup {
		panic(fmt.Sprintf("jobs: handler for %q registered twice", taskType))
	}
	j.handlers[taskType] = h
}

// Every runs taskType with the payload jobs.Marshal(nil) ("{}") every interval while
// Run is active. The first run comes one interval after Run starts; a tick is
// skipped while the previous run of the same task is still queued or running.
func (j *Jobs) Every(taskType string, interval time.Duration) {
	if interval <= 0 {
		j.log.Error("periodic task ignored: interval must be positive",
			zap.String("task", taskType), zap.Duration("interval", interval))
		return
	}
	p := periodic{taskType: taskType, interval: interval}
	j.mu.Lock()
	defer j.mu.Unlock()
	j.periodic = append(j.periodic, p)
	if j.runCtx != nil {
		j.startLoop(j.runCtx, j.loops, p)
	}
}

// Enqueue queues a task. It returns an error for a task type without a handler or a
// payload that cannot be marshaled. A task whose unique key matches a task still
// queued, waiting or running is dropped and Enqueue returns nil. Tasks enqueued before
// Run are kept and run once Run starts.
func (j *Jobs) Enqueue(_ context.Context, taskType string, payload any, opts ...jobs.Option) error {
	var o jobs.Options
	for _, opt := range opts {
		opt(&o)
	}
	b, err := jobs.Marshal(payload)
	if err != nil {
		return fmt.Errorf("jobs: marshal %s payload: %w", taskType, err)
	}
	maxRetry := o.MaxRetry
	switch {
	case maxRetry == 0:
		maxRetry = j.DefaultMaxRetry
	case maxRetry < 0:
		maxRetry = 0
	}

	j.mu.Lock()
	defer j.mu.Unlock()
	if _, ok := j.handlers[taskType]; !ok {
		return fmt.Errorf("jobs: no handler registered for task type %q", taskType)
	}
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
	loops := &sync.WaitGroup{}

	j.mu.Lock()
	if j.runCtx != nil {
		j.mu.Unlock()
		return errors.New("jobs: in-process runner is already running")
	}
	j.runCtx, j.loops = ctx, loops
	for _, p := range j.periodic {
		j.startLoop(ctx, loops, p)
	}
	j.mu.Unlock()
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

	j.mu.Lock()
	j.runCtx, j.loops = nil, nil // Every no longer starts loops on this group
	j.mu.Unlock()
	loops.Wait()

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

// startLoop runs one periodic task until ctx is done. j.mu must be held.
func (j *Jobs) startLoop(ctx context.Context, wg *sync.WaitGroup, p periodic) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(p.interval)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				if err := j.Enqueue(ctx, p.taskType, nil, jobs.Unique(periodicPrefix+p.taskType), jobs.MaxRetry(-1)); err != nil {
					j.log.Error("periodic task not enqueued", zap.String("task", p.taskType), zap.Error(err))
				}
			}
		}
	}()
}

// execute runs one attempt of t and schedules its retry or releases its unique key.
func (j *Jobs) execute(ctx context.Context, t *task) {
	j.mu.Lock()
	h := j.handlers[t.taskType]
	j.mu.Unlock()

	attempt := t.retried + 1
	log := j.log.With(zap.String("task", t.taskType), zap.Uint64("task_id", t.id), zap.Int("attempt", attempt))
	start := time.Now()
	var err error
	if h == nil {
		err = fmt.Errorf("jobs: no handler registered for task type %q: %w", t.taskType, jobs.ErrSkipRetry)
	} else {
		err = call(clog.WithContext(ctx, log), h, t.payload)
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

// call runs h, turning a panic into an error.
func call(ctx context.Context, h jobs.Handler, payload []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("jobs: handler panic: %v\n%s", r, debug.Stack())
		}
	}()
	return h(ctx, payload)
}
