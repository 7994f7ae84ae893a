package webhooks_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/webhooks"
	webhooksevents "github.com/gocommerce/commerce/modules/webhooks/adapters/events"
	webhookshttp "github.com/gocommerce/commerce/modules/webhooks/adapters/http"
	webhooksjobs "github.com/gocommerce/commerce/modules/webhooks/adapters/jobs"
	webhookspg "github.com/gocommerce/commerce/modules/webhooks/adapters/postgres"
	"github.com/gocommerce/commerce/modules/webhooks/adapters/sender"
	"github.com/gocommerce/commerce/modules/webhooks/app"
	"github.com/gocommerce/commerce/modules/webhooks/domain"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/jobs"
	"github.com/gocommerce/commerce/platform/jobs/inprocess"
	"github.com/gocommerce/commerce/platform/jobs/jobstest"
	"github.com/gocommerce/commerce/platform/testdb"
)

var principals = httpxtest.Principals{
	"admin":    httpxtest.APIKey("k1", "admin"),
	"writer":   httpxtest.APIKey("k2", "webhooks:write"),
	"reader":   httpxtest.APIKey("k3", "products:read"),
	"customer": httpxtest.Customer("0190a000-0000-7000-8000-0000000000c1", ""),
}

var docs = httpxtest.Docs(func() *webhooks.Module { return webhooks.NewModule(nil, nil, nil) })

// resolver is a fixed DNS table the test can change (a rebinding attacker's DNS).
type resolver struct {
	mu    sync.Mutex
	hosts map[string][]netip.Addr
}

func (r *resolver) set(host string, addrs ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.hosts[host] = nil
	for _, a := range addrs {
		r.hosts[host] = append(r.hosts[host], netip.MustParseAddr(a))
	}
}

