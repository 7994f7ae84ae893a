// Package asynqjobs is the Redis adapter of the jobs port, built on hibiken/asynq.
//
// Every process may enqueue (`serve` does); Run executes tasks and the periodic
// schedule (`commerce worker` does). Several worker processes may share one Redis:
//
//   - A queued task runs on one worker at a time (asynq's lease).
//   - A unique key becomes the asynq task ID, so a duplicate is dropped while a task
//     with that key is pending, scheduled, running or waiting for a retry. A key whose
//     task failed for good (archived) is freed by the next Enqueue with that key.
//   - Each periodic task is enqueued at most once per interval across all workers:
//     time is cut into buckets of one interval (counted from the Unix epoch), every
//     worker enqueues at the middle of each bucket under the task ID
//     "p:<type>:<bucket>", and asynq drops all but the first. The task is retained
//     after it completes for longer than the rest of its bucket, so a late worker's
//     enqueue is dropped too. This holds while the workers' clocks differ by less than
//     half an interval.
//   - Two runs of the same periodic task never overlap: a run holds a Redis lock (kept
//     alive while it runs, expiring 30 s after a crashed worker stops renewing it),
//     and a run that finds the lock held returns at once without calling the handler.
//   - A periodic run is not retried (MaxRetry 0): the next tick is its retry.
package asynqjobs

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/jobs"
	"github.com/gocommerce/commerce/platform/jobs/internal/core"
	clog "github.com/gocommerce/commerce/platform/log"
)

// Defaults used by New.
const (
	// DefaultQueue is the queue of tasks enqueued without jobs.Options.Queue and of
	// the periodic tasks.
	DefaultQueue = "default"
	// DefaultMaxRetry is the retry budget of a task enqueued without jobs.MaxRetry.
	DefaultMaxRetry = 5
	// DefaultShutdownTimeout bounds how long Run waits for in-flight tasks; asynq
	// puts the unfinished ones back in their queue.
	DefaultShutdownTimeout = 10 * time.Second
)

const (
	uniquePrefix   = "u:" // task IDs of jobs.Unique keys
	periodicPrefix = "p:" // task IDs of periodic runs: p:<type>:<bucket>
	lockTTL        = 30 * time.Second
)

// Jobs implements jobs.Enqueuer, jobs.Registry and jobs.Runner on asynq. The
// exported fields tune it and must be set before Run (DefaultQueue and
// DefaultMaxRetry before the first Enqueue).
type Jobs struct {
	// DefaultQueue receives tasks enqueued without a queue and the periodic tasks.
	DefaultQueue string
	// Queues are the queues Run processes, with their priorities; DefaultQueue is
	// always processed (priority 1 unless listed here).
	Queues map[string]int
	// DefaultMaxRetry is the retry budget when a task is enqueued without one.
	DefaultMaxRetry int
	// Backoff returns the delay before retry n (1 for the first retry); nil uses
	// asynq's default (polynomial, with jitter: about 15 s, 16 s, 31 s, 96 s, ...).
	Backoff func(retry int) time.Duration
	// ShutdownTimeout bounds how long Run waits for in-flight tasks once its
	// context is done.
	ShutdownTimeout time.Duration
	// PollInterval is how often an idle worker looks for tasks (asynq's
	// TaskCheckInterval); 0 uses asynq's default (1 s).
	PollInterval time.Duration
	// DelayedPollInterval is how often delayed and retried tasks that came due are
	// moved to their queue (asynq's DelayedTaskCheckInterval); 0 uses asynq's
	// default (5 s).
	DelayedPollInterval time.Duration

	log         *zap.Logger
	concurrency int
	rdb         redis.UniversalClient
	client      *asynq.Client
	inspector   *asynq.Inspector
	reg         *core.Registry

	mu      sync.Mutex
	running bool
}

var (
	_ jobs.Enqueuer = (*Jobs)(nil)
	_ jobs.Registry = (*Jobs)(nil)
	_ jobs.Runner   = (*Jobs)(nil)
)

