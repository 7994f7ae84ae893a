package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// env is what the scenarios need: addresses, credentials, the seeded data.
type env struct {
	server, reference string // host:port
	key               string // admin API key
	cat               catalogFile
	st                stateFile
	// rates of finished scenarios (requests/s), to size the pools of later ones.
	rates map[string]float64
	// salesHistory: the checkout scenario completes its sales history before it is
	// measured (the load runs; not the statement counts, whose window the history's
	// background work would otherwise fall into).
	salesHistory bool
}

// scenario is one row of the table.
type scenario struct {
	key, title string
	// reference scenarios run against the reference server.
	reference bool
	// ref is the reference scenario this one's requests/s is divided by.
	ref string
	// perIteration is the number of HTTP requests one iteration sends.
	perIteration int
	// missing reports why the scenario cannot run (an endpoint is missing), or "".
	missing func(e *env, k *conn) (string, error)
	// prepare builds the untimed pool a scenario consumes (one item per iteration).
	prepare func(e *env, n int) ([]poolItem, error)
	// poolRate estimates the iterations/s, to size the pool (pooled scenarios only).
	poolRate func(e *env) float64
	// step runs one iteration; false stops the worker (pool drained).
	step func(w *worker) bool
	// writes: the scenario creates or changes rows (the next one starts after a vacuum).
	writes bool
	// concurrency, when set, is this scenario's number of connections (else the run's).
	concurrency int
}

// poolItem is a prepared guest cart.
type poolItem struct{ cart, token string }

var searchWords = []string{"linen", "walnut", "mug", "lamp", "vintage", "backpack", "ceramic", "organic", "scarf", "copper", "leather wallet", "cozy blanket"}

func (e *env) product(w *worker) productEntry { return e.cat.Products[w.rng.IntN(len(e.cat.Products))] }

func (e *env) randomItem(w *worker) item {
	p := e.product(w)
	it := item{ProductID: p.ID}
	if len(p.Variants) > 1 {
		it.VariantID = p.Variants[w.rng.IntN(len(p.Variants))]
	}
	return it
}

