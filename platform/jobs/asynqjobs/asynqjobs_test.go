package asynqjobs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/jobs"
	"github.com/gocommerce/commerce/platform/jobs/jobstest"
	"github.com/gocommerce/commerce/platform/testredis"
)

const waitLimit = 10 * time.Second

// redisURL is TEST_REDIS_URL's server (default 127.0.0.1:6379) with database 9, kept
// apart from the other packages' tests. Each test uses its own queue, so parallel
// runs never flush or share one another's data.
func redisURL(t *testing.T) string {
	t.Helper()
	u, err := url.Parse(testredis.URL(t))
	if err != nil {
		t.Fatalf("TEST_REDIS_URL: %v", err)
	}
	u.Path = "/9"
	return u.String()
}

func uniqueQueue(t *testing.T) string {
	t.Helper()
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return "test-" + hex.EncodeToString(b)
}

type harness struct {
	*Jobs
	logs  *observer.ObservedLogs
	queue string
}

// newJobs returns an adapter on a fresh queue (shared when queue is given), tuned to
// poll fast; the queue and its locks are deleted when the test ends.
func newJobs(t *testing.T, queue string) *harness {
	t.Helper()
	cfg := config.Default()
	cfg.Redis.URL = redisURL(t)
	cfg.Jobs.Concurrency = 4
	core, logs := observer.New(zapcore.DebugLevel)
	j, cleanup, err := New(&cfg, zap.New(core))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(cleanup)
	if queue == "" {
		queue = uniqueQueue(t)
	}
	j.DefaultQueue = queue
	j.PollInterval = 20 * time.Millisecond
	j.DelayedPollInterval = 50 * time.Millisecond
	j.ShutdownTimeout = time.Second
	j.Backoff = func(int) time.Duration { return 50 * time.Millisecond }
	t.Cleanup(func() {
		// Runs after Run stopped (cleanups run last-registered first).
		ctx := context.Background()
		for _, pattern := range []string{"asynq:{" + queue + "}:*", "commerce:jobs:{" + queue + "}:*"} {
			iter := j.rdb.Scan(ctx, 0, pattern, 100).Iterator()
			for iter.Next(ctx) {
				j.rdb.Del(ctx, iter.Val())
			}
		}
		j.rdb.SRem(ctx, "asynq:queues", queue)
	})
	return &harness{Jobs: j, logs: logs, queue: queue}
}

// state returns the asynq state of task id in j's queue, or "gone".
func (j *harness) state(t *testing.T, id string) string {
	t.Helper()
	info, err := j.inspector.GetTaskInfo(j.queue, id)
	if errors.Is(err, asynq.ErrTaskNotFound) {
		return "gone"
	}
	if err != nil {
		t.Fatalf("GetTaskInfo: %v", err)
	}
	return info.State.String()
}

func TestConformance(t *testing.T) {
	jobstest.Conformance(t, jobstest.Adapter{
		New: func(t *testing.T, backoff func(int) time.Duration) (jobstest.Backend, *observer.ObservedLogs) {
			j := newJobs(t, "")
			j.Backoff = backoff
			return j.Jobs, j.logs
		},
		Wait:   waitLimit,
		Delay:  700 * time.Millisecond,
		Failed: "task failed; archived",
		KeyFree: func(t *testing.T, b jobstest.Backend, _ *observer.ObservedLogs, key string) bool {
			j := b.(*Jobs)
			_, err := j.inspector.GetTaskInfo(j.DefaultQueue, uniquePrefix+key)
			return errors.Is(err, asynq.ErrTaskNotFound)
		},
		Parallel: true,
	})
}

func TestHandlersMatchExactly(t *testing.T) {
	t.Parallel()
	j := newJobs(t, "")
	ran := make(chan string, 2)
	j.Handle("email", func(context.Context, []byte) error { ran <- "email"; return nil })
	j.Handle("email:welcome", func(context.Context, []byte) error { ran <- "email:welcome"; return nil })
	jobstest.Start(t, j, waitLimit)
	ctx := context.Background()
	if err := j.Enqueue(ctx, "email:welcome", nil); err != nil {
		t.Fatal(err)
	}
	if got := jobstest.Recv(t, ran, waitLimit, "handler"); got != "email:welcome" {
		t.Fatalf("ran %s", got)
	}
	// An unknown type that starts like a known one is not handed to it (asynq.ServeMux would).
	if err := j.Enqueue(ctx, "email:unknown", nil, jobs.MaxRetry(-1)); err != nil {
		t.Fatal(err)
	}
	jobstest.WaitFor(t, waitLimit, "unknown type failure", func() bool { return j.logs.FilterMessage("task failed; archived").Len() == 1 })
	select {
	case got := <-ran:
		t.Fatalf("unknown type ran the %s handler", got)
	default:
	}
}

