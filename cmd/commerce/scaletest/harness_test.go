// Package scaletest runs the real `commerce` binary as several processes (serve and
// worker) on a private PostgreSQL and a private Redis started by the test, under load,
// and breaks them: the scale-out and fault tests of docs/operations.md. They take a few
// minutes, so they run only with COMMERCE_SCALE_TESTS=1 (`make test-scale`, which CI
// runs after `make test`); without it every test skips.
//
// The shared PostgreSQL and Redis of the machine are never stopped: each test starts its
// own (initdb + pg_ctl from /usr/lib/postgresql/<v>/bin, redis-server) on free ports.
package scaletest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/testredis"
)

// envGuard is the variable that turns the tests on.
const envGuard = "COMMERCE_SCALE_TESTS"

var (
	binOnce sync.Once
	binDir  string
	binPath string
	binErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		_ = os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// guard skips the test unless COMMERCE_SCALE_TESTS=1, and under -short.
func guard(t *testing.T) {
	t.Helper()
	if os.Getenv(envGuard) != "1" || testing.Short() {
		t.Skipf("scale and fault tests run with %s=1 (make test-scale)", envGuard)
	}
}

// binary builds cmd/commerce once per test run (as `make build` does) and returns it.
func binary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "commerce-scaletest-")
		if binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "commerce")
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", binPath, "..")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			binErr = fmt.Errorf("go build: %w\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// freePort is a free port of 127.0.0.1.
func freePort(t *testing.T) int {
	t.Helper()
	_, p, _ := net.SplitHostPort(testredis.FreeAddr(t))
	n, _ := strconv.Atoi(p)
	return n
}

// ---------------------------------------------------------------------------------
// A private PostgreSQL server.

// pgServer is one PostgreSQL cluster of the test's own; Stop and Start restart it on
// the same port and data.
type pgServer struct {
	t      *testing.T
	bin    string
	data   string
	sock   string
	log    string
	port   int
	asUser string // "postgres" when the test runs as root (postgres refuses root)

	mu      sync.Mutex
	running bool
}

// pgBinDir finds /usr/lib/postgresql/<highest>/bin.
func pgBinDir() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(dirs) == 0 {
		if p, err := exec.LookPath("initdb"); err == nil {
			return filepath.Dir(p), nil
		}
		return "", errors.New("no initdb under /usr/lib/postgresql/*/bin nor on PATH (apt-get install postgresql)")
	}
	sort.Slice(dirs, func(i, j int) bool {
		vi, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(dirs[i]))))
		vj, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(dirs[j]))))
		return vi > vj
	})
	return filepath.Dir(dirs[0]), nil
}

// startPostgres initdb's a cluster in t.TempDir() (trust authentication, no fsync) and
// starts it on a free port of 127.0.0.1; it is stopped in t.Cleanup. As root, initdb
// and postgres run as the postgres user through runuser; without one the test skips.
func startPostgres(t *testing.T) *pgServer {
	t.Helper()
	bin, err := pgBinDir()
	if err != nil {
		t.Skipf("private PostgreSQL: %v", err)
	}
	dir := t.TempDir()
	s := &pgServer{t: t, bin: bin, data: filepath.Join(dir, "data"), sock: filepath.Join(dir, "sock"), log: filepath.Join(dir, "postgres.log"), port: freePort(t)}
	for _, d := range []string{s.data, s.sock} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Skipf("running as root and there is no postgres user to run initdb and postgres as (they refuse root): %v", err)
		}
		if _, err := exec.LookPath("runuser"); err != nil {
			t.Skipf("running as root and runuser is missing: %v", err)
		}
		s.asUser = "postgres"
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		// The postgres user must reach the directories t.TempDir made for root.
		for p := dir; p != filepath.Dir(os.TempDir()) && p != "/"; p = filepath.Dir(p) {
			if p == os.TempDir() {
				break
			}
			_ = os.Chmod(p, 0o755)
		}
		for _, p := range []string{s.data, s.sock} {
			if err := os.Chown(p, uid, gid); err != nil {
				t.Fatal(err)
			}
		}
		f, err := os.Create(s.log)
		if err != nil {
			t.Fatal(err)
		}
		_ = f.Close()
		_ = os.Chown(s.log, uid, gid)
	}
	s.run("initdb", "-D", s.data, "--auth=trust", "--username=postgres", "--no-sync", "--encoding=UTF8", "--no-locale")
	t.Cleanup(s.Stop)
	s.Start()
	return s
}