// New connects to cfg.Redis.URL (redis://, rediss://, redis-socket:// or
// redis-sentinel://, as asynq.ParseRedisURI reads it) and returns the adapter with
// cfg.Jobs.Concurrency workers, and a cleanup that closes the connection. It does
// not dial: a Redis that is down makes Enqueue and Run fail, not New.
func New(cfg *config.Config, log *zap.Logger) (*Jobs, func(), error) {
	if cfg.Redis.URL == "" {
		return nil, nil, errors.New("jobs: asynq needs redis.url")
	}
	opt, err := asynq.ParseRedisURI(cfg.Redis.URL)
	if err != nil {
		return nil, nil, fmt.Errorf("config: redis.url: %w", err)
	}
	rdb, ok := opt.MakeRedisClient().(redis.UniversalClient)
	if !ok {
		return nil, nil, fmt.Errorf("jobs: unsupported redis connection %T", opt)
	}
	n, log := core.Workers(cfg, log)
	j := &Jobs{
		DefaultQueue:    DefaultQueue,
		DefaultMaxRetry: DefaultMaxRetry,
		ShutdownTimeout: DefaultShutdownTimeout,
		log:             log,
		concurrency:     n,
		rdb:             rdb,
		client:          asynq.NewClientFromRedisClient(rdb),
		inspector:       asynq.NewInspectorFromRedisClient(rdb),
	}
	j.reg = core.NewRegistry(j.log, j.loop)
	// The client and inspector share rdb: closing rdb closes them.
	return j, func() { _ = rdb.Close() }, nil
}

// Handle registers the handler of taskType (matched exactly, unlike asynq.ServeMux's
// prefix patterns). Registering a type twice panics.
func (j *Jobs) Handle(taskType string, h jobs.Handler) { j.reg.Handle(taskType, h) }

// Every enqueues taskType with the payload jobs.Marshal(nil) ("{}") once per interval
// across all workers while Run is active (see the package doc for the guarantees).
// The first run comes at the middle of the first interval-long bucket that starts
// after Run, so within one interval. Intervals under one second are for tests.
func (j *Jobs) Every(taskType string, interval time.Duration) { j.reg.Every(taskType, interval) }

// Enqueue queues a task in Redis; it works without Run (the `serve` process only
// enqueues). A delayed task runs at the first whole second after its delay (asynq's
// resolution), plus up to DelayedPollInterval. A task whose unique key matches a task still pending, scheduled,
// running or waiting for a retry is dropped and Enqueue returns nil. Unknown task
// types are not rejected here: the worker that has their handler runs them.
func (j *Jobs) Enqueue(ctx context.Context, taskType string, payload any, opts ...jobs.Option) error {
	o, b, maxRetry, err := core.Prepare(taskType, payload, opts, j.DefaultMaxRetry)
	if err != nil {
		return err
	}
	queue := o.Queue
	if queue == "" {
		queue = j.DefaultQueue
	}
	aopts := []asynq.Option{asynq.Queue(queue), asynq.MaxRetry(maxRetry)}
	if o.Delay > 0 {
		// asynq keeps due times in whole seconds and would run up to 1 s early:
		// round up so the task never runs before its delay.
		at := time.Now().Add(o.Delay)
		if r := at.Truncate(time.Second); !r.Equal(at) {
			at = r.Add(time.Second)
		}
		aopts = append(aopts, asynq.ProcessAt(at))
	}
	task := asynq.NewTask(taskType, b)
	if o.UniqueKey == "" {
		if _, err := j.client.EnqueueContext(ctx, task, aopts...); err != nil {
			return fmt.Errorf("jobs: enqueue %s: %w", taskType, err)
		}
		return nil
	}
	id := uniquePrefix + o.UniqueKey
	aopts = append(aopts, asynq.TaskID(id))
	// Two tries: the second after removing a finished task that still holds the ID.
	for range 2 {
		_, err := j.client.EnqueueContext(ctx, task, aopts...)
		if err == nil {
			return nil
		}
		if !errors.Is(err, asynq.ErrTaskIDConflict) && !errors.Is(err, asynq.ErrDuplicateTask) {
			return fmt.Errorf("jobs: enqueue %s: %w", taskType, err)
		}
		info, err := j.inspector.GetTaskInfo(queue, id)
		switch {
		case errors.Is(err, asynq.ErrTaskNotFound):
			continue // it finished in between: the ID is free
		case err != nil:
			return fmt.Errorf("jobs: enqueue %s: inspect duplicate %s: %w", taskType, id, err)
		case info.State != asynq.TaskStateArchived && info.State != asynq.TaskStateCompleted:
			j.log.Debug("duplicate task dropped", zap.String("task", taskType),
				zap.String("unique_key", o.UniqueKey), zap.String("state", info.State.String()))
			return nil
		}
		// A task that failed for good (or was retained after success) no longer
		// counts as pending: free its ID.
		if err := j.inspector.DeleteTask(queue, id); err != nil && !errors.Is(err, asynq.ErrTaskNotFound) {
			return fmt.Errorf("jobs: enqueue %s: free unique key %q: %w", taskType, o.UniqueKey, err)
		}
	}
	// Someone else enqueued the same key in between: that task is the pending one.
	return nil
}

