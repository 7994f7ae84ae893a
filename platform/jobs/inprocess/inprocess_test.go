package inprocess

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/jobs"
	clog "github.com/gocommerce/commerce/platform/log"
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

// start runs j until the test ends (or stop is called) and returns stop, which
// cancels Run and waits for it to return.
func start(t *testing.T, j *Jobs) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- j.Run(ctx) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Run: %v", err)
				}
			case <-time.After(waitLimit):
				t.Errorf("Run did not return after cancel")
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

func recv[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(waitLimit):
		t.Fatalf("timed out waiting for %s", what)
		var zero T
		return zero
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// notePeak raises peak to n.
func notePeak(peak *atomic.Int32, n int32) {
	for {
		p := peak.Load()
		if n <= p || peak.CompareAndSwap(p, n) {
			return
		}
	}
}

func logged(logs *observer.ObservedLogs, msg string) func() bool {
	return func() bool { return logs.FilterMessage(msg).Len() > 0 }
}

func TestEnqueueRunsTaskWithPayloadAndLogger(t *testing.T) {
	j, _ := newJobs(t, 2)
	type payload struct {
		OrderID string `json:"order_id"`
	}
	got := make(chan payload, 1)
	hasLogger := make(chan bool, 1)
	j.Handle("orders:notify", func(ctx context.Context, b []byte) error {
		var p payload
		if err := json.Unmarshal(b, &p); err != nil {
			return err
		}
		hasLogger <- clog.FromContext(ctx, nil) != nil
		got <- p
		return nil
	})
	start(t, j)
	if err := j.Enqueue(context.Background(), "orders:notify", payload{OrderID: "o-1"}); err != nil {
		t.Fatalf("Enqueue: %v", err)
	}
	if p := recv(t, got, "handler"); p.OrderID != "o-1" {
		t.Fatalf("payload = %+v", p)
	}
	if !recv(t, hasLogger, "logger") {
		t.Fatal("task context carries no logger")
	}
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
	start(t, j)
	seen := map[int]bool{}
	for range 5 {
		seen[recv(t, ran, "queued task")] = true
	}
	if len(seen) != 5 {
		t.Fatalf("ran %v, want 0..4", seen)
	}
}

func TestDelay(t *testing.T) {
	j, _ := newJobs(t, 1)
	ran := make(chan time.Time, 1)
	j.Handle("t", func(context.Context, []byte) error { ran <- time.Now(); return nil })
	start(t, j)
	const delay = 150 * time.Millisecond
	at := time.Now()
	if err := j.Enqueue(context.Background(), "t", nil, jobs.Delay(delay)); err != nil {
		t.Fatal(err)
	}
	if got := recv(t, ran, "delayed task").Sub(at); got < delay {
		t.Fatalf("ran after %v, want >= %v", got, delay)
	}
}

func TestRetryWithBackoffThenSuccess(t *testing.T) {
	j, logs := newJobs(t, 1)
	var mu sync.Mutex
	var asked []int
	j.Backoff = func(n int) time.Duration {
		mu.Lock()
		asked = append(asked, n)
		mu.Unlock()
		return time.Duration(n) * 20 * time.Millisecond
	}
	attempts := make(chan time.Time, 10)
	var calls atomic.Int32
	j.Handle("t", func(context.Context, []byte) error {
		attempts <- time.Now()
		if calls.Add(1) < 3 {
			return errors.New("temporary")
		}
		return nil
	})
	start(t, j)
	if err := j.Enqueue(context.Background(), "t", nil); err != nil {
		t.Fatal(err)
	}
	a1 := recv(t, attempts, "attempt 1")
	a2 := recv(t, attempts, "attempt 2")
	a3 := recv(t, attempts, "attempt 3")
	if d := a2.Sub(a1); d < 20*time.Millisecond {
		t.Errorf("first retry after %v, want >= 20ms", d)
	}
	if d := a3.Sub(a2); d < 40*time.Millisecond {
		t.Errorf("second retry after %v, want >= 40ms", d)
	}
	waitFor(t, "success log", logged(logs, "task done"))
	mu.Lock()
	defer mu.Unlock()
	if fmt.Sprint(asked) != "[1 2]" {
		t.Errorf("backoff asked for %v, want [1 2]", asked)
	}
	if n := logs.FilterMessage("task failed; will retry").Len(); n != 2 {
		t.Errorf("%d retry log lines, want 2", n)
	}
}

func TestRetryBudgetExhausted(t *testing.T) {
	j, logs := newJobs(t, 1)
	var calls atomic.Int32
	j.Handle("t", func(context.Context, []byte) error { calls.Add(1); return errors.New("down") })
	start(t, j)
	if err := j.Enqueue(context.Background(), "t", nil, jobs.MaxRetry(2)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "drop log", logged(logs, "task failed; dropped"))
	if n := calls.Load(); n != 3 {
		t.Fatalf("%d attempts, want 3 (1 + MaxRetry 2)", n)
	}
}

func TestDefaultMaxRetry(t *testing.T) {
	j, logs := newJobs(t, 1)
	var calls atomic.Int32
	j.Handle("t", func(context.Context, []byte) error { calls.Add(1); return errors.New("down") })
	start(t, j)
	if err := j.Enqueue(context.Background(), "t", nil); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "drop log", logged(logs, "task failed; dropped"))
	if n := calls.Load(); n != DefaultMaxRetry+1 {
		t.Fatalf("%d attempts, want %d", n, DefaultMaxRetry+1)
	}
}

