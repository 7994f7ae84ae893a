package webhooks_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/webhooks/app"
	"github.com/gocommerce/commerce/modules/webhooks/domain"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/jobs/asynqjobs"
	"github.com/gocommerce/commerce/platform/testdb"
	"github.com/gocommerce/commerce/platform/testredis"
)

// asynqBackend is an Asynq adapter on redisURL polling fast (a test's worker).
func asynqBackend(t *testing.T, redisURL string) *asynqjobs.Jobs {
	t.Helper()
	cfg := config.Default()
	cfg.Redis.URL = redisURL
	cfg.Jobs.Concurrency = 4
	j, cleanup, err := asynqjobs.New(&cfg, zap.NewNop())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cleanup)
	j.PollInterval, j.DelayedPollInterval = 20*time.Millisecond, 50*time.Millisecond
	return j
}

// startWorker runs a `commerce worker` of the module on d: its own service and Asynq
// runner. kill stops it with no grace: tasks in flight are abandoned.
func startWorker(t *testing.T, d *db.DB, settings app.Settings, res *resolver, redisURL string) (kill func()) {
	t.Helper()
	j := asynqBackend(t, redisURL)
	j.ShutdownTimeout = time.Millisecond
	service(t, d, settings, res, j, j)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := j.Run(ctx); err != nil {
			t.Errorf("worker: %v", err)
		}
	}()
	var once sync.Once
	kill = func() { once.Do(func() { cancel(); <-done }) }
	t.Cleanup(kill)
	return kill
}

// With Redis: the worker is killed in the middle of the deliveries (its endpoint lease
// left behind, attempts in flight abandoned) and another one started: every event
// reaches every endpoint at least once.
func TestWorkerKilledDuringDeliveries(t *testing.T) {
	t.Parallel()
	testdb.EachEngine(t, func(t *testing.T, engine string) {
		redisURL := testredis.Start(t).URL()
		s := fast()
		s.SweepInterval = 200 * time.Millisecond
		s.Lease = 2 * time.Second
		d := openDB(t, engine)
		h := build(t, d, s, asynqBackend(t, redisURL)) // the API process: it only enqueues

		var mu sync.Mutex
		got := map[string]map[string]int{} // path → event id → requests
		// Requests after the 15th are answered only once the worker is killed, so the
		// kill always lands mid-way, however fast the machine delivers.
		gate := make(chan struct{})
		var rc *receiver
		rc = newReceiver(t, false, func(n int, _ http.ResponseWriter, r *http.Request) {
			time.Sleep(20 * time.Millisecond) // an answer takes a moment
			if n > 15 {
				<-gate
			}
			var b struct{ ID string }
			_ = json.Unmarshal(rc.requests()[n-1].Body, &b)
			mu.Lock()
			if got[r.URL.Path] == nil {
				got[r.URL.Path] = map[string]int{}
			}
			got[r.URL.Path][b.ID]++
			mu.Unlock()
		})
		open := sync.OnceFunc(func() { close(gate) })
		t.Cleanup(open) // before the receiver closes: no answer waits for ever
		a := h.create(rc.srv.URL+"/a", "order.created")
		b := h.create(rc.srv.URL+"/b", "*")

		kill := startWorker(t, d, s, h.resolver, redisURL)
		const n = 40
		for i := range n {
			h.publish("order.created", fmt.Sprint("o", i), map[string]any{"id": fmt.Sprint("o", i)})
		}
		waitFor(t, "deliveries under way", func() bool { return rc.count() >= 15 })
		kill()
		// A worker killed for real leaves its lease: the next one must wait it out.
		if err := d.Gorm().Exec("UPDATE webhook_endpoints SET lease_token = 'dead', locked_until = ?", time.Now().UTC().Add(s.Lease)).Error; err != nil {
			t.Fatal(err)
		}
		delivered := func() (int, int) {
			mu.Lock()
			defer mu.Unlock()
			return len(got["/a"]), len(got["/b"])
		}
		ga, gb := delivered()
		if ga == n && gb == n {
			t.Fatalf("every event was delivered before the kill; the test proves nothing")
		}
		open()
		startWorker(t, d, s, h.resolver, redisURL)
		deadline := time.Now().Add(30 * time.Second)
		for {
			ga, gb = delivered()
			if ga == n && gb == n {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("after the restart: %d and %d of %d events delivered", ga, gb, n)
			}
			time.Sleep(20 * time.Millisecond)
		}
		for _, ep := range []map[string]any{a, b} {
			waitFor(t, "every delivery recorded succeeded", func() bool {
				var pending int64
				d.Gorm().Raw("SELECT count(*) FROM webhook_deliveries WHERE endpoint_id = ? AND status <> ?", ep["id"], domain.StatusSucceeded).Scan(&pending)
				return pending == 0
			})
		}
	})
}