// scenarios lists the table's rows in the order they run: each reference scenario
// right before the server scenario divided by it, so that both see the same machine.
func scenarios() []*scenario {
	listPath := func(w *worker, prefix string) string {
		return prefix + "?status=active&per_page=20&page=" + strconv.Itoa(1+w.rng.IntN(10))
	}
	return append([]*scenario{
		{
			key: "ref-get", title: "reference: SELECT product by id", reference: true, perIteration: 1,
			step: func(w *worker) bool {
				w.call(200, "GET", "/products/"+w.env.product(w).ID, nil)
				return true
			},
		},
		{
			key: "get", title: "GET product by id (API key)", ref: "ref-get", perIteration: 1,
			step: func(w *worker) bool {
				w.call(200, "GET", "/api/v1/products/"+w.env.product(w).ID, nil, bearer(w.env.key))
				return true
			},
		},
		{
			key: "ref-list", title: "reference: page of 20 active products", reference: true, perIteration: 1,
			step: func(w *worker) bool {
				w.call(200, "GET", listPath(w, "/products"), nil)
				return true
			},
		},
		{
			key: "list", title: "GET products, page of 20, status=active", ref: "ref-list", perIteration: 1,
			step: func(w *worker) bool {
				w.call(200, "GET", listPath(w, "/api/v1/products"), nil, bearer(w.env.key))
				return true
			},
		},
		{
			key: "search", title: "GET products?q= (search, page of 20)", ref: "ref-list", perIteration: 1,
			step: func(w *worker) bool {
				q := searchWords[w.rng.IntN(len(searchWords))]
				w.call(200, "GET", "/api/v1/products?per_page=20&q="+url.QueryEscape(q), nil, bearer(w.env.key))
				return true
			},
		},
		ratesScenario(),
		{
			key: "guest", title: "guest cart create + add item (2 requests)", ref: "ref-get", perIteration: 2,
			writes: true,
			missing: func(e *env, k *conn) (string, error) {
				return probe(k, "POST", "/api/v1/carts/guest", mustJSON(map[string]string{"currency": e.cat.Currency}))
			},
			step: func(w *worker) bool {
				r, ok := w.call(201, "POST", "/api/v1/carts/guest", mustJSON(map[string]string{"currency": w.env.cat.Currency}))
				if !ok {
					return true
				}
				var c cartBody
				if err := r.decode(&c); err != nil || c.Data.ID == "" {
					w.fail("guest cart: no id in " + truncate(r.body, 200))
					return true
				}
				w.call(201, "POST", "/api/v1/carts/"+c.Data.ID+"/items", addItemBody(w.env.randomItem(w)), sessionToken(c.Data.SessionToken))
				return true
			},
		},
		{
			key: "add", title: "add item to an existing cart (customer JWT)", ref: "ref-get", perIteration: 1,
			writes:  true,
			missing: cartsMissing,
			step: func(w *worker) bool {
				c := &w.env.st.Customers[w.rng.IntN(len(w.env.st.Customers))]
				it := c.Items[w.rng.IntN(len(c.Items))]
				w.call(201, "POST", "/api/v1/carts/"+c.Cart+"/items", addItemBody(it), bearer(c.Token))
				return true
			},
		},
		{
			key: "coupon", title: "apply a coupon (guest cart with 1 item)", ref: "ref-get", perIteration: 1,
			writes: true,
			missing: func(e *env, k *conn) (string, error) {
				if e.st.CouponsMissing != "" {
					return e.st.CouponsMissing, nil
				}
				return probe(k, "POST", "/api/v1/carts/guest", mustJSON(map[string]string{"currency": e.cat.Currency}))
			},
			poolRate: func(e *env) float64 { return orRate(e.rates["add"], 1000) },
			prepare:  prepareGuestCarts(1, nil),
			step: func(w *worker) bool {
				p, ok := w.take()
				if !ok {
					return false
				}
				w.call(200, "POST", "/api/v1/carts/"+p.cart+"/coupon", mustJSON(map[string]string{"coupon_code": w.env.st.Coupon}), sessionToken(p.token))
				return true
			},
		},
		{
			key: "totals", title: "cart totals (customer JWT)", ref: "ref-get", perIteration: 1,
			missing: func(e *env, k *conn) (string, error) {
				if m, err := cartsMissing(e, k); m != "" || err != nil {
					return m, err
				}
				c := e.st.Customers[0]
				return probe(k, "GET", "/api/v1/carts/"+c.Cart+"/totals", nil, bearer(c.Token))
			},
			step: func(w *worker) bool {
				c := &w.env.st.Customers[w.rng.IntN(len(w.env.st.Customers))]
				w.call(200, "GET", "/api/v1/carts/"+c.Cart+"/totals", nil, bearer(c.Token))
				return true
			},
		},
		taxScenario(),
		{
			key: "checkout", title: "checkout complete, test gateway (guest cart)", ref: "ref-get", perIteration: 1,
			missing: func(_ *env, k *conn) (string, error) {
				return probe(k, "POST", "/api/v1/checkout/complete", []byte(`{}`))
			},
			poolRate: func(e *env) float64 { return orRate(e.rates["add"]/4, 300) },
			prepare: withSalesHistory(checkoutHistory, prepareGuestCarts(checkoutLines, func(k *conn, p poolItem) error {
				_, err := k.doJSON("POST", "/api/v1/checkout/initiate", map[string]any{
					"cart_id": p.cart,
					"shipping_address": map[string]string{
						"first_name": "Bench", "last_name": "Buyer", "address1": "1 Main St", "city": "Springfield",
						"postal_code": "12345", "country_code": "US", "region_code": "IL",
					},
				}, nil, sessionToken(p.token))
				return err
			})),
			step: func(w *worker) bool {
				p, ok := w.take()
				if !ok {
					return false
				}
				w.call(0, "POST", "/api/v1/checkout/complete", checkoutCompleteBody(p), sessionToken(p.token))
				return true
			},
		},
	}, statisticsScenarios()...)
}

