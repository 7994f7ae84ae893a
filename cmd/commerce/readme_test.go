package main

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/testredis"
)

// readmeAddr is the address the README's commands use.
const readmeAddr = "localhost:8080"

// The README's "Try it" steps, read from README.md and run as written against a fresh
// data directory, as a newcomer runs them: `make run &` starts `commerce serve` on the
// embedded default (SQLite in the data directory, no configuration; here on a free port
// instead of :8080), `curl` lines are sent over HTTP, `./bin/commerce` lines run the
// CLI, and `<key>` is the key the last `api-key create` printed on its last line. Every
// step must succeed. A step this test does not understand fails it, so the README
// cannot drift from what works.
func TestReadmeTryIt(t *testing.T) {
	if testing.Short() {
		t.Skip("serves the API and writes a database")
	}
	steps := readmeSteps(t)
	for _, k := range []string{"DATABASE_URL", "REDIS_URL", "COMMERCE_DATABASE__URL", "COMMERCE_REDIS__URL", "COMMERCE_CONFIG"} {
		t.Setenv(k, "")
	}
	addr := testredis.FreeAddr(t)
	t.Setenv("COMMERCE_DATA_DIR", t.TempDir())
	t.Setenv("COMMERCE_HTTP__ADDR", addr)
	t.Setenv("COMMERCE_SECURITY__BCRYPT_COST", "4")
	t.Setenv("COMMERCE_LOG__LEVEL", "error")

	client := &http.Client{Timeout: 30 * time.Second}
	var key, seedOut string
	served := false
	for _, step := range steps {
		args := shellWords(t, step)
		for i, a := range args {
			if strings.Contains(a, "<key>") {
				if key == "" {
					t.Fatalf("step %q uses <key> before `api-key create` printed one", step)
				}
				args[i] = strings.ReplaceAll(a, "<key>", key)
			}
		}
		switch {
		case len(args) == 3 && args[0] == "make" && args[1] == "run" && args[2] == "&":
			startServer(t, addr)
			served = true
		case args[0] == "curl":
			if !served {
				t.Fatalf("step %q before the server was started", step)
			}
			res, body := curl(t, client, args[1:], addr)
			if res.StatusCode < 200 || res.StatusCode > 299 {
				t.Fatalf("step %q: %d %s", step, res.StatusCode, body)
			}
			if res.Header.Get("X-RateLimit-Remaining") == "" {
				t.Errorf("step %q: no X-RateLimit-* headers", step)
			}
			if strings.HasSuffix(res.Request.URL.Path, "/health") && !strings.Contains(body, `"status":"ok"`) {
				t.Errorf("step %q: %s", step, body)
			}
		case args[0] == "./bin/commerce":
			out, err := run(t, args[1:]...)
			if err != nil {
				t.Fatalf("step %q: %v\n%s", step, err, out)
			}
			if len(args) > 2 && args[1] == "api-key" && args[2] == "create" {
				lines := strings.Split(strings.TrimSpace(out), "\n")
				key = lines[len(lines)-1]
			}
			if args[1] == "seed" {
				seedOut = out
			}
		default:
			t.Fatalf("README step not understood by this test: %q", step)
		}
	}
	if key == "" || seedOut == "" {
		t.Fatalf("the README's Try it no longer creates an API key and seeds (key %q, seed %q)", key, seedOut)
	}
	// ada@example.com registered first: the seed said it skipped her and seeded the rest.
	for _, want := range []string{"skipped: customer ada@example.com", "seeded: customer grace@example.com", "seeded: 50 products"} {
		if !strings.Contains(seedOut, want) {
			t.Errorf("seed output lacks %q:\n%s", want, seedOut)
		}
	}
	// A second seed is a no-op that succeeds.
	out, err := run(t, "seed")
	if err != nil {
		t.Fatalf("second seed: %v\n%s", err, out)
	}
	if strings.Contains(out, "seeded:") || !strings.Contains(out, "nothing to seed") {
		t.Errorf("second seed:\n%s", out)
	}
}

