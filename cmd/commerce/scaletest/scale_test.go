package scaletest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver for the checks
)

// sqlDB opens the cluster's database for the test's own checks.
func (c *cluster) sqlDB() *sql.DB {
	c.t.Helper()
	d, err := sql.Open("pgx", c.pg.URL())
	if err != nil {
		c.t.Fatal(err)
	}
	d.SetMaxOpenConns(2)
	c.t.Cleanup(func() { _ = d.Close() })
	return d
}

// scalar runs a query answering one integer.
func scalar(t *testing.T, d *sql.DB, q string, args ...any) int {
	t.Helper()
	var n int
	if err := d.QueryRowContext(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

// load is a set of clients creating products through the serve processes until stop
// is called: each request goes to the next process in turn and, when its connection is
// refused (the process is down), to the next one. It records what it created.
type load struct {
	t     *testing.T
	api   *api
	procs func() []*proc

	mu       sync.Mutex
	created  []string // product ids
	titles   map[string]int
	failures []string
	byStatus map[int]int
	refusals atomic.Int64
	stop     chan struct{}
	wg       sync.WaitGroup
}

func startLoad(t *testing.T, a *api, clients int, procs func() []*proc) *load {
	l := &load{t: t, api: a, procs: procs, titles: map[string]int{}, byStatus: map[int]int{}, stop: make(chan struct{})}
	for g := range clients {
		l.wg.Add(1)
		go l.client(g)
	}
	return l
}

func (l *load) client(g int) {
	defer l.wg.Done()
	for i := 0; ; i++ {
		select {
		case <-l.stop:
			return
		default:
		}
		title := fmt.Sprintf("load-%d-%d", g, i)
		l.send(g+i, title)
		time.Sleep(5 * time.Millisecond)
	}
}

// send creates one product, trying each process in turn while connections are refused.
func (l *load) send(turn int, title string) {
	deadline := time.Now().Add(20 * time.Second)
	for try := 0; ; try++ {
		ps := l.procs()
		p := ps[(turn+try)%len(ps)]
		r, err := l.api.do(p.url(), "POST", "/api/v1/products", newProduct(title), true)
		if err != nil {
			if (refused(err) || closedUnanswered(err)) && time.Now().Before(deadline) {
				l.refusals.Add(1)
				time.Sleep(10 * time.Millisecond)
				continue
			}
			l.fail(fmt.Sprintf("%s to %s: %v", title, p.name, err))
			return
		}
		l.mu.Lock()
		l.byStatus[r.status]++
		l.mu.Unlock()
		if r.status != http.StatusCreated {
			l.fail(fmt.Sprintf("%s to %s: %d %s", title, p.name, r.status, r.body))
			return
		}
		id, _ := r.json()["id"].(string)
		l.mu.Lock()
		l.created = append(l.created, id)
		l.titles[title]++
		l.mu.Unlock()
		return
	}
}

// closedUnanswered: the server closed a kept-alive connection the request was sent on
// before reading it. A stopping server closes its idle connections (http.Server.Shutdown),
// and a client that picked one at that moment gets EOF or a reset without an answer;
// HTTP/1.1 clients send such a request again (RFC 9112, 9.3.1; Go's Transport does for
// idempotent requests). The request was not handled (a request in flight is finished,
// and the connection is not idle then): that it is created once is checked below.
func closedUnanswered(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET)
}

func (l *load) fail(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.failures = append(l.failures, s)
}

// finish stops the clients and fails the test on any failed request.
func (l *load) finish() []string {
	l.t.Helper()
	close(l.stop)
	l.wg.Wait()
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.failures) > 0 {
		l.t.Errorf("%d requests failed, e.g. %v", len(l.failures), l.failures[:min(5, len(l.failures))])
	}
	return append([]string{}, l.created...)
}