type cartBody struct {
	Data struct {
		ID           string `json:"id"`
		SessionToken string `json:"session_token"`
	} `json:"data"`
}

func orRate(r, def float64) float64 {
	if r > 0 {
		return r
	}
	return def
}

func cartsMissing(e *env, _ *conn) (string, error) {
	return e.st.CartsMissing, nil
}

// probe sends one request and reports "endpoint missing" when the router itself
// answers 404/405.
func probe(k *conn, method, path string, body []byte, hs ...header) (string, error) {
	r, err := k.do(method, path, body, hs...)
	if err != nil {
		return "", err
	}
	if routeMissing(r) {
		return "endpoint missing (" + method + " " + strings.SplitN(path, "?", 2)[0] + ")", nil
	}
	return "", nil
}

// prepareGuestCarts creates n guest carts holding one item each (then runs then, when
// given, on each), with 32 connections.
// checkoutLines is the number of lines of a checkout scenario's guest cart (issue 20:
// a guest cart of 3 lines).
const checkoutLines = 3

// checkoutHistory is how many orders the store has taken before the checkout scenario
// is measured: a store that sells has orders, payments and reservations, and the
// planner's view of those tables (the statistics the settle step's ANALYZE takes, the
// plans of the foreign-key checks into orders) is the one of tables with rows, not of
// empty ones whose every lookup is planned as a scan of the whole table
// (docs/decisions/0238).
const checkoutHistory = 1000

// checkoutCompleteBody is the complete request of a prepared guest cart: a new card
// through the test gateway.
func checkoutCompleteBody(p poolItem) []byte {
	return mustJSON(map[string]any{
		"cart_id": p.cart, "customer_email": "buyer@example.com",
		"payment_method": map[string]any{"type": "card", "card": map[string]any{
			"number": "4242424242424242", "exp_month": 12, "exp_year": time.Now().Year() + 3, "cvc": "123", "name": "Bench Buyer",
		}},
	})
}

// withSalesHistory prepares history carts more than asked and completes them (32
// connections) before the pool is handed over: the store's earlier sales. Only for the
// load runs (env.salesHistory).
func withSalesHistory(history int, prepare func(e *env, n int) ([]poolItem, error)) func(e *env, n int) ([]poolItem, error) {
	return func(e *env, n int) ([]poolItem, error) {
		if !e.salesHistory {
			return prepare(e, n)
		}
		items, err := prepare(e, n+history)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(os.Stderr, "completing %d checkouts (the store's sales history)...\n", history)
		err = overConnections(e, history, func(k *conn, _ *worker, i int) error {
			_, err := k.doJSON("POST", "/api/v1/checkout/complete", checkoutCompleteBody(items[i]), nil, sessionToken(items[i].token))
			return err
		})
		if err != nil {
			return nil, err
		}
		return items[history:], nil
	}
}

// prepareGuestCarts makes n guest carts of lines distinct products each (then runs on
// each cart, when given).
func prepareGuestCarts(lines int, then func(k *conn, p poolItem) error) func(e *env, n int) ([]poolItem, error) {
	return func(e *env, n int) ([]poolItem, error) {
		out := make([]poolItem, n)
		err := overConnections(e, n, func(k *conn, w *worker, i int) error {
			var c cartBody
			if _, err := k.doJSON("POST", "/api/v1/carts/guest", map[string]string{"currency": e.cat.Currency}, &c); err != nil {
				return err
			}
			p := poolItem{cart: c.Data.ID, token: c.Data.SessionToken}
			added := map[string]bool{}
			for len(added) < min(lines, len(e.cat.Products)) {
				it := e.randomItem(w)
				if added[it.ProductID] {
					continue
				}
				added[it.ProductID] = true
				if _, err := k.doJSON("POST", "/api/v1/carts/"+p.cart+"/items", addItemBody(it), nil, sessionToken(p.token)); err != nil {
					return err
				}
			}
			if then != nil {
				if err := then(k, p); err != nil {
					return err
				}
			}
			out[i] = p
			return nil
		})
		if err != nil {
			return nil, err
		}
		return out, nil
	}
}