// Run starts the asynq server (cfg.Jobs.Concurrency workers on Queues) and the
// periodic schedule, and blocks until ctx is done; it then stops enqueuing periodic
// tasks and shuts the server down, waiting up to ShutdownTimeout for in-flight tasks
// (asynq puts back the unfinished ones). It returns an error when the server cannot
// start.
func (j *Jobs) Run(ctx context.Context) error {
	queues := map[string]int{}
	for q, p := range j.Queues {
		queues[q] = p
	}
	if _, ok := queues[j.DefaultQueue]; !ok {
		queues[j.DefaultQueue] = 1
	}
	level := asynq.InfoLevel
	if j.log.Core().Enabled(zapcore.DebugLevel) {
		level = asynq.DebugLevel
	}
	acfg := asynq.Config{
		Concurrency:              j.concurrency,
		Queues:                   queues,
		ShutdownTimeout:          j.ShutdownTimeout,
		TaskCheckInterval:        j.PollInterval,
		DelayedTaskCheckInterval: j.DelayedPollInterval,
		Logger:                   NewLogger(j.log.Named("asynq")),
		LogLevel:                 level,
	}
	if j.Backoff != nil {
		backoff := j.Backoff
		acfg.RetryDelayFunc = func(n int, _ error, _ *asynq.Task) time.Duration { return backoff(n + 1) }
	}
	srv := asynq.NewServerFromRedisClient(j.rdb, acfg)

	j.mu.Lock()
	if j.running {
		j.mu.Unlock()
		return errors.New("jobs: asynq runner is already running")
	}
	j.running = true
	j.mu.Unlock()
	defer func() {
		j.mu.Lock()
		j.running = false
		j.mu.Unlock()
	}()

	if err := j.rdb.Ping(ctx).Err(); err != nil {
		return fmt.Errorf("jobs: redis: %w", err)
	}
	if err := srv.Start(asynq.HandlerFunc(j.process)); err != nil {
		return fmt.Errorf("jobs: start asynq server: %w", err)
	}
	stopSchedule, _ := j.reg.StartSchedule(ctx) // only one Run gets here: see running
	j.log.Info("asynq jobs runner started", zap.Int("concurrency", j.concurrency), zap.Any("queues", queues))

	<-ctx.Done()
	stopSchedule()
	srv.Shutdown()
	j.log.Info("asynq jobs runner stopped")
	return nil
}

// loop enqueues one periodic task at the middle of every bucket until ctx is done.
func (j *Jobs) loop(ctx context.Context, p core.Periodic) {
	timer := time.NewTimer(time.Until(nextTick(time.Now(), p.Interval)))
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-timer.C:
			j.enqueuePeriodic(ctx, p, now)
			timer.Reset(time.Until(nextTick(time.Now(), p.Interval)))
		}
	}
}

// bucket numbers the interval-long slices of time since the Unix epoch.
func bucket(t time.Time, interval time.Duration) int64 {
	return t.UnixNano() / int64(interval)
}

// nextTick is the first middle of a bucket after now.
func nextTick(now time.Time, interval time.Duration) time.Time {
	iv := int64(interval)
	mid := bucket(now, interval)*iv + iv/2
	if mid <= now.UnixNano() {
		mid += iv
	}
	return time.Unix(0, mid)
}

// periodicID names the run of taskType in the bucket holding now.
func periodicID(taskType string, now time.Time, interval time.Duration) string {
	return fmt.Sprintf("%s%s:%d", periodicPrefix, taskType, bucket(now, interval))
}

func (j *Jobs) enqueuePeriodic(ctx context.Context, p core.Periodic, now time.Time) {
	id := periodicID(p.TaskType, now, p.Interval)
	payload, _ := jobs.Marshal(nil)
	_, err := j.client.EnqueueContext(ctx, asynq.NewTask(p.TaskType, payload),
		asynq.Queue(j.DefaultQueue),
		asynq.TaskID(id),
		asynq.MaxRetry(0),
		// Keep the ID after success past the end of the bucket, so that a worker
		// whose tick comes later in the same bucket is dropped.
		asynq.Retention(p.Interval+time.Second),
	)
	switch {
	case err == nil:
		j.log.Debug("periodic task enqueued", zap.String("task", p.TaskType), zap.String("task_id", id))
	case errors.Is(err, asynq.ErrTaskIDConflict):
		j.log.Debug("periodic task already enqueued by another worker", zap.String("task", p.TaskType), zap.String("task_id", id))
	case ctx.Err() != nil:
	default:
		j.log.Error("periodic task not enqueued", zap.String("task", p.TaskType), zap.Error(err))
	}
}