// readmeSteps are the commands of the first shell block under "## Try it", with
// continuation lines joined and comments removed.
func readmeSteps(t *testing.T) []string {
	t.Helper()
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(raw), "\n## Try it\n")
	if !ok {
		t.Fatal(`README.md has no "## Try it" section`)
	}
	_, block, ok := strings.Cut(section, "```sh\n")
	if !ok {
		t.Fatal(`README.md "Try it" has no sh block`)
	}
	block, _, _ = strings.Cut(block, "```")
	var steps []string
	var cur strings.Builder
	for _, line := range strings.Split(block, "\n") {
		line = strings.TrimSpace(line)
		if cont, ok := strings.CutSuffix(line, `\`); ok {
			cur.WriteString(cont)
			continue
		}
		cur.WriteString(line)
		if s := strings.TrimSpace(cur.String()); s != "" && !strings.HasPrefix(s, "#") {
			steps = append(steps, s)
		}
		cur.Reset()
	}
	if len(steps) == 0 {
		t.Fatal(`README.md "Try it" has no steps`)
	}
	return steps
}

// shellWords splits a command line as sh does for the simple forms the README uses:
// single and double quotes, backslash escapes, and a comment from an unquoted #.
func shellWords(t *testing.T, line string) []string {
	t.Helper()
	var (
		words   []string
		cur     strings.Builder
		inWord  bool
		quote   rune
		escaped bool
	)
scan:
	for _, r := range line {
		switch {
		case escaped:
			cur.WriteRune(r)
			escaped = false
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case quote == '"':
			switch r {
			case '"':
				quote = 0
			case '\\':
				escaped = true
			default:
				cur.WriteRune(r)
			}
		case r == '\\':
			escaped, inWord = true, true
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case r == '#' && !inWord:
			break scan
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		t.Fatalf("unterminated quote in %q", line)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// curl sends the request a curl command line describes (-s, -X, -H, -d and the URL),
// with the README's address replaced by the test server's.
func curl(t *testing.T, client *http.Client, args []string, addr string) (*http.Response, string) {
	t.Helper()
	method, url, body := "", "", ""
	header := http.Header{}
	for i := 0; i < len(args); i++ {
		next := func() string {
			if i+1 >= len(args) {
				t.Fatalf("curl %v: %s needs a value", args, args[i])
			}
			i++
			return args[i]
		}
		switch a := args[i]; a {
		case "-s", "--silent":
		case "-X", "--request":
			method = next()
		case "-H", "--header":
			k, v, ok := strings.Cut(next(), ":")
			if !ok {
				t.Fatalf("curl %v: bad header", args)
			}
			header.Add(strings.TrimSpace(k), strings.TrimSpace(v))
		case "-d", "--data":
			body = next()
		default:
			if strings.HasPrefix(a, "-") || url != "" {
				t.Fatalf("curl %v: %s is not understood by this test", args, a)
			}
			url = a
		}
	}
	if !strings.HasPrefix(url, readmeAddr) && !strings.HasPrefix(url, "http://"+readmeAddr) {
		t.Fatalf("curl %v: the README's URLs are on %s", args, readmeAddr)
	}
	url = "http://" + addr + strings.TrimPrefix(strings.TrimPrefix(url, "http://"), readmeAddr)
	if method == "" {
		method = http.MethodGet
		if body != "" {
			method = http.MethodPost
		}
	}
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = header
	res, err := client.Do(req)
	if err != nil {
		t.Fatalf("curl %v: %v", args, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

// startServer runs `commerce serve` (what `make run` runs after building) until the test
// ends, and waits until it accepts connections.
func startServer(t *testing.T, addr string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		cmd := newRootCmd()
		cmd.SetArgs([]string{"serve"})
		cmd.SetOut(io.Discard)
		done <- cmd.ExecuteContext(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil && !errors.Is(err, context.Canceled) {
				t.Errorf("serve: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Error("serve did not stop within 30 s")
		}
	})
	deadline := time.Now().Add(60 * time.Second)
	for {
		select {
		case err := <-done:
			t.Fatalf("serve stopped: %v", err)
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			_ = c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("serve did not listen within 60 s")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