// overConnections runs fn for i in [0, n) over 32 keep-alive connections, a goroutine
// (and a worker: its random source) each, and returns the first error; a connection
// that meets one stops.
func overConnections(e *env, n int, fn func(k *conn, w *worker, i int) error) error {
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k := newConn(e.server)
			defer k.close()
			w := &worker{rng: newRNG(uint64(time.Now().UnixNano()), 7), env: e}
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				if err := fn(k, w, i); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	return <-errs
}

// newRNG is a worker's random source: which product, cart or page a request names.
func newRNG(a, b uint64) *rand.Rand {
	return rand.New(rand.NewPCG(a, b)) //nolint:gosec // a load pattern, not a secret
}

// run is one scenario's execution state.
type run struct {
	phase   atomic.Int32 // 0 warm-up, 1 measuring, 2 stop
	pool    chan poolItem
	drained chan struct{}
	once    sync.Once
	drainAt atomic.Int64

	mu     sync.Mutex
	errors []string
}

const (
	phaseWarm int32 = iota
	phaseMeasure
	phaseStop
)

// worker is one connection's goroutine.
type worker struct {
	k    *conn
	rng  *rand.Rand
	env  *env
	run  *run
	lat  []time.Duration
	at   []time.Time // when each of lat's requests started
	errs int
}

// call sends one request and records it when it started while measuring: its latency
// when it answered expect (0: any 2xx), an error otherwise.
func (w *worker) call(expect int, method, path string, body []byte, hs ...header) (response, bool) {
	measuring := w.run.phase.Load() == phaseMeasure
	t0 := time.Now()
	r, err := w.k.do(method, path, body, hs...)
	d := time.Since(t0)
	ok := err == nil && (r.status == expect || (expect == 0 && r.status/100 == 2))
	if !measuring {
		return r, ok
	}
	if ok {
		w.lat = append(w.lat, d)
		w.at = append(w.at, t0)
		return r, true
	}
	if err != nil {
		w.fail(method + " " + path + ": " + err.Error())
	} else {
		w.fail(fmt.Sprintf("%s %s: %d %s", method, path, r.status, truncate(r.body, 200)))
	}
	return r, false
}

func (w *worker) fail(msg string) {
	if w.run.phase.Load() != phaseMeasure {
		return
	}
	w.errs++
	w.run.mu.Lock()
	if len(w.run.errors) < 5 {
		w.run.errors = append(w.run.errors, msg)
	}
	w.run.mu.Unlock()
}

// take returns the next prepared item, or false (and ends the measurement) when none
// is left.
func (w *worker) take() (poolItem, bool) {
	select {
	case p := <-w.run.pool:
		return p, true
	default:
		w.run.once.Do(func() {
			w.run.drainAt.Store(time.Now().UnixNano())
			close(w.run.drained)
		})
		return poolItem{}, false
	}
}

// result is one row of results.json.
type result struct {
	Key          string   `json:"key"`
	Title        string   `json:"title"`
	Reference    bool     `json:"reference"`
	Ref          string   `json:"ref,omitempty"`
	Status       string   `json:"status"` // ok | n/a: ... | failed: ...
	Requests     int      `json:"requests"`
	PerIteration int      `json:"per_iteration"`
	Errors       int      `json:"errors"`
	ErrorSamples []string `json:"error_samples,omitempty"`
	Seconds      float64  `json:"seconds"`
	RPS          float64  `json:"rps"`
	P50          float64  `json:"p50_ms"`
	P90          float64  `json:"p90_ms"`
	P99          float64  `json:"p99_ms"`
	Max          float64  `json:"max_ms"`
	// CPU per successful request, in microseconds, over the measured window.
	ServerCPU   float64 `json:"server_cpu_us"`
	PostgresCPU float64 `json:"postgres_cpu_us"`
	RedisCPU    float64 `json:"redis_cpu_us"`
	LoadgenCPU  float64 `json:"loadgen_cpu_us"`
	MachineBusy float64 `json:"machine_busy_pct"`
	// WAL per successful request over the measured window (pg_stat_wal, the whole
	// cluster's): what the request and the reactions that ran meanwhile wrote.
	WALRecords float64 `json:"wal_records,omitempty"`
	WALFPI     float64 `json:"wal_fpi,omitempty"`
	WALBytes   float64 `json:"wal_bytes,omitempty"`
	// MaxRSSkB is the highest VmRSS of the measured process sampled during the scenario.
	MaxRSSkB int64 `json:"max_rss_kb"`
}