// process is the asynq handler: it finds the task's handler, gives it a context with
// a task logger, maps jobs.ErrSkipRetry to asynq.SkipRetry and logs failed attempts.
func (j *Jobs) process(ctx context.Context, t *asynq.Task) (err error) {
	id, _ := asynq.GetTaskID(ctx)
	retried, _ := asynq.GetRetryCount(ctx)
	maxRetry, _ := asynq.GetMaxRetry(ctx)
	queue, _ := asynq.GetQueueName(ctx)
	log := j.log.With(zap.String("task", t.Type()), zap.String("task_id", id), zap.Int("attempt", retried+1))
	start := time.Now()
	defer func() {
		elapsed := zap.Duration("elapsed", time.Since(start))
		switch {
		case err == nil:
			log.Debug("task done", elapsed)
		case errors.Is(err, asynq.SkipRetry) || retried >= maxRetry:
			log.Error("task failed; archived", zap.Error(err), elapsed, zap.Bool("skip_retry", errors.Is(err, asynq.SkipRetry)))
		default:
			log.Warn("task failed; will retry", zap.Error(err), elapsed)
		}
	}()

	h := j.reg.Handler(t.Type())
	if h == nil {
		// Retried: a worker of a newer release may know the type.
		return fmt.Errorf("jobs: no handler registered for task type %q", t.Type())
	}
	ctx = clog.WithContext(ctx, log)
	if strings.HasPrefix(id, periodicPrefix) {
		unlock, held, err := j.lockPeriodic(ctx, queue, t.Type(), id)
		if err != nil {
			return err
		}
		if held {
			log.Info("periodic run skipped: the previous run is still going")
			return nil
		}
		defer unlock()
	}
	if err := core.Call(ctx, h, t.Payload()); err != nil {
		if errors.Is(err, jobs.ErrSkipRetry) {
			return fmt.Errorf("%w (%w)", err, asynq.SkipRetry)
		}
		return err
	}
	return nil
}

var (
	// renewScript extends the lock only while this run still holds it.
	renewScript = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) end return 0`)
	// releaseScript deletes the lock only while this run still holds it.
	releaseScript = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)
)

// lockPeriodic takes the run lock of a periodic task. held reports that another run
// has it; otherwise unlock releases it and stops its renewal.
func (j *Jobs) lockPeriodic(ctx context.Context, queue, taskType, token string) (unlock func(), held bool, err error) {
	key := fmt.Sprintf("commerce:jobs:{%s}:periodic-lock:%s", queue, taskType)
	ok, err := j.rdb.SetNX(ctx, key, token, lockTTL).Result()
	if err != nil {
		return nil, false, fmt.Errorf("jobs: periodic lock %s: %w", key, err)
	}
	if !ok {
		return nil, true, nil
	}
	renewCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		clock.Every(renewCtx, lockTTL/3, func(ctx context.Context) {
			if err := renewScript.Run(ctx, j.rdb, []string{key}, token, lockTTL.Milliseconds()).Err(); err != nil {
				j.log.Warn("periodic lock not renewed", zap.String("lock", key), zap.Error(err))
			}
		})
	}()
	return func() {
		stop()
		wg.Wait()
		if err := releaseScript.Run(context.WithoutCancel(ctx), j.rdb, []string{key}, token).Err(); err != nil {
			j.log.Warn("periodic lock not released; it expires by itself", zap.String("lock", key), zap.Error(err))
		}
	}, false, nil
}

// Logger adapts zap to asynq.Logger.
type Logger struct{ s *zap.SugaredLogger }

var _ asynq.Logger = Logger{}

// NewLogger returns an asynq.Logger writing to l.
func NewLogger(l *zap.Logger) Logger {
	return Logger{s: l.WithOptions(zap.AddCallerSkip(2)).Sugar()}
}

// Debug logs at debug level.
func (l Logger) Debug(args ...any) { l.s.Debug(args...) }

// Info logs at info level.
func (l Logger) Info(args ...any) { l.s.Info(args...) }

// Warn logs at warn level.
func (l Logger) Warn(args ...any) { l.s.Warn(args...) }

// Error logs at error level.
func (l Logger) Error(args ...any) { l.s.Error(args...) }

// Fatal logs at fatal level and exits, as asynq.Logger requires.
func (l Logger) Fatal(args ...any) { l.s.Fatal(args...) }
