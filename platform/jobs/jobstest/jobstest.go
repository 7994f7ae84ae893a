// Package jobstest is the test kit of the jobs adapters: helpers to run an adapter
// and wait for its tasks, and Conformance, the behaviour every adapter shares, which
// each adapter's tests run against a fresh instance of it.
package jobstest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/zap/zaptest/observer"

	"github.com/gocommerce/commerce/platform/jobs"
	clog "github.com/gocommerce/commerce/platform/log"
)

// Backend is a jobs adapter.
type Backend interface {
	jobs.Enqueuer
	jobs.Registry
	jobs.Runner
}

// Start runs r until the test ends (or stop is called) and returns stop, which
// cancels Run and waits up to limit for it to return.
func Start(t *testing.T, r jobs.Runner, limit time.Duration) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Run: %v", err)
				}
			case <-time.After(limit):
				t.Errorf("Run did not return after cancel")
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

// Recv returns the next value of ch, failing the test after limit.
func Recv[T any](t *testing.T, ch <-chan T, limit time.Duration, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(limit):
		t.Fatalf("timed out waiting for %s", what)
		var zero T
		return zero
	}
}

// WaitFor polls cond until it holds, failing the test after limit.
func WaitFor(t *testing.T, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// NotePeak raises peak to n.
func NotePeak(peak *atomic.Int32, n int32) {
	for {
		p := peak.Load()
		if n <= p || peak.CompareAndSwap(p, n) {
			return
		}
	}
}

// Logged reports whether logs hold at least n entries with message msg.
func Logged(logs *observer.ObservedLogs, msg string, n int) func() bool {
	return func() bool { return logs.FilterMessage(msg).Len() >= n }
}

// Adapter makes fresh instances of one adapter for Conformance.
type Adapter struct {
	// New returns a fresh backend whose retry n waits backoff(n), and its logs.
	New func(t *testing.T, backoff func(retry int) time.Duration) (Backend, *observer.ObservedLogs)
	// Wait bounds every wait for a task or a log line.
	Wait time.Duration
	// Delay is what the delay test asks for (at least the backend's resolution).
	Delay time.Duration
	// ExactBackoff: a retry never runs before its backoff (a backend that keeps due
	// times in whole seconds may run it earlier).
	ExactBackoff bool
	// Failed is the log message of a task that failed for good.
	Failed string
	// KeyFree reports whether the unique key is free again after its task ran.
	KeyFree func(t *testing.T, b Backend, logs *observer.ObservedLogs, key string) bool
	// Parallel runs the tests in parallel.
	Parallel bool
}

// Conformance runs the behaviour every adapter shares.
func Conformance(t *testing.T, a Adapter) {
	fast := func(int) time.Duration { return time.Millisecond }
	tests := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"EnqueueBeforeRunThenHandlerRunsWithPayloadAndLogger", func(t *testing.T) {
			b, logs := a.New(t, fast)
			type payload struct {
				OrderID string `json:"order_id"`
			}
			got := make(chan payload, 1)
			hasLogger := make(chan bool, 1)
			b.Handle("orders:notify", func(ctx context.Context, raw []byte) error {
				var p payload
				if err := json.Unmarshal(raw, &p); err != nil {
					return err
				}
				hasLogger <- clog.FromContext(ctx, nil) != nil
				got <- p
				return nil
			})
			if err := b.Enqueue(context.Background(), "orders:notify", payload{OrderID: "o-1"}); err != nil {
				t.Fatalf("Enqueue: %v", err)
			}
			Start(t, b, a.Wait)
			if p := Recv(t, got, a.Wait, "handler"); p.OrderID != "o-1" {
				t.Fatalf("payload = %+v", p)
			}
			if !Recv(t, hasLogger, a.Wait, "logger") {
				t.Fatal("task context carries no logger")
			}
			WaitFor(t, a.Wait, "success log", Logged(logs, "task done", 1))
		}},
		{"Delay", func(t *testing.T) {
			b, _ := a.New(t, fast)
			ran := make(chan time.Time, 1)
			b.Handle("t", func(context.Context, []byte) error { ran <- time.Now(); return nil })
			Start(t, b, a.Wait)
			at := time.Now()
			if err := b.Enqueue(context.Background(), "t", nil, jobs.Delay(a.Delay)); err != nil {
				t.Fatal(err)
			}
			if got := Recv(t, ran, a.Wait, "delayed task").Sub(at); got < a.Delay {
				t.Fatalf("ran after %v, want >= %v", got, a.Delay)
			}
		}},
		{"RetryWithBackoffThenSuccess", func(t *testing.T) {
			var mu sync.Mutex
			var asked []int
			b, logs := a.New(t, func(n int) time.Duration {
				mu.Lock()
				asked = append(asked, n)
				mu.Unlock()
				return time.Duration(n) * 20 * time.Millisecond
			})
			attempts := make(chan time.Time, 10)
			var calls atomic.Int32
			b.Handle("t", func(context.Context, []byte) error {
				attempts <- time.Now()
				if calls.Add(1) < 3 {
					return errors.New("temporary")
				}
				return nil
			})
			Start(t, b, a.Wait)
			if err := b.Enqueue(context.Background(), "t", nil, jobs.MaxRetry(3)); err != nil {
				t.Fatal(err)
			}
			a1 := Recv(t, attempts, a.Wait, "attempt 1")
			a2 := Recv(t, attempts, a.Wait, "attempt 2")
			a3 := Recv(t, attempts, a.Wait, "attempt 3")
			if d := a2.Sub(a1); a.ExactBackoff && d < 20*time.Millisecond {
				t.Errorf("first retry after %v, want >= 20ms", d)
			}
			if d := a3.Sub(a2); a.ExactBackoff && d < 40*time.Millisecond {
				t.Errorf("second retry after %v, want >= 40ms", d)
			}
			WaitFor(t, a.Wait, "success log", Logged(logs, "task done", 1))
			if n := logs.FilterMessage("task failed; will retry").Len(); n != 2 {
				t.Errorf("%d retry log lines, want 2", n)
			}
			mu.Lock()
			defer mu.Unlock()
			if fmt.Sprint(asked) != "[1 2]" {
				t.Errorf("backoff asked for %v, want [1 2]", asked)
			}
		}},
		{"SkipRetry", func(t *testing.T) {
			b, logs := a.New(t, fast)
			var calls atomic.Int32
			b.Handle("t", func(context.Context, []byte) error {
				calls.Add(1)
				return fmt.Errorf("bad payload: %w", jobs.ErrSkipRetry)
			})
			Start(t, b, a.Wait)
			if err := b.Enqueue(context.Background(), "t", nil, jobs.MaxRetry(10)); err != nil {
				t.Fatal(err)
			}
			WaitFor(t, a.Wait, "failure log", Logged(logs, a.Failed, 1))
			if n := calls.Load(); n != 1 {
				t.Fatalf("%d attempts, want 1", n)
			}
			e := logs.FilterMessage(a.Failed).All()[0].ContextMap()
			if e["task"] != "t" || e["error"] == nil || e["skip_retry"] != true {
				t.Fatalf("failure log fields = %v", e)
			}
		}},
		{"UniqueDedupesPendingTasks", func(t *testing.T) {
			b, logs := a.New(t, fast)
			ran := make(chan string, 10)
			b.Handle("t", func(_ context.Context, raw []byte) error { ran <- string(raw); return nil })
			ctx := context.Background()
			// Both before Run: the second is a duplicate of a queued task.
			if err := b.Enqueue(ctx, "t", "first", jobs.Unique("k")); err != nil {
				t.Fatal(err)
			}
			if err := b.Enqueue(ctx, "t", "second", jobs.Unique("k")); err != nil {
				t.Fatalf("duplicate Enqueue returned %v, want nil", err)
			}
			// Another key is not a duplicate.
			if err := b.Enqueue(ctx, "t", "other", jobs.Unique("k2")); err != nil {
				t.Fatal(err)
			}
			Start(t, b, a.Wait)
			got := map[string]bool{Recv(t, ran, a.Wait, "task"): true, Recv(t, ran, a.Wait, "task"): true}
			if !got[`"first"`] || !got[`"other"`] {
				t.Fatalf("ran %v, want first and other", got)
			}
			// Once the task is done its key is free again.
			WaitFor(t, a.Wait, "key release", func() bool { return a.KeyFree(t, b, logs, "k") })
			if err := b.Enqueue(ctx, "t", "third", jobs.Unique("k")); err != nil {
				t.Fatal(err)
			}
			if v := Recv(t, ran, a.Wait, "task after key release"); v != `"third"` {
				t.Fatalf("ran %s, want third", v)
			}
			select {
			case v := <-ran:
				t.Fatalf("unexpected run %s", v)
			case <-time.After(50 * time.Millisecond):
			}
		}},
		{"RunTwiceFailsAndEveryAfterRunStarts", func(t *testing.T) {
			b, _ := a.New(t, fast)
			ran := make(chan string, 10)
			b.Handle("t", func(context.Context, []byte) error { ran <- "t"; return nil })
			b.Handle("sweep", func(context.Context, []byte) error { ran <- "sweep"; return nil })
			Start(t, b, a.Wait)
			if err := b.Enqueue(context.Background(), "t", nil); err != nil {
				t.Fatal(err)
			}
			Recv(t, ran, a.Wait, "task") // Run is active
			if err := b.Run(context.Background()); err == nil {
				t.Fatal("second concurrent Run succeeded")
			}
			b.Every("sweep", 200*time.Millisecond)
			if got := Recv(t, ran, a.Wait, "periodic run"); got != "sweep" {
				t.Fatalf("ran %s", got)
			}
		}},
		{"HandleTwicePanics", func(t *testing.T) {
			b, _ := a.New(t, fast)
			h := func(context.Context, []byte) error { return nil }
			b.Handle("t", h)
			defer func() {
				if recover() == nil {
					t.Fatal("second Handle of the same type did not panic")
				}
			}()
			b.Handle("t", h)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if a.Parallel {
				t.Parallel()
			}
			tc.run(t)
		})
	}
}
