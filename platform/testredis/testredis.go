// Package testredis gives tests their Redis: URL is the shared test server
// (TEST_REDIS_URL), and Start runs a throwaway redis-server for tests that need to stop
// and restart Redis (outages), on a free port of 127.0.0.1, without persistence. Both
// skip only under -short: a missing or silent Redis fails the test, so a machine
// without one cannot pass by skipping (.ci/run starts Redis).
package testredis

import (
	"context"
	"net"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// DefaultURL is the test Redis when TEST_REDIS_URL is unset (the Makefile sets it).
const DefaultURL = "redis://127.0.0.1:6379/0"

// URL returns TEST_REDIS_URL (DefaultURL when unset) once the server answers PING; the
// test fails when it does not, and is skipped under -short.
func URL(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("redis test skipped under -short")
	}
	u := os.Getenv("TEST_REDIS_URL")
	if u == "" {
		u = DefaultURL
	}
	opt, err := redis.ParseURL(u)
	if err != nil {
		t.Fatalf("TEST_REDIS_URL %q: %v", u, err)
	}
	c := redis.NewClient(opt)
	defer func() { _ = c.Close() }()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := c.Ping(ctx).Err(); err != nil {
		t.Fatalf("Redis at %s does not answer: %v (start it as .ci/run does, set TEST_REDIS_URL, or run with -short to skip)", opt.Addr, err)
	}
	return u
}

// Server is one redis-server process; Stop and Start simulate an outage and the
// recovery on the same address.
type Server struct {
	t    testing.TB
	bin  string
	Port int

	mu  sync.Mutex
	cmd *exec.Cmd
}

// Start runs redis-server on a free port and stops it in t.Cleanup.
func Start(t testing.TB) *Server {
	t.Helper()
	if testing.Short() {
		t.Skip("redis-server test skipped under -short")
	}
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Fatalf("redis-server is not installed (apt-get install redis-server), or run with -short to skip: %v", err)
	}
	s := &Server{t: t, bin: bin, Port: freePort(t)}
	t.Cleanup(s.Stop)
	s.Start()
	return s
}

// Addr is host:port.
func (s *Server) Addr() string { return "127.0.0.1:" + strconv.Itoa(s.Port) }

// URL is the redis.url of the server.
func (s *Server) URL() string { return "redis://" + s.Addr() + "/0" }

// Start (re)starts the server and waits until it answers PING.
func (s *Server) Start() {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		return
	}
	// Not tied to a context: the process outlives Start, until Stop.
	cmd := exec.CommandContext(context.Background(), s.bin, //nolint:gosec // the test's own redis-server binary and flags
		"--port", strconv.Itoa(s.Port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
		"--protected-mode", "no", "--loglevel", "warning")
	if err := cmd.Start(); err != nil {
		s.t.Fatalf("redis-server: %v", err)
	}
	s.cmd = cmd
	c := redis.NewClient(&redis.Options{Addr: s.Addr(), MaxRetries: -1, DialTimeout: 200 * time.Millisecond})
	defer func() { _ = c.Close() }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		err := c.Ping(ctx).Err()
		cancel()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("redis-server on %s did not answer: %v", s.Addr(), err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Stop kills the server (no shutdown save) and waits until the port refuses connections.
func (s *Server) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
	s.cmd = nil
	for range 100 {
		d := net.Dialer{Timeout: 100 * time.Millisecond}
		conn, err := d.DialContext(context.Background(), "tcp", s.Addr())
		if err != nil {
			return
		}
		_ = conn.Close()
		time.Sleep(10 * time.Millisecond)
	}
}

// Down returns a client of a free port nothing listens on: every command is refused,
// as by a Redis that is down (no Redis needed). It is closed when the test ends.
func Down(t testing.TB) *redis.Client {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: FreeAddr(t)})
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// FreeAddr is a free 127.0.0.1 address (host:port), as freePort finds it.
func FreeAddr(t testing.TB) string {
	t.Helper()
	return "127.0.0.1:" + strconv.Itoa(freePort(t))
}

// freePort asks the kernel for a free port (it stays free unless another process takes
// it in the meantime).
func freePort(t testing.TB) int {
	t.Helper()
	var lc net.ListenConfig
	ln, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ln.Close() }()
	addr, ok := ln.Addr().(*net.TCPAddr)
	if !ok {
		t.Fatalf("listener address %v", ln.Addr())
	}
	return addr.Port
}
