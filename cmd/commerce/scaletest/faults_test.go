package scaletest

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// productIDs creates n products through p and returns their ids.
func productIDs(t *testing.T, a *api, p *proc, prefix string, n int) []string {
	t.Helper()
	var ids []string
	for i := range n {
		id, _ := a.must(http.StatusCreated, p.url(), "POST", "/api/v1/products", newProduct(fmt.Sprintf("%s-%d", prefix, i)))["id"].(string)
		ids = append(ids, id)
	}
	return ids
}

// requireRunning fails when a process has exited: the faults must not need a restart
// of ours.
func requireRunning(t *testing.T, ps ...*proc) {
	t.Helper()
	for _, p := range ps {
		if !p.running() {
			t.Fatalf("%s exited (%v): our processes must outlive the fault\n%s", p.name, p.err, tail(p.logs(), 4000))
		}
	}
}

// allDeliveriesOnce waits until no webhook delivery is pending, then checks that each
// succeeded and that the receiver accepted every delivered event exactly once.
func allDeliveriesOnce(t *testing.T, c *cluster, rc *receiver, within time.Duration) {
	t.Helper()
	allDeliveries(t, c, rc, within, true)
}

// allDeliveries is allDeliveriesOnce that, unless once, accepts an event delivered
// more than once (at least once: an attempt the database could not record) and
// answers how many were.
func allDeliveries(t *testing.T, c *cluster, rc *receiver, within time.Duration, once bool) (repeated int) {
	t.Helper()
	d := c.sqlDB()
	waitFor(t, within, "every webhook delivery done", func() bool {
		return scalar(t, d, "SELECT count(*) FROM webhook_deliveries WHERE status = 'pending'") == 0 &&
			scalar(t, d, "SELECT count(*) FROM outbox_events WHERE published_at IS NULL") == 0
	})
	if n := scalar(t, d, "SELECT count(*) FROM webhook_deliveries WHERE status <> 'succeeded'"); n != 0 {
		t.Fatalf("%d webhook deliveries failed", n)
	}
	rows, err := d.QueryContext(t.Context(), "SELECT DISTINCT event_id FROM webhook_deliveries")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = rows.Close() }()
	accepted, _, _, _ := rc.snapshot()
	n := 0
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		n++
		switch got := accepted[id]; {
		case got == 1:
		case got > 1 && !once:
			repeated++
		default:
			t.Fatalf("event %s accepted %d times by the endpoint, want once", id, accepted[id])
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if n != len(accepted) {
		t.Fatalf("%d events delivered by the database's account, %d accepted by the endpoint", n, len(accepted))
	}
	return repeated
}

// faultStack starts the deployment of a fault test (guarded, run in parallel with the
// others): one serve and one worker process; it answers the receiver, the cluster, the
// admin client, the serve and the worker.
func faultStack(t *testing.T) (rc *receiver, c *cluster, a *api, s, w *proc) {
	t.Helper()
	guard(t)
	t.Parallel()
	st := newStack(t, 1, 1)
	return st.rc, st.c, st.a, st.serves[0], st.workers[0]
}