// Two serve and two worker processes on one PostgreSQL and one Redis (issue 25): a
// client over its limit is refused by either process, every event is delivered once
// to every consumer and its webhook once to the endpoint, and a rolling restart of a
// serve process under load loses no request and no job.
func TestScaleOut(t *testing.T) {
	guard(t)
	st := newStack(t, 2, 2)
	rc, c, a, serves, workers := st.rc, st.c, st.a, st.serves, st.workers
	var procsMu sync.Mutex
	current := func() []*proc {
		procsMu.Lock()
		defer procsMu.Unlock()
		return append([]*proc{}, serves...)
	}

	t.Run("shared rate limit", func(t *testing.T) {
		// Anonymous: 10 at once, then one a second, counted in Redis for both processes.
		admitted, refusedBy := 0, map[string]int{}
		start := time.Now()
		for i := range 40 {
			p := serves[i%2]
			r, err := a.do(p.url(), "POST", "/api/v1/carts/guest", map[string]any{"currency": "EUR"}, false)
			if err != nil {
				t.Fatal(err)
			}
			switch r.status {
			case http.StatusCreated:
				admitted++
			case http.StatusTooManyRequests:
				if r.header.Get("Retry-After") == "" || !strings.Contains(string(r.body), "RATE_LIMIT") {
					t.Fatalf("429 from %s without Retry-After or code: %v %s", p.name, r.header, r.body)
				}
				refusedBy[p.name]++
			default:
				t.Fatalf("guest cart on %s: %d %s", p.name, r.status, r.body)
			}
		}
		elapsed := time.Since(start)
		// Per process the two would admit 2 × 10 plus the refill.
		if most := 10 + int(elapsed.Seconds()) + 1; admitted > most {
			t.Fatalf("%d of 40 admitted in %s across two processes; the shared limit allows at most %d", admitted, elapsed, most)
		}
		if len(refusedBy) != 2 {
			t.Fatalf("refusals by process: %v; both must refuse the client over its limit", refusedBy)
		}
		t.Logf("shared limit: %d of 40 admitted in %s, refused by process %v", admitted, elapsed.Round(time.Millisecond), refusedBy)
	})

	t.Run("rolling restart under load", func(t *testing.T) {
		started := time.Now()
		l := startLoad(t, a, 8, current)
		time.Sleep(3 * time.Second)
		// SIGTERM the first serve process mid-load: in-flight requests finish, new
		// connections are refused and go to the other process; then start it again.
		serves[0].terminate()
		time.Sleep(time.Second)
		q := c.restartServe(serves[0])
		procsMu.Lock()
		serves[0] = q
		procsMu.Unlock()
		time.Sleep(3 * time.Second)
		ids := l.finish()
		took := time.Since(started)
		l.mu.Lock()
		statuses, refusals := l.byStatus, l.refusals.Load()
		for title, n := range l.titles {
			if n != 1 {
				t.Errorf("%s created %d times", title, n)
			}
		}
		l.mu.Unlock()
		t.Logf("load: %d products created by 8 clients in %s (%.0f/s, one serve process restarted meanwhile), answers %v, %d connections refused (or closed unanswered) and retried on the other process",
			len(ids), took.Round(time.Millisecond), float64(len(ids))/took.Seconds(), statuses, refusals)
		if len(ids) < 100 {
			t.Fatalf("only %d products created under load", len(ids))
		}
		for s := range statuses {
			if s >= 500 {
				t.Fatalf("answers %v: a 5xx under a rolling restart", statuses)
			}
		}
		d := c.sqlDB()
		// Every answered creation is in the database once, and nothing else is.
		if n := scalar(t, d, "SELECT count(*) FROM products WHERE title LIKE 'load-%'"); n != len(ids) {
			t.Fatalf("%d load products in the database, %d answered 201", n, len(ids))
		}
		if n := scalar(t, d, "SELECT count(*) FROM (SELECT title FROM products WHERE title LIKE 'load-%' GROUP BY title HAVING count(*) > 1) x"); n != 0 {
			t.Fatalf("%d titles created twice", n)
		}

		// Each product.created reached the endpoint once (a job per endpoint, run by
		// either worker or the relays of any process).
		rc.deliveredOnce(t, ids, 90*time.Second)
		waitFor(t, 30*time.Second, "every outbox event delivered", func() bool {
			return scalar(t, d, "SELECT count(*) FROM outbox_events WHERE published_at IS NULL") == 0
		})
		// Delivered once per consumer: each consumer named once in delivered_to.
		rows, err := d.QueryContext(context.Background(), "SELECT id, delivered_to FROM outbox_events")
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = rows.Close() }()
		events := 0
		for rows.Next() {
			var id, to string
			if err := rows.Scan(&id, &to); err != nil {
				t.Fatal(err)
			}
			events++
			seen := map[string]bool{}
			for _, name := range strings.Split(strings.Trim(to, ","), ",") {
				if name == "" {
					continue
				}
				if seen[name] {
					t.Fatalf("event %s delivered to %s twice: %q", id, name, to)
				}
				seen[name] = true
			}
			if !seen["webhooks"] {
				t.Fatalf("event %s not delivered to the webhooks consumer: %q", id, to)
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		waitFor(t, 60*time.Second, "every webhook delivery done", func() bool {
			return scalar(t, d, "SELECT count(*) FROM webhook_deliveries WHERE status = 'pending'") == 0
		})
		if n := scalar(t, d, "SELECT count(*) FROM webhook_deliveries WHERE status <> 'succeeded'"); n != 0 {
			t.Fatalf("%d webhook deliveries not succeeded", n)
		}
		if n := scalar(t, d, "SELECT count(*) FROM webhook_deliveries WHERE attempts <> 1"); n != 0 {
			t.Fatalf("%d webhook deliveries took more than one attempt (a job ran twice or failed)", n)
		}
		// The receiver accepted each delivered event once, and nothing else.
		accepted, _, _, _ := rc.snapshot()
		if n := scalar(t, d, "SELECT count(DISTINCT event_id) FROM webhook_deliveries"); n != len(accepted) {
			t.Fatalf("%d events delivered by the database's account, %d accepted by the receiver", n, len(accepted))
		}
		// Every serve process reports the (empty) backlog of the shared outbox.
		for _, p := range current() {
			r, err := a.do(p.url(), "GET", "/metrics", nil, false)
			if err != nil || r.status != http.StatusOK || !strings.Contains(string(r.body), "\ncommerce_outbox_pending_events 0\n") {
				t.Fatalf("%s /metrics: %v %d, want commerce_outbox_pending_events 0", p.name, err, r.status)
			}
		}
		t.Logf("outbox: %d events, each delivered once per consumer; %d webhook deliveries, one attempt each", events, scalar(t, d, "SELECT count(*) FROM webhook_deliveries"))
	})

	// Memory per process after the load (docs/operations.md, "Sizing").
	for _, p := range append(current(), workers...) {
		now, peak := p.rss()
		t.Logf("memory: %s RSS %.0f MiB, peak %.0f MiB", p.name, now, peak)
	}
}

// waitFor polls cond every 100 ms until it holds, failing after within.
func waitFor(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, within)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
