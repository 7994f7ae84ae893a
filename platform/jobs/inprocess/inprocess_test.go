package inprocess

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/jobs"
	"github.com/gocommerce/commerce/platform/jobs/jobstest"
)

const waitLimit = 5 * time.Second

func newJobs(t *testing.T, concurrency int) (*Jobs, *observer.ObservedLogs) {
	t.Helper()
	core, logs := observer.New(zapcore.DebugLevel)
	cfg := config.Default()
	cfg.Jobs.Concurrency = concurrency
	j := New(&cfg, zap.New(core))
	j.Backoff = func(int) time.Duration { return time.Millisecond }
	j.ShutdownTimeout = 2 * time.Second
	return j, logs
}

func TestConformance(t *testing.T) {
	jobstest.Conformance(t, jobstest.Adapter{
		New: func(t *testing.T, backoff func(int) time.Duration) (jobstest.Backend, *observer.ObservedLogs) {
			j, logs := newJobs(t, 2)
			j.Backoff = backoff
			return j, logs
		},
		Wait:         waitLimit,
		Delay:        150 * time.Millisecond,
		ExactBackoff: true,
		Failed:       "task failed; dropped",
		KeyFree: func(_ *testing.T, _ jobstest.Backend, logs *observer.ObservedLogs, _ string) bool {
			return logs.FilterMessage("task done").Len() == 2
		},
	})
}

func TestEnqueueUnknownTypeFails(t *testing.T) {
	j, _ := newJobs(t, 1)
	err := j.Enqueue(context.Background(), "nope", nil)
	if err == nil {
		t.Fatal("Enqueue of an unknown task type succeeded")
	}
}

func TestEnqueueBeforeRunRunsOnceRunStarts(t *testing.T) {
	j, _ := newJobs(t, 3)
	ran := make(chan int, 10)
	j.Handle("t", func(_ context.Context, b []byte) error {
		var n int
		if err := json.Unmarshal(b, &n); err != nil {
			return err
		}
		ran <- n
		return nil
	})
	for i := range 5 {
		if err := j.Enqueue(context.Background(), "t", i); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case <-ran:
		t.Fatal("task ran before Run")
	case <-time.After(20 * time.Millisecond):
	}
	jobstest.Start(t, j, waitLimit)
	seen := map[int]bool{}
	for range 5 {
		seen[jobstest.Recv(t, ran, waitLimit, "queued task")] = true
	}
	if len(seen) != 5 {
		t.Fatalf("ran %v, want 0..4", seen)
	}
}

// A failing task runs 1 + its retry budget times (MaxRetry, or DefaultMaxRetry), then
// is dropped.
func TestRetryBudget(t *testing.T) {
	for _, c := range []struct {
		opts []jobs.Option
		want int32
	}{{[]jobs.Option{jobs.MaxRetry(2)}, 3}, {nil, DefaultMaxRetry + 1}} {
		j, logs := newJobs(t, 1)
		var calls atomic.Int32
		j.Handle("t", func(context.Context, []byte) error { calls.Add(1); return errors.New("down") })
		jobstest.Start(t, j, waitLimit)
		if err := j.Enqueue(context.Background(), "t", nil, c.opts...); err != nil {
			t.Fatal(err)
		}
		jobstest.WaitFor(t, waitLimit, "drop log", jobstest.Logged(logs, "task failed; dropped", 1))
		if n := calls.Load(); n != c.want {
			t.Fatalf("%d attempts with %d options, want %d", n, len(c.opts), c.want)
		}
	}
}

func TestPanicIsRetried(t *testing.T) {
	j, _ := newJobs(t, 1)
	var calls atomic.Int32
	done := make(chan struct{})
	j.Handle("t", func(context.Context, []byte) error {
		if calls.Add(1) == 1 {
			panic("boom")
		}
		close(done)
		return nil
	})
	jobstest.Start(t, j, waitLimit)
	if err := j.Enqueue(context.Background(), "t", nil); err != nil {
		t.Fatal(err)
	}
	jobstest.Recv(t, done, waitLimit, "retry after panic")
}