// Redis stopped and started again (empty: no persistence) under a serve and a worker:
// the API keeps serving, writes included, and the jobs of the events committed during
// the outage run once Redis is back (the webhooks sweep re-queues what the database
// says is due), without a restart of ours.
func TestFaultRedisRestart(t *testing.T) {
	rc, c, a, s, w := faultStack(t)
	before := productIDs(t, a, s, "before", 5)
	rc.deliveredOnce(t, before, 30*time.Second)

	c.redis.Stop()
	start := time.Now()
	var during []string
	carts := map[int]int{}
	for i := 0; time.Since(start) < 4*time.Second; i++ {
		during = append(during, productIDs(t, a, s, fmt.Sprint("during-", i), 1)...)
		// Anonymous clients are still limited, by the process on its own (decision 0099).
		r, err := a.do(s.url(), "POST", "/api/v1/carts/guest", map[string]any{"currency": "EUR"}, false)
		if err != nil || (r.status != http.StatusCreated && r.status != http.StatusTooManyRequests) {
			t.Fatalf("guest cart with Redis down: %v %d %s", err, r.status, r.body)
		}
		carts[r.status]++
		if r, err := a.do(s.url(), "GET", "/health", nil, false); err != nil || r.status != http.StatusOK || r.json()["status"] != "degraded" {
			t.Fatalf("/health with Redis down: %v %d %s", err, r.status, r.body)
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("Redis down: %d products created, guest carts answered %v", len(during), carts)
	if carts[http.StatusCreated] == 0 {
		t.Fatal("no guest cart created while Redis was down")
	}
	requireRunning(t, s, w)

	c.redis.Start()
	s.waitReady(30 * time.Second)
	after := productIDs(t, a, s, "after", 5)
	rc.deliveredOnce(t, append(append(before, during...), after...), 60*time.Second)
	allDeliveriesOnce(t, c, rc, 60*time.Second)
	requireRunning(t, s, w)
}

// call is one request of the PostgreSQL restart's load.
type call struct {
	at     time.Time
	status int
	took   time.Duration
	retry  string
	err    error
}

// PostgreSQL restarted under load: while it is down, requests that need it answer 503
// with Retry-After at once (no 500, no hanging), and once it is back the same
// processes serve again and the worker's jobs run.
func TestFaultPostgresRestart(t *testing.T) {
	rc, c, a, s, w := faultStack(t)

	var (
		mu    sync.Mutex
		calls []call
		ids   []string
		stop  = make(chan struct{})
		wg    sync.WaitGroup
	)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				r, err := a.do(s.url(), "POST", "/api/v1/products", newProduct(fmt.Sprintf("pg-%d-%d", g, i)), true)
				mu.Lock()
				calls = append(calls, call{at: time.Now(), status: r.status, took: r.took, retry: r.header.Get("Retry-After"), err: err})
				if err == nil && r.status == http.StatusCreated {
					id, _ := r.json()["id"].(string)
					ids = append(ids, id)
				}
				mu.Unlock()
				time.Sleep(20 * time.Millisecond)
			}
		}()
	}
	time.Sleep(2 * time.Second)
	down := time.Now()
	c.pg.Stop()
	time.Sleep(4 * time.Second)
	if r, err := a.do(s.url(), "GET", "/health", nil, false); err != nil || r.status != http.StatusServiceUnavailable {
		t.Errorf("/health with PostgreSQL down: %v %d %s", err, r.status, r.body)
	}
	// /metrics still answers, promptly, without the backlog it cannot read.
	if r, err := a.do(s.url(), "GET", "/metrics", nil, false); err != nil || r.status != http.StatusOK || r.took > 2*time.Second ||
		strings.Contains(string(r.body), "commerce_outbox_pending_events") {
		t.Errorf("/metrics with PostgreSQL down: %v %d in %s", err, r.status, r.took)
	}
	c.pg.Start()
	up := time.Now()
	// Recovered: 2 s of successful writes in a row, within 20 s.
	waitFor(t, 20*time.Second, "writes succeed again", func() bool {
		mu.Lock()
		defer mu.Unlock()
		ok := 0
		for i := len(calls) - 1; i >= 0 && calls[i].at.After(up); i-- {
			if calls[i].status != http.StatusCreated {
				return false
			}
			ok++
			if calls[i].at.Sub(calls[len(calls)-1].at) < -2*time.Second {
				break
			}
		}
		return ok >= 20
	})
	close(stop)
	wg.Wait()

	byStatus := map[int]int{}
	var slow []time.Duration
	for _, cl := range calls {
		if cl.err != nil {
			t.Fatalf("transport error: %v (the API must answer, not drop the connection)", cl.err)
		}
		byStatus[cl.status]++
		switch cl.status {
		case http.StatusCreated:
		case http.StatusServiceUnavailable:
			if cl.retry == "" {
				t.Fatalf("503 without Retry-After")
			}
			if cl.took > 2*time.Second {
				slow = append(slow, cl.took)
			}
		default:
			t.Fatalf("answers %v: %d while PostgreSQL restarted (want 201 or 503)", byStatus, cl.status)
		}
	}
	sort.Slice(slow, func(i, j int) bool { return slow[i] > slow[j] })
	t.Logf("answers %v; PostgreSQL down %s; 503s slower than 2 s: %v", byStatus, up.Sub(down).Round(time.Millisecond), slow)
	if byStatus[http.StatusServiceUnavailable] == 0 {
		t.Fatal("no 503 while PostgreSQL was down: the test proves nothing")
	}
	if len(slow) > 0 {
		t.Fatalf("%d answers of 503 took more than 2 s (the longest %s): requests must fail fast", len(slow), slow[0])
	}
	requireRunning(t, s, w)
	s.waitReady(10 * time.Second)
	mu.Lock()
	created := append([]string{}, ids...)
	mu.Unlock()
	// The webhook jobs resume. A request the endpoint answered while PostgreSQL was
	// going down could not be recorded and is sent again (at least once, docs/webhooks.md).
	rc.delivered(t, created, 60*time.Second, false)
	repeated := allDeliveries(t, c, rc, 60*time.Second, false)
	t.Logf("webhook events sent again because their attempt could not be recorded: %d", repeated)
	requireRunning(t, s, w)
}

// A worker killed (SIGKILL) in the middle of a job: its webhook requests are cut
// before the endpoint answered, and the job's effect (each event accepted by the
// endpoint) still happens exactly once, done by the other worker once the killed
// one's lease on the endpoint runs out.
func TestFaultWorkerKilled(t *testing.T) {
	rc, c, a, s, w1 := faultStack(t)
	var killed sync.Once
	isKilled := make(chan struct{})
	rc.mu.Lock()
	rc.hold = func(string, int) bool {
		select {
		case <-isKilled:
			return false
		default:
			return true // held until the worker sending it is killed
		}
	}
	rc.mu.Unlock()
	ids := productIDs(t, a, s, "kill", 3)
	waitFor(t, 20*time.Second, "the first worker's job under way", func() bool {
		_, _, _, seen := rc.snapshot()
		return seen > 0
	})
	w2 := c.worker()
	time.Sleep(time.Second)
	w1.kill()
	killed.Do(func() { close(isKilled) })
	_, _, _, heldRequests := rc.snapshot()
	t.Logf("worker killed with %d webhook requests unanswered", heldRequests)
	rc.deliveredOnce(t, ids, 90*time.Second)
	allDeliveriesOnce(t, c, rc, 90*time.Second)
	requireRunning(t, s, w2)
}
