package payments_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/gocommerce/commerce/modules/payments"
	paymentsevents "github.com/gocommerce/commerce/modules/payments/adapters/events"
	"github.com/gocommerce/commerce/modules/payments/adapters/gateways"
	paymentshttp "github.com/gocommerce/commerce/modules/payments/adapters/http"
	"github.com/gocommerce/commerce/modules/payments/adapters/testgateway"
	"github.com/gocommerce/commerce/modules/payments/app"
	"github.com/gocommerce/commerce/modules/payments/ports"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/auth"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/testdb"
)

const (
	aliceID       = "0190c8a2-0000-7000-8000-00000000a11c"
	bobID         = "0190c8a2-0000-7000-8000-000000000b0b"
	webhookSecret = "whsec_test_secret"
)

// fakeAuth maps bearer credentials to principals.
type fakeAuth map[string]*auth.Principal

func (f fakeAuth) Authenticate(_ context.Context, cred, _ string) (*auth.Principal, error) {
	if p, ok := f[cred]; ok {
		return p, nil
	}
	return nil, apperr.Unauthorized("Unauthorized: Invalid token")
}

var principals = fakeAuth{
	"merchant": {Kind: auth.APIKey, ID: "key-merchant", KeyPrefix: "merchant", Scopes: []string{"payments:write"}},
	"reader":   {Kind: auth.APIKey, ID: "key-reader", KeyPrefix: "reader", Scopes: []string{"payments:read"}},
	"orders":   {Kind: auth.APIKey, ID: "key-orders", KeyPrefix: "orders", Scopes: []string{"orders:read"}},
	"admin":    {Kind: auth.Staff, ID: "staff-1", Scopes: []string{"admin"}},
	"alice":    {Kind: auth.Customer, ID: aliceID, Scopes: config.Default().Security.CustomerScopes},
	"bob":      {Kind: auth.Customer, ID: bobID, Scopes: config.Default().Security.CustomerScopes},
}

type stackOptions struct {
	capture string          // test gateway capture_method
	extra   []ports.Gateway // more enabled gateways
	clock   clock.Clock
}

// stack is the payments module wired by hand the way payments.ProviderSet wires it,
// with the test gateway, behind the real router and an observed logger.
type stack struct {
	t    *testing.T
	db   *db.DB
	srv  *httpx.Server
	svc  *app.Service
	sub  *paymentsevents.Subscriber
	gw   *testgateway.Gateway
	logs *observer.ObservedLogs
}

func newStack(t *testing.T, engine string, o stackOptions) *stack {
	t.Helper()
	e := testdb.Open(t, engine, events.Migrations(), payments.Migrations())
	cfg := config.Default()
	clk := o.clock
	if clk == nil {
		clk = clock.New()
	}
	core, logs := observer.New(zap.DebugLevel)
	log := zap.New(core)
	gw := testgateway.New(testgateway.Config{CaptureMethod: o.capture, WebhookSecret: webhookSecret})
	reg := gateways.New("test", append([]ports.Gateway{gw}, o.extra...)...)
	svc := payments.NewService(payments.NewSettings(&cfg), e.DB, reg, e.DB, events.NewOutbox(e.DB), clk, log)
	sub := paymentsevents.NewSubscriber(svc, log)
	srv, err := httpx.NewServer(&cfg, log, principals, nil, nil, nil, []httpx.Module{payments.NewModule(paymentshttp.NewHandler(svc), sub)})
	if err != nil {
		t.Fatal(err)
	}
	return &stack{t: t, db: e.DB, srv: srv, svc: svc, sub: sub, gw: gw, logs: logs}
}

type response struct {
	Code   int
	Body   map[string]any
	Raw    string
	Header http.Header
}

func (s *stack) do(method, path, cred string, body any, headers ...string) response {
	s.t.Helper()
	var rd *bytes.Reader
	switch b := body.(type) {
	case nil:
		rd = bytes.NewReader(nil)
	case string:
		rd = bytes.NewReader([]byte(b))
	case []byte:
		rd = bytes.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			s.t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req := httptest.NewRequest(method, path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if cred != "" {
		req.Header.Set("Authorization", "Bearer "+cred)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	w := httptest.NewRecorder()
	s.srv.ServeHTTP(w, req)
	r := response{Code: w.Code, Raw: w.Body.String(), Header: w.Header()}
	if strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(w.Body.Bytes(), &r.Body); err != nil {
			s.t.Fatalf("%s %s: body %q", method, path, w.Body.String())
		}
	}
	return r
}

func card(number string) map[string]any {
	return map[string]any{"type": "card", "card": map[string]any{
		"number": number, "exp_month": 12, "exp_year": 2030, "cvc": "987", "name": "Ada Lovelace",
	}}
}

func payBody(amount, number string) map[string]any {
	return map[string]any{"amount": amount, "currency": "USD", "payment_method": card(number), "return_url": "https://shop.example/return"}
}

func (s *stack) pay(cred, amount, number string) response {
	s.t.Helper()
	return s.do(http.MethodPost, "/api/v1/payments", cred, payBody(amount, number))
}

func errCode(r response) any {
	e, _ := r.Body["error"].(map[string]any)
	return e["code"]
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func sub(m map[string]any, k string) map[string]any {
	v, _ := m[k].(map[string]any)
	return v
}

type outboxEvent struct {
	Type        string
	AggregateID string
	Payload     string
}

// outbox returns the stored events of a type for an aggregate ("" for any).
func (s *stack) outbox(eventType, aggregateID string) []outboxEvent {
	s.t.Helper()
	var rows []outboxEvent
	q := s.db.Gorm().Table("outbox_events").Select("type", "aggregate_id", "payload").Where("type = ?", eventType)
	if aggregateID != "" {
		q = q.Where("aggregate_id = ?", aggregateID)
	}
	if err := q.Order("occurred_at").Find(&rows).Error; err != nil {
		s.t.Fatal(err)
	}
	return rows
}

func (e outboxEvent) data(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(e.Payload), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// eventTypes lists an aggregate's event types in order.
func (s *stack) eventTypes(aggregateID string) []string {
	s.t.Helper()
	var rows []outboxEvent
	if err := s.db.Gorm().Table("outbox_events").Select("type").Where("aggregate_id = ?", aggregateID).Order("occurred_at, id").Find(&rows).Error; err != nil {
		s.t.Fatal(err)
	}
	out := make([]string, 0, len(rows))
	for _, r := range rows {
		out = append(out, r.Type)
	}
	return out
}

func (s *stack) count(table, where string, args ...any) int64 {
	s.t.Helper()
	var n int64
	q := s.db.Gorm().Table(table)
	if where != "" {
		q = q.Where(where, args...)
	}
	if err := q.Count(&n).Error; err != nil {
		s.t.Fatal(err)
	}
	return n
}

func mustTime(t *testing.T, v any) time.Time {
	t.Helper()
	s, _ := v.(string)
	tm, err := time.Parse(time.RFC3339, s)
	if err != nil || !strings.HasSuffix(s, "Z") {
		t.Fatalf("timestamp %q: %v", s, err)
	}
	return tm
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