// run runs a PostgreSQL program (as the postgres user when root) and fails on error.
func (s *pgServer) run(prog string, args ...string) {
	s.t.Helper()
	path := filepath.Join(s.bin, prog)
	name, argv := path, args
	if s.asUser != "" {
		name, argv = "runuser", append([]string{"-u", s.asUser, "--", path}, args...)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, name, argv...).CombinedOutput()
	if err != nil {
		logs, _ := os.ReadFile(s.log)
		s.t.Fatalf("%s %v: %v\n%s\n%s", prog, args, err, out, logs)
	}
}

// URL is the database.url of the server's postgres database.
func (s *pgServer) URL() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", s.port)
}

// Start starts the server and waits until it accepts connections.
func (s *pgServer) Start() {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running {
		return
	}
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200 -c shared_buffers=64MB", s.port, s.sock)
	s.run("pg_ctl", "-D", s.data, "-l", s.log, "-w", "-t", "60", "-o", opts, "start")
	s.running = true
}

// Stop stops the server (fast: sessions are ended, no client is waited for).
func (s *pgServer) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.running {
		return
	}
	s.run("pg_ctl", "-D", s.data, "-m", "fast", "-w", "-t", "60", "stop")
	s.running = false
}

// ---------------------------------------------------------------------------------
// commerce processes.

// proc is one running `commerce` process.
type proc struct {
	t    *testing.T
	name string
	cmd  *exec.Cmd
	log  string
	addr string // serve: 127.0.0.1:port
	done chan struct{}
	err  error
}

// cluster is a deployment: the binary, its configuration (environment), a private
// PostgreSQL and Redis, and the processes started so far.
type cluster struct {
	t     *testing.T
	bin   string
	dir   string
	pg    *pgServer
	redis *testredis.Server
	env   []string

	mu    sync.Mutex
	procs []*proc
	n     int
}

// newCluster starts PostgreSQL and Redis, migrates the database with `commerce migrate
// up` (the documented upgrade step) and returns the cluster; extra are more
// environment variables (KEY=value) of every process.
func newCluster(t *testing.T, extra ...string) *cluster {
	t.Helper()
	bin := binary(t)
	pg := startPostgres(t)
	rd := testredis.Start(t)
	c := &cluster{t: t, bin: bin, dir: t.TempDir(), pg: pg, redis: rd}
	c.env = append(baseEnv(),
		"DATABASE_URL="+pg.URL(),
		"REDIS_URL="+rd.URL(),
		"COMMERCE_DATA_DIR="+filepath.Join(c.dir, "var"),
	)
	c.env = append(c.env, extra...)
	t.Cleanup(c.stopAll)
	out := c.cli("migrate", "up")
	if !strings.Contains(out, "OK") && !strings.Contains(out, "nothing to do") && !strings.Contains(out, ".sql") {
		t.Logf("migrate up: %s", out)
	}
	return c
}

// baseEnv is the production configuration every process of the tests shares, with the
// limits the tests need; the environment of the test process is not passed on, except
// PATH and HOME.
func baseEnv() []string {
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + os.Getenv("HOME"),
		"COMMERCE_ENV=production",
		"COMMERCE_SECURITY__JWT__SECRET=" + strings.Repeat("s", 48),
		"COMMERCE_LOG__LEVEL=warn",
		"COMMERCE_HTTP__SHUTDOWN_TIMEOUT=10s",
		// API keys (the load) are not what is limited here; anonymous clients are.
		"COMMERCE_RATE_LIMITING__DEFAULT__REQUESTS_PER_MINUTE=1000000",
		"COMMERCE_RATE_LIMITING__DEFAULT__BURST_CAPACITY=100000",
		"COMMERCE_RATE_LIMITING__DEFAULT__REQUESTS_PER_HOUR=10000000",
		"COMMERCE_RATE_LIMITING__ANONYMOUS__REQUESTS_PER_MINUTE=60",
		"COMMERCE_RATE_LIMITING__ANONYMOUS__BURST_CAPACITY=10",
		"COMMERCE_RATE_LIMITING__ANONYMOUS__REQUESTS_PER_HOUR=100000",
		// Webhooks reach the test's receiver (https, on 127.0.0.1) quickly.
		"COMMERCE_WEBHOOKS__ALLOWED_HOSTS=127.0.0.1,::1",
		"COMMERCE_WEBHOOKS__TIMEOUT=2s",
		"COMMERCE_WEBHOOKS__SWEEP_INTERVAL=1s",
		"COMMERCE_WEBHOOKS__RETRY_BASE=1s",
		"COMMERCE_WEBHOOKS__RETRY_MAX=2s",
		"COMMERCE_NOTIFICATIONS__SWEEP_INTERVAL=1s",
	}
}

