// Package stripemock runs Stripe's official stand-in server, stripe-mock (pinned in
// go.mod's tool block; it validates every request against Stripe's OpenAPI
// specification), behind a proxy that records each request, for tests of the stripe
// adapter and of whole-process flows that reach Stripe.
package stripemock

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os/exec"
	"path/filepath"
	"regexp"
	"sync"
	"testing"
	"time"
)

var listening = regexp.MustCompile(`Listening for HTTP at address: (\S+)`)

// Request is one request the proxy forwarded.
type Request struct {
	Method, Path string
	Form         url.Values // the form body (the query of a GET)
	Header       http.Header
}

// Recorder keeps every request sent through the proxy.
type Recorder struct {
	mu   sync.Mutex
	reqs []Request
}

// Last returns the last request to path (the zero Request when none).
func (r *Recorder) Last(path string) Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := len(r.reqs) - 1; i >= 0; i-- {
		if r.reqs[i].Path == path {
			return r.reqs[i]
		}
	}
	return Request{}
}

// Count returns how many requests of method went to path.
func (r *Recorder) Count(method, path string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, q := range r.reqs {
		if q.Method == method && q.Path == path {
			n++
		}
	}
	return n
}

// Start builds and starts stripe-mock on a free loopback port, behind a recording
// proxy, for the rest of the test; it returns the recorder and the proxy's base URL (the
// adapter's BaseURL). The test is skipped under -short; it fails, with the reason,
// when stripe-mock cannot be built here (it is go.mod's tool, so `go mod download`
// provides it wherever the module builds).
func Start(t testing.TB) (*Recorder, string) {
	t.Helper()
	return proxy(t, start(t))
}

func start(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("stripe-mock skipped under -short")
	}
	// The process lives until the test's cleanup kills it.
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	bin := filepath.Join(t.TempDir(), "stripe-mock")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/stripe/stripe-mock") //nolint:gosec // bin is a path in the test's temporary directory
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("stripe-mock (go.mod's tool) cannot be built; run with -short to skip: %v\n%s", err, out)
	}
	cmd := exec.CommandContext(ctx, bin, "-http-addr", "127.0.0.1:0", "-https-addr", "127.0.0.1:0") //nolint:gosec // bin is the binary built just above
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start stripe-mock: %v", err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
	}()
	select {
	case a := <-addr:
		return "http://" + a
	case <-time.After(60 * time.Second):
		t.Fatal("stripe-mock did not start")
		return ""
	}
}

func proxy(t testing.TB, target string) (*Recorder, string) {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(u)
	rec := &Recorder{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		form, _ := url.ParseQuery(string(body))
		if r.Method == http.MethodGet {
			form = r.URL.Query()
		}
		rec.mu.Lock()
		rec.reqs = append(rec.reqs, Request{Method: r.Method, Path: r.URL.Path, Form: form, Header: r.Header.Clone()})
		rec.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(body))
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return rec, srv.URL
}