func TestSkipRetryArchivesAndFreesUniqueKey(t *testing.T) {
	t.Parallel()
	j := newJobs(t, "")
	var calls atomic.Int32
	ran := make(chan struct{}, 2)
	j.Handle("t", func(context.Context, []byte) error {
		calls.Add(1)
		ran <- struct{}{}
		return fmt.Errorf("bad payload: %w", jobs.ErrSkipRetry)
	})
	jobstest.Start(t, j, waitLimit)
	ctx := context.Background()
	if err := j.Enqueue(ctx, "t", nil, jobs.Unique("k"), jobs.MaxRetry(10)); err != nil {
		t.Fatal(err)
	}
	jobstest.Recv(t, ran, waitLimit, "attempt")
	jobstest.WaitFor(t, waitLimit, "archived", func() bool { return j.state(t, "u:k") == "archived" })
	if n := calls.Load(); n != 1 {
		t.Fatalf("%d attempts, want 1", n)
	}
	e := j.logs.FilterMessage("task failed; archived").All()
	if len(e) != 1 || e[0].ContextMap()["skip_retry"] != true || e[0].ContextMap()["task"] != "t" {
		t.Fatalf("failure log = %v", e)
	}
	// A task that failed for good does not block its key.
	if err := j.Enqueue(ctx, "t", nil, jobs.Unique("k")); err != nil {
		t.Fatal(err)
	}
	jobstest.Recv(t, ran, waitLimit, "attempt after re-enqueue")
}

func TestEveryRunsPeriodically(t *testing.T) {
	t.Parallel()
	j := newJobs(t, "")
	const interval = 300 * time.Millisecond
	ran := make(chan string, 10)
	j.Handle("sweep", func(ctx context.Context, b []byte) error {
		if string(b) != "{}" {
			t.Errorf("periodic payload %q, want {}", b)
		}
		id, _ := asynq.GetTaskID(ctx)
		ran <- id
		return nil
	})
	j.Every("sweep", interval)
	jobstest.Start(t, j, waitLimit)
	a, b := jobstest.Recv(t, ran, waitLimit, "first run"), jobstest.Recv(t, ran, waitLimit, "second run")
	if a == b {
		t.Fatalf("two runs with the same ID %s", a)
	}
}