// cli runs a short `commerce` command and returns its output.
func (c *cluster) cli(args ...string) string {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.bin, args...)
	cmd.Env = c.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		c.t.Fatalf("commerce %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// adminKey creates an API key with the admin scope through the CLI.
func (c *cluster) adminKey() string {
	c.t.Helper()
	out := strings.TrimSpace(c.cli("api-key", "create", "--name", "scale", "--scopes", "admin"))
	lines := strings.Split(out, "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// start runs `commerce <sub>` with the cluster's environment plus extra.
func (c *cluster) start(sub, addr string, extra ...string) *proc {
	c.t.Helper()
	c.mu.Lock()
	c.n++
	name := fmt.Sprintf("%s-%d", sub, c.n)
	c.mu.Unlock()
	p := &proc{t: c.t, name: name, log: filepath.Join(c.dir, name+".log"), addr: addr, done: make(chan struct{})}
	f, err := os.Create(p.log)
	if err != nil {
		c.t.Fatal(err)
	}
	cmd := exec.CommandContext(context.Background(), c.bin, sub)
	cmd.Env = append(append([]string{}, c.env...), extra...)
	if addr != "" {
		cmd.Env = append(cmd.Env, "COMMERCE_HTTP__ADDR="+addr)
	}
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		c.t.Fatal(err)
	}
	p.cmd = cmd
	go func() {
		p.err = cmd.Wait()
		_ = f.Close()
		close(p.done)
	}()
	c.mu.Lock()
	c.procs = append(c.procs, p)
	c.mu.Unlock()
	return p
}

// serve starts a `commerce serve` on a free port and waits until /ready answers 200.
func (c *cluster) serve(extra ...string) *proc {
	c.t.Helper()
	p := c.start("serve", fmt.Sprintf("127.0.0.1:%d", freePort(c.t)), extra...)
	p.waitReady(30 * time.Second)
	return p
}

// restartServe starts a serve process again on the address of p (which has exited).
func (c *cluster) restartServe(p *proc) *proc {
	c.t.Helper()
	q := c.start("serve", p.addr)
	q.waitReady(30 * time.Second)
	return q
}

// worker starts a `commerce worker`.
func (c *cluster) worker(extra ...string) *proc {
	c.t.Helper()
	p := c.start("worker", "", extra...)
	// A worker has no probe: it is up once it logged nothing fatal for a moment and its
	// asynq server registered in Redis (checked by the caller when it matters).
	select {
	case <-p.done:
		c.t.Fatalf("%s exited at start: %v\n%s", p.name, p.err, p.logs())
	case <-time.After(500 * time.Millisecond):
	}
	return p
}

// stopAll stops every process still running (SIGTERM, then SIGKILL after 15 s).
func (c *cluster) stopAll() {
	c.mu.Lock()
	procs := append([]*proc{}, c.procs...)
	c.mu.Unlock()
	for _, p := range procs {
		if p.running() {
			_ = p.cmd.Process.Signal(syscall.SIGTERM)
		}
	}
	for _, p := range procs {
		select {
		case <-p.done:
		case <-time.After(15 * time.Second):
			_ = p.cmd.Process.Kill()
			<-p.done
		}
		if c.t.Failed() {
			c.t.Logf("---- %s log (tail):\n%s", p.name, tail(p.logs(), 4000))
		}
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

func (p *proc) running() bool {
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

func (p *proc) logs() string {
	b, _ := os.ReadFile(p.log)
	return string(b)
}

// url is the base URL of a serve process.
func (p *proc) url() string { return "http://" + p.addr }

// waitReady polls /ready until 200.
func (p *proc) waitReady(within time.Duration) {
	p.t.Helper()
	deadline := time.Now().Add(within)
	client := &http.Client{Timeout: time.Second}
	for {
		if !p.running() {
			p.t.Fatalf("%s exited: %v\n%s", p.name, p.err, p.logs())
		}
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, p.url()+"/ready", nil)
		res, err := client.Do(req)
		if err == nil {
			_, _ = io.Copy(io.Discard, res.Body)
			_ = res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("%s not ready after %s: %v\n%s", p.name, within, err, p.logs())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// terminate sends SIGTERM and waits for a clean exit.
func (p *proc) terminate() {
	p.t.Helper()
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(30 * time.Second):
		p.t.Fatalf("%s did not exit 30 s after SIGTERM", p.name)
	}
	if p.err != nil {
		p.t.Errorf("%s exited with %v after SIGTERM\n%s", p.name, p.err, tail(p.logs(), 4000))
	}
}

// kill sends SIGKILL and waits.
func (p *proc) kill() {
	_ = p.cmd.Process.Kill()
	<-p.done
}

// rss reads the process's resident set (VmRSS) and its peak (VmHWM) from /proc, in MiB.
func (p *proc) rss() (now, peak float64) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return 0, 0
	}
	defer func() { _ = f.Close() }()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 {
			continue
		}
		kb, _ := strconv.ParseFloat(fields[1], 64)
		switch fields[0] {
		case "VmRSS:":
			now = kb / 1024
		case "VmHWM:":
			peak = kb / 1024
		}
	}
	return now, peak
}

// ---------------------------------------------------------------------------------
// HTTP clients.

// api is a client of the serve processes.
type api struct {
	t      *testing.T
	client *http.Client
	key    string
}

func newAPI(t *testing.T, key string) *api {
	// No keep-alive: each request dials, so a stopped process shows as a refused
	// connection, which a client may retry elsewhere.
	tr := &http.Transport{DisableKeepAlives: true, MaxConnsPerHost: 0}
	t.Cleanup(tr.CloseIdleConnections)
	return &api{t: t, client: &http.Client{Timeout: 20 * time.Second, Transport: tr}, key: key}
}

// result is one answer.
type result struct {
	status int
	header http.Header
	body   []byte
	took   time.Duration
}

func (r result) json() map[string]any {
	var m map[string]any
	_ = json.Unmarshal(r.body, &m)
	if d, ok := m["data"].(map[string]any); ok {
		return d
	}
	return m
}

// do sends one request to base; authenticated with the admin key when auth is true.
func (a *api) do(base, method, path string, body any, auth bool) (result, error) {
	var rd io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(context.Background(), method, base+path, rd)
	if err != nil {
		return result{}, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if auth {
		req.Header.Set("Authorization", "Bearer "+a.key)
	}
	start := time.Now()
	res, err := a.client.Do(req)
	if err != nil {
		return result{took: time.Since(start)}, err
	}
	defer func() { _ = res.Body.Close() }()
	raw, err := io.ReadAll(res.Body)
	return result{status: res.StatusCode, header: res.Header, body: raw, took: time.Since(start)}, err
}

// must sends a request that must answer want.
func (a *api) must(want int, base, method, path string, body any) map[string]any {
	a.t.Helper()
	r, err := a.do(base, method, path, body, true)
	if err != nil {
		a.t.Fatalf("%s %s: %v", method, path, err)
	}
	if r.status != want {
		a.t.Fatalf("%s %s: %d, want %d: %s", method, path, r.status, want, r.body)
	}
	return r.json()
}

// refused reports a transport error that proves the request never reached a server:
// a refused connection.
func refused(err error) bool {
	return errors.Is(err, syscall.ECONNREFUSED)
}

// ---------------------------------------------------------------------------------
// The webhook receiver.

// receiver is an https endpoint counting the deliveries it accepted (answered 2xx), by
// event id; hold, when set, decides per request whether to hold it until release.
type receiver struct {
	srv    *httptest.Server
	caFile string

	mu       sync.Mutex
	accepted map[string]int    // event id → deliveries answered 204
	types    map[string]string // event id → type
	objects  map[string]string // event id → data.id
	seen     int               // requests received, answered or not
	hold     func(eventID string, n int) bool
	release  chan struct{}
}

// newReceiver starts the receiver; its certificate is written to a PEM file that the
// processes trust (SSL_CERT_FILE).
func newReceiver(t *testing.T, dir string) *receiver {
	t.Helper()
	rc := &receiver{accepted: map[string]int{}, types: map[string]string{}, objects: map[string]string{}, release: make(chan struct{})}
	rc.srv = httptest.NewUnstartedServer(http.HandlerFunc(rc.handle))
	rc.srv.EnableHTTP2 = false
	rc.srv.StartTLS()
	t.Cleanup(rc.srv.Close)
	rc.caFile = filepath.Join(dir, "receiver-ca.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: rc.srv.Certificate().Raw})
	if err := os.WriteFile(rc.caFile, pemBytes, 0o600); err != nil {
		t.Fatal(err)
	}
	return rc
}

// url is the endpoint URL.
func (rc *receiver) url() string { return rc.srv.URL + "/hooks" }

func (rc *receiver) handle(w http.ResponseWriter, r *http.Request) {
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	var ev struct {
		ID   string
		Type string
		Data map[string]any
	}
	_ = json.Unmarshal(raw, &ev)
	rc.mu.Lock()
	rc.seen++
	n := rc.seen
	hold := rc.hold != nil && rc.hold(ev.ID, n)
	rc.mu.Unlock()
	if hold {
		// The sender is killed meanwhile: this request is never answered.
		select {
		case <-rc.release:
		case <-r.Context().Done():
		}
		return
	}
	rc.mu.Lock()
	rc.accepted[ev.ID]++
	rc.types[ev.ID] = ev.Type
	if id, ok := ev.Data["id"].(string); ok {
		rc.objects[ev.ID] = id
	}
	rc.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// snapshot copies the accepted counts.
func (rc *receiver) snapshot() (accepted map[string]int, objects map[string]string, types map[string]string, seen int) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	accepted, objects, types = map[string]int{}, map[string]string{}, map[string]string{}
	for k, v := range rc.accepted {
		accepted[k] = v
	}
	for k, v := range rc.objects {
		objects[k] = v
	}
	for k, v := range rc.types {
		types[k] = v
	}
	return accepted, objects, types, rc.seen
}

// deliveredOnce waits until every product in ids was announced (product.created)
// exactly once, and fails on any event id accepted twice.
func (rc *receiver) deliveredOnce(t *testing.T, ids []string, within time.Duration) {
	t.Helper()
	rc.delivered(t, ids, within, true)
}

// delivered waits until every product in ids was announced (product.created) by one
// event; once, every event id must have been accepted once.
func (rc *receiver) delivered(t *testing.T, ids []string, within time.Duration, once bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		accepted, objects, types, _ := rc.snapshot()
		created := map[string]int{}
		for ev, n := range accepted {
			if n > 1 && once {
				t.Fatalf("event %s (%s) accepted %d times", ev, types[ev], n)
			}
			if types[ev] == "product.created" {
				created[objects[ev]]++
			}
		}
		var missing []string
		for _, id := range ids {
			switch created[id] {
			case 0:
				missing = append(missing, id)
			case 1:
			default:
				t.Fatalf("product %s announced by %d product.created events", id, created[id])
			}
		}
		if len(missing) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %s, %d of %d products were never delivered to the webhook (e.g. %s)", within, len(missing), len(ids), missing[0])
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// subscribe registers the receiver for every event type and waits out the other
// processes' endpoint snapshot (one second, decision 0191).
func subscribe(t *testing.T, a *api, base string, rc *receiver) string {
	t.Helper()
	ep := a.must(http.StatusCreated, base, "POST", "/api/v1/webhooks", map[string]any{"url": rc.url(), "events": []string{"*"}})
	time.Sleep(1500 * time.Millisecond)
	id, _ := ep["id"].(string)
	return id
}

// newProduct is the body of a product creation.
func newProduct(title string) map[string]any {
	return map[string]any{"title": title, "price": "9.90", "currency": "EUR", "inventory_quantity": 100}
}

// stack is a deployment of the tests: a cluster whose processes trust the webhook
// receiver, an admin client, the serve and worker processes, and the receiver
// subscribed to every event type.
type stack struct {
	rc      *receiver
	c       *cluster
	a       *api
	serves  []*proc
	workers []*proc
}

// newStack starts the cluster with serves serve and workers worker processes.
func newStack(t *testing.T, serves, workers int) *stack {
	t.Helper()
	st := &stack{rc: newReceiver(t, t.TempDir())}
	st.c = newCluster(t, "SSL_CERT_FILE="+st.rc.caFile)
	st.a = newAPI(t, st.c.adminKey())
	for range serves {
		st.serves = append(st.serves, st.c.serve())
	}
	for range workers {
		st.workers = append(st.workers, st.c.worker())
	}
	subscribe(t, st.a, st.serves[0].url(), st.rc)
	return st
}
