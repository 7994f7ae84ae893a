package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/openapi"
	"github.com/gocommerce/commerce/platform/testdb"
)

var (
	tagRe  = regexp.MustCompile(`(?is)<(script|link|img|iframe|style|object|embed|source)\b[^>]*>`)
	attrRe = regexp.MustCompile(`(?is)\b(src|href)\s*=\s*["']?([^"'\s>]+)`)
)

// GET /docs names no other host, and the Redoc bundle it loads comes from the binary:
// the reference works on a deployment without internet.
func TestDocsPageIsSelfContained(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, testdb.Primary(), nil)

	page := ta.do(http.MethodGet, "/docs", nil)
	if page.Status != http.StatusOK || !strings.HasPrefix(page.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET /docs = %d %s", page.Status, page.Header.Get("Content-Type"))
	}
	html := string(page.Body)
	var scripts []string
	for _, tag := range tagRe.FindAllString(html, -1) {
		for _, m := range attrRe.FindAllStringSubmatch(tag, -1) {
			u := m[2]
			if !strings.HasPrefix(u, "/") || strings.HasPrefix(u, "//") {
				t.Errorf("GET /docs loads %q from another host (%s)", u, tag)
			}
			if strings.HasPrefix(strings.ToLower(tag), "<script") {
				scripts = append(scripts, u)
			}
		}
	}
	if strings.Contains(html, "http://") || strings.Contains(html, "https://") || strings.Contains(strings.ToLower(html), "@import") {
		t.Errorf("GET /docs names an absolute URL:\n%s", html)
	}
	if len(scripts) != 1 || !strings.HasPrefix(scripts[0], openapi.RedocPath+"?") {
		t.Fatalf("GET /docs scripts = %v, want the embedded %s", scripts, openapi.RedocPath)
	}
	// The browser is told to refuse any other host too.
	csp := page.Header.Get("Content-Security-Policy")
	for _, d := range []string{"default-src 'none'", "script-src 'self'", "connect-src 'self'", "img-src 'self' data:", "font-src 'self' data:"} {
		if !strings.Contains(csp, d) {
			t.Errorf("GET /docs Content-Security-Policy %q lacks %q", csp, d)
		}
	}

	js := ta.do(http.MethodGet, scripts[0], nil)
	if js.Status != http.StatusOK {
		t.Fatalf("GET %s = %d", scripts[0], js.Status)
	}
	if ct := js.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/javascript") {
		t.Errorf("GET %s Content-Type = %q, want text/javascript", scripts[0], ct)
	}
	if cc := js.Header.Get("Cache-Control"); !strings.Contains(cc, "max-age=31536000") {
		t.Errorf("GET %s Cache-Control = %q, want a year", scripts[0], cc)
	}
	if js.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("GET %s without nosniff", scripts[0])
	}
	if !bytes.Equal(js.Body, openapi.RedocJS()) {
		t.Errorf("GET %s returned %d bytes, not the embedded bundle (%d bytes)", scripts[0], len(js.Body), len(openapi.RedocJS()))
	}

	notices := ta.do(http.MethodGet, openapi.RedocNoticePath, nil)
	if notices.Status != http.StatusOK || !bytes.Contains(notices.Body, []byte("MIT License")) || !bytes.Contains(notices.Body, []byte("ReDoc")) {
		t.Errorf("GET %s = %d\n%.200s", openapi.RedocNoticePath, notices.Status, notices.Body)
	}
}

// A real browser renders /docs with every request to a host other than the server
// refused, and asks no other host for anything. Runs when Chromium is installed
// (CHROME_BIN, chromium-headless-shell, chromium, google-chrome).
func TestDocsPageRendersOffline(t *testing.T) {
	t.Parallel()
	chrome, ta := browserApp(t, "/docs")

	// The browser reaches everything through this proxy: the app answers for
	// commerce.test, any other host is recorded and refused.
	const host = "commerce.test"
	var mu sync.Mutex
	var foreign []string
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodConnect && r.URL.Host == host {
			ta.app.Server.ServeHTTP(w, r)
			return
		}
		mu.Lock()
		foreign = append(foreign, r.Method+" "+r.Host+r.URL.Path)
		mu.Unlock()
		http.Error(w, "offline", http.StatusBadGateway)
	}))
	defer proxy.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, chrome,
		"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-default-apps", "--user-data-dir="+t.TempDir(),
		"--proxy-server="+proxy.URL, "--proxy-bypass-list=<-loopback>",
		"--virtual-time-budget=20000", "--dump-dom", "http://"+host+"/docs")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	dom, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", chrome, err, stderr.String())
	}
	page := string(dom)
	for _, want := range []string{
		"Commerce API", // info.title, rendered by Redoc
		"Health of the service and its dependencies", // an operation of the base document
		"Human-readable API reference",               // the docs page's own operation
		"Strict readiness",                           // and another
	} {
		if !strings.Contains(page, want) {
			t.Errorf("rendered /docs lacks %q (%d bytes of DOM)", want, len(page))
		}
	}
	if strings.Contains(page, "Something went wrong") {
		t.Error("Redoc reported an error rendering the document")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(foreign) > 0 {
		t.Errorf("the docs page asked other hosts: %v", foreign)
	}
}

func findChrome() string {
	if p := os.Getenv("CHROME_BIN"); p != "" {
		return p
	}
	for _, name := range []string{"chromium-headless-shell", "chromium", "chromium-browser", "google-chrome", "headless_shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}