// Two workers (two Jobs on one Redis and queue, as two `commerce worker` processes)
// both schedule the same periodic task: each bucket runs once, and runs never overlap.
func TestEveryTwoWorkersRunEachTickOnce(t *testing.T) {
	t.Parallel()
	w1 := newJobs(t, "")
	w2 := newJobs(t, w1.queue)
	const interval = 250 * time.Millisecond
	var mu sync.Mutex
	runs := map[string]int{} // task ID -> runs
	var cur, peak atomic.Int32
	ran := make(chan struct{}, 100)
	handler := func(ctx context.Context, _ []byte) error {
		n := cur.Add(1)
		defer cur.Add(-1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		id, _ := asynq.GetTaskID(ctx)
		mu.Lock()
		runs[id]++
		first := len(runs) == 1
		mu.Unlock()
		if first {
			// Outlast two ticks: those runs must be skipped, not overlap.
			time.Sleep(2*interval + 100*time.Millisecond)
		}
		ran <- struct{}{}
		return nil
	}
	for _, w := range []*harness{w1, w2} {
		w.Handle("sweep", handler)
		w.Every("sweep", interval)
	}
	began := time.Now()
	stop1, stop2 := jobstest.Start(t, w1, waitLimit), jobstest.Start(t, w2, waitLimit)
	for range 5 {
		jobstest.Recv(t, ran, waitLimit, "periodic run")
	}
	stop1()
	stop2()
	buckets := int(time.Since(began)/interval) + 1

	mu.Lock()
	defer mu.Unlock()
	for id, n := range runs {
		if n != 1 {
			t.Errorf("tick %s ran %d times", id, n)
		}
	}
	if len(runs) > buckets {
		t.Errorf("%d ticks ran in %d buckets", len(runs), buckets)
	}
	if p := peak.Load(); p != 1 {
		t.Errorf("peak concurrent runs = %d, want 1", p)
	}
	skipped := w1.logs.FilterMessage("periodic run skipped: the previous run is still going").Len() +
		w2.logs.FilterMessage("periodic run skipped: the previous run is still going").Len()
	if skipped == 0 {
		t.Error("no tick was skipped while the slow run held the lock")
	}
	enq1 := w1.logs.FilterMessage("periodic task enqueued").Len()
	enq2 := w2.logs.FilterMessage("periodic task enqueued").Len()
	dropped := w1.logs.FilterMessage("periodic task already enqueued by another worker").Len() +
		w2.logs.FilterMessage("periodic task already enqueued by another worker").Len()
	t.Logf("runs %d, buckets %d, enqueued %d+%d, dropped %d, skipped %d", len(runs), buckets, enq1, enq2, dropped, skipped)
	if enq1+enq2 > buckets || dropped == 0 {
		t.Errorf("enqueued %d+%d in %d buckets, %d dropped as duplicates", enq1, enq2, buckets, dropped)
	}
}

func TestRunFailsWithoutRedis(t *testing.T) {
	t.Parallel()
	cfg := config.Default()
	cfg.Redis.URL = "redis://127.0.0.1:1/9"
	j, cleanup, err := New(&cfg, zap.NewNop())
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := j.Run(ctx); err == nil {
		t.Fatal("Run succeeded without Redis")
	}
	if err := j.Enqueue(ctx, "t", nil); err == nil {
		t.Fatal("Enqueue succeeded without Redis")
	}
}

func TestNewNeedsRedisURL(t *testing.T) {
	cfg := config.Default()
	if _, _, err := New(&cfg, zap.NewNop()); err == nil {
		t.Fatal("New succeeded without redis.url")
	}
	cfg.Redis.URL = "redis://127.0.0.1:6379/notanumber"
	if _, _, err := New(&cfg, zap.NewNop()); err == nil {
		t.Fatal("New succeeded with a bad redis.url")
	}
}

func TestNextTickIsMidBucket(t *testing.T) {
	const iv = time.Minute
	base := time.Unix(1_700_000_000, 0).Truncate(iv) // a bucket start (minutes divide the epoch)
	cases := []struct{ now, want time.Time }{
		{base, base.Add(30 * time.Second)},
		{base.Add(29 * time.Second), base.Add(30 * time.Second)},
		{base.Add(30 * time.Second), base.Add(90 * time.Second)},
		{base.Add(59 * time.Second), base.Add(90 * time.Second)},
	}
	for _, c := range cases {
		if got := nextTick(c.now, iv); !got.Equal(c.want) {
			t.Errorf("nextTick(%v) = %v, want %v", c.now, got, c.want)
		}
	}
	// Every instant of a bucket names the same run.
	if periodicID("s", base, iv) != periodicID("s", base.Add(iv-1), iv) ||
		periodicID("s", base, iv) == periodicID("s", base.Add(iv), iv) {
		t.Error("periodicID does not follow the buckets")
	}
}

func TestLoggerAdapter(t *testing.T) {
	core, logs := observer.New(zapcore.DebugLevel)
	var l asynq.Logger = NewLogger(zap.New(core))
	l.Debug("a", 1)
	l.Info("b")
	l.Warn("c")
	l.Error("d")
	got := logs.All()
	if len(got) != 4 || got[0].Message != "a1" || got[3].Level != zapcore.ErrorLevel {
		t.Fatalf("logged %v", got)
	}
}

func TestUniqueDedupesScheduledTasks(t *testing.T) {
	t.Parallel()
	j := newJobs(t, "")
	j.Handle("t", func(context.Context, []byte) error { return nil })
	ctx := context.Background()
	for _, key := range []string{"k", "k", "d", "d"} {
		var opts []jobs.Option
		if key == "d" {
			opts = append(opts, jobs.Delay(time.Hour))
		}
		if err := j.Enqueue(ctx, "t", key, append(opts, jobs.Unique(key))...); err != nil {
			t.Fatalf("Enqueue %s: %v", key, err)
		}
	}
	info, err := j.inspector.GetQueueInfo(j.queue)
	if err != nil {
		t.Fatal(err)
	}
	if info.Pending != 1 || info.Scheduled != 1 {
		t.Fatalf("pending %d, scheduled %d; want 1 and 1", info.Pending, info.Scheduled)
	}
}
