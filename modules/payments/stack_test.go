package payments_test

import (
	"net/http"
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
	"github.com/gocommerce/commerce/platform/auth"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/httpxtest"
)

const (
	aliceID       = "0190c8a2-0000-7000-8000-00000000a11c"
	bobID         = "0190c8a2-0000-7000-8000-000000000b0b"
	webhookSecret = "whsec_test_secret"
)

var principals = httpxtest.Principals{
	"merchant": {Kind: auth.APIKey, ID: "key-merchant", KeyPrefix: "merchant", Scopes: []string{"payments:write"}},
	"reader":   {Kind: auth.APIKey, ID: "key-reader", KeyPrefix: "reader", Scopes: []string{"payments:read"}},
	"orders":   {Kind: auth.APIKey, ID: "key-orders", KeyPrefix: "orders", Scopes: []string{"orders:read"}},
	"admin":    httpxtest.Staff("staff-1", ""),
	"alice":    httpxtest.Customer(aliceID, ""),
	"bob":      httpxtest.Customer(bobID, ""),
}

type stackOptions struct {
	capture string          // test gateway capture_method
	extra   []ports.Gateway // more enabled gateways
	clock   clock.Clock
}

// stack is the payments module wired by hand the way payments.ProviderSet wires it,
// with the test gateway, behind the real router and an observed logger.
type stack struct {
	*httpxtest.Harness
	t    *testing.T
	db   *db.DB
	svc  *app.Service
	sub  *paymentsevents.Subscriber
	gw   *testgateway.Gateway
	logs *observer.ObservedLogs
}

// eachStack runs fn as a parallel subtest per engine on a fresh stack with options o.
func eachStack(t *testing.T, o stackOptions, fn func(t *testing.T, s *stack)) {
	t.Helper()
	httpxtest.EachEngine(t, func(t *testing.T, engine string) *stack { return newStack(t, engine, o) }, fn)
}

func newStack(t *testing.T, engine string, o stackOptions) *stack {
	t.Helper()
	e := httpxtest.NewEnv(t, engine, time.Now(), payments.Migrations())
	cfg := e.Config
	clk := o.clock
	if clk == nil {
		clk = clock.New()
	}
	core, logs := observer.New(zap.DebugLevel)
	log := zap.New(core)
	gw := testgateway.New(testgateway.Config{CaptureMethod: o.capture, WebhookSecret: webhookSecret})
	reg := gateways.New("test", append([]ports.Gateway{gw}, o.extra...)...)
	svc := payments.NewService(payments.NewSettings(&cfg), e.DB, reg, e.DB, e.Outbox(), clk, log)
	sub := paymentsevents.NewSubscriber(svc, log)
	srv := httpxtest.NewServer(t, &cfg, log, principals, payments.NewModule(paymentshttp.NewHandler(svc), sub))
	return &stack{Harness: httpxtest.New(t, srv, e.DB), t: t, db: e.DB, svc: svc, sub: sub, gw: gw, logs: logs}
}

// do sends a request as cred; headers are name, value pairs.
func (s *stack) do(method, path, cred string, body any, headers ...string) httpxtest.Response {
	s.t.Helper()
	hs := []string{cred}
	for i := 0; i+1 < len(headers); i += 2 {
		hs = append(hs, headers[i]+": "+headers[i+1])
	}
	return s.Do(method, path, body, hs...)
}

func card(number string) map[string]any {
	return map[string]any{"type": "card", "card": map[string]any{
		"number": number, "exp_month": 12, "exp_year": 2030, "cvc": "987", "name": "Ada Lovelace",
	}}
}

func payBody(amount, number string) map[string]any {
	return map[string]any{"amount": amount, "currency": "USD", "payment_method": card(number), "return_url": "https://shop.example/return"}
}

func (s *stack) pay(cred, amount, number string) httpxtest.Response {
	s.t.Helper()
	return s.do(http.MethodPost, "/api/v1/payments", cred, payBody(amount, number))
}

func errCode(r httpxtest.Response) any { return r.Err()["code"] }

// keys returns the sorted keys of an object.
func keys(m map[string]any) []string { return strings.Split(httpxtest.Keys(m), ",") }

func sub(m map[string]any, k string) map[string]any {
	v, _ := m[k].(map[string]any)
	return v
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