type runFile struct {
	Concurrency int      `json:"concurrency"`
	Warmup      string   `json:"warmup"`
	Duration    string   `json:"duration"`
	Results     []result `json:"results"`
	// PeakRSSkB is the server's VmHWM after the load (reset before it).
	PeakRSSkB int64 `json:"peak_rss_kb"`
	// ReferencePeakRSSkB is the reference server's VmHWM.
	ReferencePeakRSSkB int64 `json:"reference_peak_rss_kb"`
	HWMReset           bool  `json:"hwm_reset"`
}

type runOptions struct {
	concurrency      int
	warmup, duration time.Duration
	// iterations > 0 runs that many iterations after warmIterations instead of a
	// duration (the statement count pass).
	iterations, warmIterations int
	pid                        int
	// atStart and atEnd run at the edges of the measured window (statement counts).
	atStart, atEnd func()
	// settle, when set, runs after a scenario's pool is prepared and before its
	// warm-up: the relay delivers the preparation's events (thousands of carts, their
	// items, their checkout sessions) and the database is vacuumed, so that neither
	// runs in the measured window.
	settle func() error
	// walURL, when set, is the database whose cluster's WAL the window counts.
	walURL string
	// walDump, when set, receives pg_waldump's statistics of the window's WAL.
	walDir, walDump string
	// timeline, when set, is a CSV file for every measured request's start (ms into
	// the window) and latency (ms): where the tail's stalls happened.
	timeline string
}

func loadEnv(server, reference, key, catalogPath, statePath string) (*env, error) {
	e := &env{server: server, reference: reference, key: key, rates: map[string]float64{}}
	if err := readJSON(catalogPath, &e.cat); err != nil {
		return nil, err
	}
	if err := readJSON(statePath, &e.st); err != nil {
		return nil, err
	}
	if len(e.cat.Products) == 0 || len(e.st.Customers) == 0 {
		return nil, errors.New("empty catalog or state")
	}
	return e, nil
}

func selected(only string, s *scenario) bool {
	if only == "" {
		return true
	}
	return slices.Contains(strings.Split(only, ","), s.key)
}