func TestSkipRetry(t *testing.T) {
	j, logs := newJobs(t, 1)
	var calls atomic.Int32
	j.Handle("t", func(context.Context, []byte) error {
		calls.Add(1)
		return fmt.Errorf("bad payload: %w", jobs.ErrSkipRetry)
	})
	start(t, j)
	if err := j.Enqueue(context.Background(), "t", nil); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "drop log", logged(logs, "task failed; dropped"))
	if n := calls.Load(); n != 1 {
		t.Fatalf("%d attempts, want 1", n)
	}
	e := logs.FilterMessage("task failed; dropped").All()[0]
	if e.ContextMap()["task"] != "t" || e.ContextMap()["error"] == nil || e.ContextMap()["skip_retry"] != true {
		t.Fatalf("drop log fields = %v", e.ContextMap())
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
	start(t, j)
	if err := j.Enqueue(context.Background(), "t", nil); err != nil {
		t.Fatal(err)
	}
	recv(t, done, "retry after panic")
}

func TestUniqueDedupesPendingTasks(t *testing.T) {
	j, logs := newJobs(t, 2)
	ran := make(chan string, 10)
	j.Handle("t", func(_ context.Context, b []byte) error { ran <- string(b); return nil })
	ctx := context.Background()
	// Both before Run: the second is a duplicate of a queued task.
	if err := j.Enqueue(ctx, "t", "first", jobs.Unique("k")); err != nil {
		t.Fatal(err)
	}
	if err := j.Enqueue(ctx, "t", "second", jobs.Unique("k")); err != nil {
		t.Fatalf("duplicate Enqueue returned %v, want nil", err)
	}
	// Another key is not a duplicate.
	if err := j.Enqueue(ctx, "t", "other", jobs.Unique("k2")); err != nil {
		t.Fatal(err)
	}
	start(t, j)
	got := map[string]bool{recv(t, ran, "task"): true, recv(t, ran, "task"): true}
	if !got[`"first"`] || !got[`"other"`] {
		t.Fatalf("ran %v, want first and other", got)
	}
	// Once the task is done its key is free again.
	waitFor(t, "two successes", func() bool { return logs.FilterMessage("task done").Len() == 2 })
	if err := j.Enqueue(ctx, "t", "third", jobs.Unique("k")); err != nil {
		t.Fatal(err)
	}
	if v := recv(t, ran, "task after key release"); v != `"third"` {
		t.Fatalf("ran %s, want third", v)
	}
	select {
	case v := <-ran:
		t.Fatalf("unexpected run %s", v)
	default:
	}
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
	start(t, j)
	ctx := context.Background()
	if err := j.Enqueue(ctx, "t", nil, jobs.Unique("k"), jobs.Delay(30*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if err := j.Enqueue(ctx, "t", nil, jobs.Unique("k")); err != nil { // delayed: duplicate
		t.Fatal(err)
	}
	waitFor(t, "first failure", logged(logs, "task failed; will retry"))
	if err := j.Enqueue(ctx, "t", nil, jobs.Unique("k")); err != nil { // waiting for retry: duplicate
		t.Fatal(err)
	}
	waitFor(t, "success", logged(logs, "task done"))
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
		notePeak(&peak, cur.Add(1))
		started <- struct{}{}
		<-release
		cur.Add(-1)
		return nil
	})
	start(t, j)
	for range 5 {
		if err := j.Enqueue(context.Background(), "t", nil); err != nil {
			t.Fatal(err)
		}
	}
	recv(t, started, "first task")
	recv(t, started, "second task")
	select {
	case <-started:
		t.Fatal("a third task started while two are running with concurrency 2")
	case <-time.After(30 * time.Millisecond):
	}
	close(release)
	for range 3 {
		recv(t, started, "remaining tasks")
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
		notePeak(&peak, cur.Add(1))
		defer cur.Add(-1)
		if runs.Add(1) == 1 {
			time.Sleep(3 * interval) // a slow run: the ticks meanwhile are skipped
		}
		ran <- time.Now()
		return nil
	})
	j.Every("sweep", interval)
	began := time.Now()
	stop := start(t, j)
	first := recv(t, ran, "first run")
	if d := first.Sub(began); d < interval {
		t.Errorf("first run after %v, want >= one interval (%v)", d, interval)
	}
	recv(t, ran, "second run")
	recv(t, ran, "third run")
	stop()
	if p := peak.Load(); p != 1 {
		t.Fatalf("peak concurrent runs of one periodic task = %d, want 1", p)
	}
}