func (r *resolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if a, ok := r.hosts[host]; ok {
		return a, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

type harness struct {
	*httpxtest.Harness
	t        *testing.T
	svc      *app.Service
	outbox   *events.Outbox
	relay    *events.Relay
	resolver *resolver
	sender   *sender.Sender
}

// fast are settings for tests: short timeouts and retries, no sweep to speak of.
func fast() app.Settings {
	cfg := config.Default()
	s := app.SettingsFrom(&cfg)
	s.Timeout = 2 * time.Second
	s.Retry = domain.Retry{MaxRetries: 5, Base: 40 * time.Millisecond, Max: time.Second}
	s.DisableAfter = 0
	s.SweepInterval = time.Hour
	return s
}

// newHarness is the module on a fresh database with the in-process jobs runner.
func newHarness(t *testing.T, engine string, settings app.Settings) *harness {
	t.Helper()
	cfg := config.Default()
	runner := inprocess.New(&cfg, zap.NewNop())
	h := build(t, openDB(t, engine), settings, runner)
	jobstest.Start(t, runner, 10*time.Second)
	return h
}

// service builds the module's service on d, queuing its tasks with enq, and registers
// its jobs on reg (nil: none).
func service(t *testing.T, d *db.DB, settings app.Settings, res *resolver, enq jobs.Enqueuer, reg jobs.Registry) (*app.Service, *sender.Sender, *webhooks.Module) {
	t.Helper()
	log := zap.NewNop()
	policy, err := app.NewPolicy(settings)
	if err != nil {
		t.Fatal(err)
	}
	snd := sender.New(policy, res)
	svc, err := app.NewService(d, webhookspg.NewEndpointRepository(d), webhookspg.NewDeliveryRepository(d), snd, res, enq,
		events.NewOutbox(d), clock.New(), log, settings)
	if err != nil {
		t.Fatal(err)
	}
	mod := webhooks.NewModule(webhookshttp.NewHandler(svc), webhooksevents.NewSubscriber(svc), webhooksjobs.NewJobs(svc, log))
	if reg != nil {
		mod.RegisterJobs(reg)
	}
	return svc, snd, mod
}

// openDB opens a fresh database of the engine with the module's migrations.
func openDB(t *testing.T, engine string) *db.DB {
	t.Helper()
	return testdb.Open(t, engine, events.Migrations(), webhooks.Migrations()).DB
}

// eachEngine runs fn as a parallel subtest per engine on a fresh harness whose
// settings are fast() changed by set (nil for none).
func eachEngine(t *testing.T, set func(*app.Settings), fn func(t *testing.T, h *harness)) {
	t.Helper()
	httpxtest.EachEngine(t, func(t *testing.T, engine string) *harness {
		s := fast()
		if set != nil {
			set(&s)
		}
		return newHarness(t, engine, s)
	}, fn)
}

// build is the API side of the module on d: HTTP server, outbox, relay; its tasks go
// to enq (with their handlers registered when enq is also a registry).
func build(t *testing.T, d *db.DB, settings app.Settings, enq jobs.Enqueuer) *harness {
	t.Helper()
	cfg := config.Default()
	log := zap.NewNop()
	res := &resolver{hosts: map[string][]netip.Addr{}}
	reg, _ := enq.(jobs.Registry)
	svc, snd, mod := service(t, d, settings, res, enq, reg)
	outbox := events.NewOutbox(d)
	bus := events.NewBus()
	mod.Subscribe(bus.Consumer(mod.Name()))
	return &harness{Harness: httpxtest.Start(t, &cfg, principals, docs, d, mod), t: t, svc: svc, outbox: outbox,
		relay: events.NewRelay(d, bus, log), resolver: res, sender: snd}
}

// publish commits an event as a module would, then lets the relay deliver it (the
// webhooks consumer turns it into deliveries).
func (h *harness) publish(eventType, id string, data any) {
	h.t.Helper()
	if err := h.outbox.Publish(context.Background(), eventType, id, data); err != nil {
		h.t.Fatal(err)
	}
	h.drain()
}

func (h *harness) drain() {
	h.t.Helper()
	if _, err := h.relay.Drain(context.Background()); err != nil {
		h.t.Fatal(err)
	}
}

// create registers an endpoint as the admin and returns it (with its secret).
func (h *harness) create(url string, events ...string) map[string]any {
	h.t.Helper()
	return h.As("admin").Must(http.StatusCreated, http.MethodPost, "/api/v1/webhooks", map[string]any{"url": url, "events": events}).Data()
}

func (h *harness) deliveries(endpointID string) []map[string]any {
	h.t.Helper()
	return h.As("admin").Must(http.StatusOK, http.MethodGet, "/api/v1/webhooks/"+endpointID+"/deliveries?per_page=100", nil).List()
}

// received is one request a receiver got.
type received struct {
	Body   []byte
	Header http.Header
	At     time.Time
}

// receiver is a webhook receiver: respond answers its n-th request (from 1).
type receiver struct {
	srv     *httptest.Server
	mu      sync.Mutex
	got     []received
	respond func(n int, w http.ResponseWriter, r *http.Request)
}

func newReceiver(t *testing.T, tlsServer bool, respond func(n int, w http.ResponseWriter, r *http.Request)) *receiver {
	t.Helper()
	rc := &receiver{respond: respond}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.got = append(rc.got, received{Body: body, Header: r.Header.Clone(), At: time.Now()})
		n := len(rc.got)
		rc.mu.Unlock()
		if rc.respond != nil {
			rc.respond(n, w, r)
			return
		}
		_, _ = io.WriteString(w, `{"ok":true}`)
	})
	if tlsServer {
		rc.srv = httptest.NewTLSServer(h)
	} else {
		rc.srv = httptest.NewServer(h)
	}
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *receiver) requests() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.got...)
}

func (rc *receiver) count() int { return len(rc.requests()) }

// port is the receiver's port.
func (rc *receiver) port() string { return rc.srv.URL[strings.LastIndex(rc.srv.URL, ":")+1:] }

// trust makes the harness's sender trust a TLS receiver's certificate.
func (h *harness) trust(rc *receiver) {
	pool := x509.NewCertPool()
	pool.AddCert(rc.srv.Certificate())
	h.sender.Transport().TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	jobstest.WaitFor(t, 10*time.Second, what, cond)
}

// verify checks a request's X-Commerce-Signature the way a receiver would: HMAC-SHA256
// of "<t>.<body>" with the secret, compared in constant time.
func verify(t *testing.T, secret string, r received) {
	t.Helper()
	var ts, sig string
	for _, part := range strings.Split(r.Header.Get("X-Commerce-Signature"), ",") {
		k, v, _ := strings.Cut(part, "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			sig = v
		}
	}
	unix, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || time.Since(time.Unix(unix, 0)) > 5*time.Minute {
		t.Fatalf("signature timestamp %q", ts)
	}
	mac := hmac.New(sha256.New, []byte(secret))
	_, _ = fmt.Fprintf(mac, "%s.", ts)
	mac.Write(r.Body)
	want := hex.EncodeToString(mac.Sum(nil))
	if !hmac.Equal([]byte(want), []byte(sig)) {
		t.Fatalf("signature %q does not verify (want v1=%s)", r.Header.Get("X-Commerce-Signature"), want)
	}
}