// cmdRun runs every scenario and writes results.json.
func cmdRun(args []string) error {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	server := fs.String("server", "127.0.0.1:8080", "commerce host:port")
	reference := fs.String("reference", "127.0.0.1:8099", "reference host:port")
	key, catalogPath, statePath := seedFlags(fs)
	pid := fs.Int("pid", 0, "server process id (RSS, CPU)")
	refPid := fs.Int("ref-pid", 0, "reference process id (RSS, CPU)")
	o := runOptions{}
	fs.IntVar(&o.concurrency, "concurrency", 32, "connections, one goroutine each")
	fs.DurationVar(&o.warmup, "warmup", 3*time.Second, "warm-up per scenario (not measured)")
	fs.DurationVar(&o.duration, "duration", 10*time.Second, "measured time per scenario")
	only := fs.String("only", "", "comma-separated scenario keys")
	out := fs.String("out", "results.json", "results file")
	fs.StringVar(&pgDatabase, "db", "", "database name (its backends' CPU is reported)")
	pprofAddr := fs.String("pprof", "", "server's pprof host:port: a CPU profile of each measured window")
	pprofDir := fs.String("pprof-dir", ".", "where the profiles go (<scenario>.pprof)")
	timelineDir := fs.String("timeline-dir", "", "when set, write every measured request's start and latency there (<scenario>.timeline.csv)")
	perf := fs.Bool("perf", false, "with --pprof: also a system-wide perf record of each measured window (<scenario>.perf.data in --pprof-dir; PostgreSQL's CPU by function)")
	walDir := fs.String("wal-dir", "", "with --pprof-dir and --vacuum-url: the cluster's pg_wal directory; pg_waldump's record statistics of each measured window go to <scenario>.wal.txt")
	vacuumURL := fs.String("vacuum-url", "", "database URL: VACUUM (ANALYZE) it before every scenario that follows one that writes, as pgbench does before a run")
	if err := fs.Parse(args); err != nil {
		return err
	}
	e, err := loadEnv(*server, *reference, *key, *catalogPath, *statePath)
	if err == nil {
		e.salesHistory = true
	}
	if err != nil {
		return err
	}
	rf := runFile{Concurrency: o.concurrency, Warmup: o.warmup.String(), Duration: o.duration.String()}
	for _, p := range []int{*pid, *refPid} {
		if p > 0 {
			rf.HWMReset = resetHWM(p) == nil
		}
	}
	dirty := false
	for _, s := range scenarios() {
		if !selected(*only, s) {
			continue
		}
		if *vacuumURL != "" && dirty {
			// One scenario's writes (thousands of guest carts, their items and events)
			// must not bill the next one with autovacuum's work, nor leave it stale
			// statistics: a scenario that follows writes starts from a vacuumed,
			// analyzed database, and the relay has delivered its events first (their
			// reactions would otherwise run in the next scenario's window).
			if err := settle(*vacuumURL, s.key, "the scenario before"); err != nil {
				return err
			}
			dirty = false
		}
		dirty = dirty || s.writes
		opts := o
		opts.pid = *pid
		if *vacuumURL != "" {
			opts.settle = func() error { return settle(*vacuumURL, s.key, "its prepared pool") }
			opts.walURL = *vacuumURL
			if *walDir != "" && !s.reference {
				opts.walDir, opts.walDump = *walDir, filepath.Join(*pprofDir, s.key+".wal.txt")
			}
		}
		if s.reference {
			opts.pid = *refPid
		}
		if *timelineDir != "" {
			opts.timeline = filepath.Join(*timelineDir, s.key+".timeline.csv")
		}
		var profiled chan error
		if *pprofAddr != "" && !s.reference {
			opts.atStart = func() {
				profiled = make(chan error, 2)
				go func() { profiled <- saveProfile(*pprofAddr, o.duration, filepath.Join(*pprofDir, s.key+".pprof")) }()
				if *perf {
					go func() { profiled <- recordPerf(o.duration, filepath.Join(*pprofDir, s.key+".perf.data")) }()
				} else {
					profiled <- nil
				}
			}
		}
		r := runScenario(e, s, opts)
		for range cap(profiled) {
			if err := <-profiled; err != nil {
				fmt.Fprintln(os.Stderr, "pprof:", err)
			}
		}
		e.rates[s.key] = r.RPS
		printResult(r)
		rf.Results = append(rf.Results, r)
	}
	if *pid > 0 {
		if st, err := procStatus(*pid); err == nil {
			rf.PeakRSSkB = st["VmHWM"]
		}
	}
	if *refPid > 0 {
		if st, err := procStatus(*refPid); err == nil {
			rf.ReferencePeakRSSkB = st["VmHWM"]
		}
	}
	return writeJSON(*out, rf)
}

// recordPerf samples every process's stacks for d with perf (system-wide), for
// PostgreSQL's side of a scenario; a failure (no perf) is reported, not fatal.
func recordPerf(d time.Duration, path string) error {
	secs := strconv.Itoa(max(int(d.Round(time.Second)/time.Second), 1))
	ctx, cancel := context.WithTimeout(context.Background(), d+time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "perf", "record", "-a", "-g", "-F", "499", "-o", path, "--", "sleep", secs) //nolint:gosec // the benchmark's own flags
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("perf: %w: %s", err, out)
	}
	return nil
}