func TestEveryAfterRunStarts(t *testing.T) {
	j, _ := newJobs(t, 1)
	ran := make(chan struct{}, 10)
	j.Handle("sweep", func(context.Context, []byte) error { ran <- struct{}{}; return nil })
	start(t, j)
	j.Every("sweep", 20*time.Millisecond)
	recv(t, ran, "periodic run")
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
	stop := start(t, j)
	if err := j.Enqueue(context.Background(), "t", nil); err != nil {
		t.Fatal(err)
	}
	recv(t, started, "task start")
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
	stop := start(t, j)
	if err := j.Enqueue(context.Background(), "t", nil); err != nil {
		t.Fatal(err)
	}
	recv(t, started, "task start")
	at := time.Now()
	stop()
	if d := time.Since(at); d > time.Second {
		t.Fatalf("Run took %v to stop, want about the 50ms shutdown timeout", d)
	}
	recv(t, canceled, "task context cancel")
	if !logged(logs, "in-process jobs runner stopped with tasks still running; their contexts were canceled")() {
		t.Error("no warning about the timed-out shutdown")
	}
}

func TestRunTwiceFails(t *testing.T) {
	j, _ := newJobs(t, 1)
	ran := make(chan struct{}, 1)
	j.Handle("t", func(context.Context, []byte) error { ran <- struct{}{}; return nil })
	start(t, j)
	// Wait until the first Run is active.
	if err := j.Enqueue(context.Background(), "t", nil); err != nil {
		t.Fatal(err)
	}
	recv(t, ran, "task")
	if err := j.Run(context.Background()); err == nil {
		t.Fatal("second concurrent Run succeeded")
	}
}

func TestRunAgainAfterStopRunsLeftoverTasks(t *testing.T) {
	j, _ := newJobs(t, 1)
	ran := make(chan struct{}, 1)
	j.Handle("t", func(context.Context, []byte) error { ran <- struct{}{}; return nil })
	stop := start(t, j)
	stop()
	if err := j.Enqueue(context.Background(), "t", nil); err != nil {
		t.Fatal(err)
	}
	start(t, j)
	recv(t, ran, "task queued between runs")
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

func TestHandleTwicePanics(t *testing.T) {
	j, _ := newJobs(t, 1)
	h := func(context.Context, []byte) error { return nil }
	j.Handle("t", h)
	defer func() {
		if recover() == nil {
			t.Fatal("second Handle of the same type did not panic")
		}
	}()
	j.Handle("t", h)
}