func TestUniqueHeldWhileDelayedOrRetrying(t *testing.T) {
	j, logs := newJobs(t, 1)
	j.Backoff = func(int) time.Duration { return 100 * time.Millisecond }
	var calls atomic.Int32
	j.Handle("t", func(context.Context, []byte) error {
		if calls.Add(1) == 1 {
			return errors.New("once")
		}
		return nil
	})
	jobstest.Start(t, j, waitLimit)
	ctx := context.Background()
	if err := j.Enqueue(ctx, "t", nil, jobs.Unique("k"), jobs.Delay(30*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if err := j.Enqueue(ctx, "t", nil, jobs.Unique("k")); err != nil { // delayed: duplicate
		t.Fatal(err)
	}
	jobstest.WaitFor(t, waitLimit, "first failure", jobstest.Logged(logs, "task failed; will retry", 1))
	if err := j.Enqueue(ctx, "t", nil, jobs.Unique("k")); err != nil { // waiting for retry: duplicate
		t.Fatal(err)
	}
	jobstest.WaitFor(t, waitLimit, "success", jobstest.Logged(logs, "task done", 1))
	if n := calls.Load(); n != 2 {
		t.Fatalf("%d attempts, want 2 (duplicates dropped)", n)
	}
}

func TestConcurrencyIsBounded(t *testing.T) {
	j, _ := newJobs(t, 2)
	var cur, peak atomic.Int32
	release := make(chan struct{})
	started := make(chan struct{}, 10)
	j.Handle("t", func(context.Context, []byte) error {
		jobstest.NotePeak(&peak, cur.Add(1))
		started <- struct{}{}
		<-release
		cur.Add(-1)
		return nil
	})
	jobstest.Start(t, j, waitLimit)
	for range 5 {
		if err := j.Enqueue(context.Background(), "t", nil); err != nil {
			t.Fatal(err)
		}
	}
	jobstest.Recv(t, started, waitLimit, "first task")
	jobstest.Recv(t, started, waitLimit, "second task")
	select {
	case <-started:
		t.Fatal("a third task started while two are running with concurrency 2")
	case <-time.After(30 * time.Millisecond):
	}
	close(release)
	for range 3 {
		jobstest.Recv(t, started, waitLimit, "remaining tasks")
	}
	if p := peak.Load(); p != 2 {
		t.Fatalf("peak concurrency %d, want 2", p)
	}
}

func TestEveryRunsPeriodicallyWithoutOverlap(t *testing.T) {
	j, _ := newJobs(t, 4)
	const interval = 40 * time.Millisecond
	var cur, peak, runs atomic.Int32
	ran := make(chan time.Time, 100)
	j.Handle("sweep", func(_ context.Context, b []byte) error {
		if string(b) != "{}" {
			t.Errorf("periodic payload %q, want {}", b)
		}
		jobstest.NotePeak(&peak, cur.Add(1))
		defer cur.Add(-1)
		if runs.Add(1) == 1 {
			time.Sleep(3 * interval) // a slow run: the ticks meanwhile are skipped
		}
		ran <- time.Now()
		return nil
	})
	j.Every("sweep", interval)
	began := time.Now()
	stop := jobstest.Start(t, j, waitLimit)
	first := jobstest.Recv(t, ran, waitLimit, "first run")
	if d := first.Sub(began); d < interval {
		t.Errorf("first run after %v, want >= one interval (%v)", d, interval)
	}
	jobstest.Recv(t, ran, waitLimit, "second run")
	jobstest.Recv(t, ran, waitLimit, "third run")
	stop()
	if p := peak.Load(); p != 1 {
		t.Fatalf("peak concurrent runs of one periodic task = %d, want 1", p)
	}
}

func TestGracefulStopWaitsForInFlight(t *testing.T) {
	j, _ := newJobs(t, 1)
	started := make(chan struct{})
	var finished atomic.Bool
	var ctxErr atomic.Value
	j.Handle("t", func(ctx context.Context, _ []byte) error {
		close(started)
		time.Sleep(80 * time.Millisecond)
		if ctx.Err() != nil {
			ctxErr.Store(ctx.Err())
		}
		finished.Store(true)
		return nil
	})
	stop := jobstest.Start(t, j, waitLimit)
	if err := j.Enqueue(context.Background(), "t", nil); err != nil {
		t.Fatal(err)
	}
	jobstest.Recv(t, started, waitLimit, "task start")
	stop()
	if !finished.Load() {
		t.Fatal("Run returned before the in-flight task finished")
	}
	if v := ctxErr.Load(); v != nil {
		t.Fatalf("in-flight task context canceled during graceful stop: %v", v)
	}
}

func TestStopIsBoundedByShutdownTimeout(t *testing.T) {
	j, logs := newJobs(t, 1)
	j.ShutdownTimeout = 50 * time.Millisecond
	started := make(chan struct{})
	canceled := make(chan struct{})
	j.Handle("t", func(ctx context.Context, _ []byte) error {
		close(started)
		<-ctx.Done()
		close(canceled)
		return ctx.Err()
	})
	stop := jobstest.Start(t, j, waitLimit)
	if err := j.Enqueue(context.Background(), "t", nil); err != nil {
		t.Fatal(err)
	}
	jobstest.Recv(t, started, waitLimit, "task start")
	at := time.Now()
	stop()
	if d := time.Since(at); d > time.Second {
		t.Fatalf("Run took %v to stop, want about the 50ms shutdown timeout", d)
	}
	jobstest.Recv(t, canceled, waitLimit, "task context cancel")
	if !jobstest.Logged(logs, "in-process jobs runner stopped with tasks still running; their contexts were canceled", 1)() {
		t.Error("no warning about the timed-out shutdown")
	}
}

func TestRunAgainAfterStopRunsLeftoverTasks(t *testing.T) {
	j, _ := newJobs(t, 1)
	ran := make(chan struct{}, 1)
	j.Handle("t", func(context.Context, []byte) error { ran <- struct{}{}; return nil })
	stop := jobstest.Start(t, j, waitLimit)
	stop()
	if err := j.Enqueue(context.Background(), "t", nil); err != nil {
		t.Fatal(err)
	}
	jobstest.Start(t, j, waitLimit)
	jobstest.Recv(t, ran, waitLimit, "task queued between runs")
}

func TestDefaultBackoff(t *testing.T) {
	want := []time.Duration{5 * time.Second, 10 * time.Second, 20 * time.Second, 40 * time.Second}
	for i, w := range want {
		if got := DefaultBackoff(i + 1); got != w {
			t.Errorf("DefaultBackoff(%d) = %v, want %v", i+1, got, w)
		}
	}
	if got := DefaultBackoff(100); got != 10*time.Minute {
		t.Errorf("DefaultBackoff(100) = %v, want the 10m cap", got)
	}
}