// saveProfile fetches a CPU profile of the next d from the server's pprof listener.
func saveProfile(addr string, d time.Duration, path string) error {
	secs := max(int(d.Round(time.Second)/time.Second), 1)
	ctx, cancel := context.WithTimeout(context.Background(), d+30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/debug/pprof/profile?seconds="+strconv.Itoa(secs), nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", path, resp.Status)
	}
	f, err := os.Create(path) //nolint:gosec // a file named by the benchmark's own flags
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func printResult(r result) {
	if r.Status != "ok" {
		fmt.Fprintf(os.Stderr, "%-46s %s\n", r.Title, r.Status)
		for _, e := range r.ErrorSamples {
			fmt.Fprintln(os.Stderr, "    ", e)
		}
		return
	}
	fmt.Fprintf(os.Stderr, "%-46s %9.0f req/s  p50 %6.2f ms  p99 %6.2f ms  errors %d  server CPU %.0f µs/req  PostgreSQL CPU %.0f µs/req  WAL %.0f B/req (%.1f records, %.2f full pages)\n",
		r.Title, r.RPS, r.P50, r.P99, r.Errors, r.ServerCPU, r.PostgresCPU, r.WALBytes, r.WALRecords, r.WALFPI)
	for _, e := range r.ErrorSamples {
		fmt.Fprintln(os.Stderr, "    ", e)
	}
}

// settle waits until the relay has delivered every pending outbox event (logging how
// many there were), then vacuums and analyzes the database.
func settle(url, key, after string) error {
	n, secs, err := drainOutbox(url, 2*time.Minute)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "before %s (after %s): %d outbox events pending, delivered in %.1f s\n", key, after, n, secs)
	return vacuum(url)
}

// runScenario probes, prepares, warms up and measures one scenario.
func runScenario(e *env, s *scenario, o runOptions) result {
	res := result{Key: s.key, Title: s.title, Reference: s.reference, Ref: s.ref, PerIteration: s.perIteration}
	addr := e.server
	if s.reference {
		addr = e.reference
	}
	if s.missing != nil {
		k := newConn(addr)
		why, err := s.missing(e, k)
		k.close()
		switch {
		case err != nil:
			res.Status = "failed: probe: " + err.Error()
			return res
		case why != "":
			res.Status = "n/a: " + why
			return res
		}
	}
	rn := &run{drained: make(chan struct{})}
	if s.prepare != nil {
		n := o.iterations + o.warmIterations
		if n == 0 {
			secs := (o.warmup + o.duration).Seconds()
			n = int(math.Min(math.Max(1.25*s.poolRate(e)*secs, 1000), 30000))
		}
		fmt.Fprintf(os.Stderr, "%-46s preparing %d carts...\n", s.title, n)
		items, err := s.prepare(e, n)
		if err != nil {
			res.Status = "failed: prepare: " + err.Error()
			return res
		}
		rn.pool = make(chan poolItem, len(items))
		for _, p := range items {
			rn.pool <- p
		}
		if o.settle != nil {
			if err := o.settle(); err != nil {
				res.Status = "failed: settle: " + err.Error()
				return res
			}
		}
	}

	connections := o.concurrency
	if s.concurrency > 0 {
		connections = s.concurrency
	}
	workers := make([]*worker, connections)
	var wg sync.WaitGroup
	var left atomic.Int64 // iterations mode
	left.Store(int64(o.warmIterations + o.iterations))
	warmDone := make(chan struct{})
	var warmOnce sync.Once
	for i := range workers {
		w := &worker{k: newConn(addr), rng: newRNG(uint64(i)+1, uint64(time.Now().UnixNano())), env: e, run: rn}
		workers[i] = w
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer w.k.close()
			for rn.phase.Load() != phaseStop {
				if o.iterations > 0 {
					n := left.Add(-1)
					if n < 0 {
						return
					}
					if n < int64(o.iterations) {
						warmOnce.Do(func() { close(warmDone) })
						for rn.phase.Load() == phaseWarm { // the first measured iteration waits for the snapshot
							time.Sleep(time.Millisecond)
						}
					}
				}
				if !s.step(w) {
					return
				}
			}
		}()
	}

	var sampler rssSampler
	if o.pid > 0 {
		sampler.start(o.pid)
	}
	if o.iterations > 0 {
		<-warmDone
	} else {
		time.Sleep(o.warmup)
	}
	if o.atStart != nil {
		o.atStart()
	}
	walBefore, walErr := readWAL(o.walURL)
	before := snapshot(o.pid)
	t0 := time.Now()
	rn.phase.Store(phaseMeasure)
	var end time.Time
	if o.iterations > 0 {
		wg.Wait()
		end = time.Now()
	} else {
		select {
		case <-time.After(o.duration):
			end = time.Now()
		case <-rn.drained:
			end = time.Unix(0, rn.drainAt.Load())
		}
		rn.phase.Store(phaseStop)
	}
	after := snapshot(o.pid)
	walAfter, err := readWAL(o.walURL)
	if walErr == nil {
		walErr = err
	}
	if o.atEnd != nil {
		o.atEnd()
	}
	rn.phase.Store(phaseStop)
	wg.Wait()
	res.MaxRSSkB = sampler.stop()

	var lat []time.Duration
	for _, w := range workers {
		lat = append(lat, w.lat...)
		res.Errors += w.errs
	}
	if o.timeline != "" {
		if err := writeTimeline(o.timeline, t0, workers); err != nil {
			fmt.Fprintln(os.Stderr, "timeline:", err)
		}
	}
	res.ErrorSamples = rn.errors
	res.Requests = len(lat)
	res.Seconds = end.Sub(t0).Seconds()
	if res.Requests == 0 {
		res.Status = "failed: no successful request"
		return res
	}
	if res.Errors > res.Requests/100 {
		res.Status = fmt.Sprintf("failed: %d errors for %d successful requests", res.Errors, res.Requests)
	} else {
		res.Status = "ok"
	}
	slices.Sort(lat)
	pct := func(p float64) float64 {
		i := int(math.Ceil(p*float64(len(lat)))) - 1
		return float64(lat[max(i, 0)]) / float64(time.Millisecond)
	}
	res.RPS = float64(res.Requests) / res.Seconds
	res.P50, res.P90, res.P99, res.Max = pct(0.50), pct(0.90), pct(0.99), pct(1)
	d := after.sub(before)
	n := float64(res.Requests)
	res.ServerCPU = d.proc / n
	res.PostgresCPU = d.postgres / n
	res.RedisCPU = d.redis / n
	res.LoadgenCPU = d.self / n
	if d.total > 0 {
		res.MachineBusy = 100 * (1 - d.idle/d.total)
	}
	if o.walDump != "" && walErr == nil {
		if err := dumpWAL(o.walURL, o.walDir, walBefore.lsn, walAfter.lsn, o.walDump); err != nil {
			fmt.Fprintln(os.Stderr, "waldump:", err)
		}
	}
	if o.walURL != "" && walErr == nil {
		res.WALRecords = (walAfter.records - walBefore.records) / n
		res.WALFPI = (walAfter.fpi - walBefore.fpi) / n
		res.WALBytes = (walAfter.bytes - walBefore.bytes) / n
	}
	return res
}

// writeTimeline writes the window's start, then every measured request's start (ms
// after it) and latency (ms), in the order they started.
func writeTimeline(path string, t0 time.Time, workers []*worker) error {
	type req struct{ at, lat time.Duration }
	var all []req
	for _, w := range workers {
		for i, d := range w.lat {
			all = append(all, req{w.at[i].Sub(t0), d})
		}
	}
	slices.SortFunc(all, func(a, b req) int { return cmp.Compare(a.at, b.at) })
	var b strings.Builder
	fmt.Fprintf(&b, "# window start %s\nstart_ms,latency_ms\n", t0.UTC().Format(time.RFC3339Nano))
	for _, r := range all {
		fmt.Fprintf(&b, "%.1f,%.1f\n", float64(r.at)/float64(time.Millisecond), float64(r.lat)/float64(time.Millisecond))
	}
	return os.WriteFile(path, []byte(b.String()), 0o600)
}
