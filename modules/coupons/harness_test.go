package coupons_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/coupons"
	couponsevents "github.com/gocommerce/commerce/modules/coupons/adapters/events"
	couponshttp "github.com/gocommerce/commerce/modules/coupons/adapters/http"
	couponspg "github.com/gocommerce/commerce/modules/coupons/adapters/postgres"
	"github.com/gocommerce/commerce/modules/coupons/app"
	"github.com/gocommerce/commerce/modules/coupons/domain"
	"github.com/gocommerce/commerce/modules/coupons/ports"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/auth"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/openapi"
	"github.com/gocommerce/commerce/platform/testdb"
)

const (
	customer1 = "0190a000-0000-7000-8000-0000000000c1"
	customer2 = "0190a000-0000-7000-8000-0000000000c2"
	productA  = "0190a000-0000-7000-8000-0000000000a1"
	productB  = "0190a000-0000-7000-8000-0000000000b1"
	segment1  = "0190a000-0000-7000-8000-0000000000e1"
	cartID    = "0190a000-0000-7000-8000-00000000ca01"
	guestTok  = "guest-token"
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
	"admin":     {Kind: auth.APIKey, ID: "k1", KeyPrefix: "k1", Scopes: []string{"admin"}},
	"staff":     {Kind: auth.Staff, ID: "s1", Scopes: []string{"admin"}},
	"writer":    {Kind: auth.APIKey, ID: "k2", KeyPrefix: "k2", Scopes: []string{"coupons:write"}},
	"reader":    {Kind: auth.APIKey, ID: "k3", KeyPrefix: "k3", Scopes: []string{"coupons:read"}},
	"couponad":  {Kind: auth.APIKey, ID: "k4", KeyPrefix: "k4", Scopes: []string{"coupons:admin"}},
	"products":  {Kind: auth.APIKey, ID: "k5", KeyPrefix: "k5", Scopes: []string{"products:read"}},
	"customer":  {Kind: auth.Customer, ID: customer1, Scopes: config.Default().Security.CustomerScopes},
	"customer2": {Kind: auth.Customer, ID: customer2, Scopes: config.Default().Security.CustomerScopes},
}

// fakeCustomers is ports.Customers with settable answers.
type fakeCustomers struct {
	mu        sync.Mutex
	returning map[string]bool // customer ids and emails with orders
	segments  map[string]map[string]bool
}

func (f *fakeCustomers) IsNewCustomer(_ context.Context, id, email string) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if id != "" {
		return !f.returning[id], nil
	}
	return !f.returning[strings.ToLower(email)], nil
}

func (f *fakeCustomers) InSegment(_ context.Context, seg, id string) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.segments[seg][id], nil
}

// fakeCarts is ports.Carts with one cart, readable with its token or by its owner.
type fakeCarts struct {
	mu   sync.Mutex
	cart ports.Cart
	err  error
}

func (f *fakeCarts) Cart(_ context.Context, a ports.CartAccess) (ports.Cart, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return ports.Cart{}, f.err
	}
	owner := a.Principal != nil && a.Principal.Kind == auth.Customer && a.Principal.ID == f.cart.CustomerID
	if a.CartID != f.cart.ID || (a.SessionToken != guestTok && !owner) {
		return ports.Cart{}, apperr.New(apperr.NotFound, "CART_NOT_FOUND", "Cart not found")
	}
	return f.cart, nil
}

func (f *fakeCarts) set(fn func(c *ports.Cart)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fn(&f.cart)
}

type harness struct {
	t         *testing.T
	engine    string
	db        *db.DB
	svc       *app.Service
	srv       http.Handler
	customers *fakeCustomers
	carts     *fakeCarts
	clock     *clock.Fake
	sub       *couponsevents.Subscriber
}

var t0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func newHarness(t *testing.T, engine string, stacking bool) *harness {
	t.Helper()
	e := testdb.Open(t, engine, events.Migrations(), coupons.Migrations())
	cfg := config.Default()
	cfg.Coupons.AllowFreeShippingStacking = stacking
	clk := clock.NewFake(t0)
	cust := &fakeCustomers{returning: map[string]bool{}, segments: map[string]map[string]bool{}}
	carts := &fakeCarts{cart: ports.Cart{
		ID: cartID, Currency: "USD", Subtotal: dec("100.00"), ShippingTotal: dec("10.00"), TaxTotal: decimal.Zero,
		Lines: []domain.Line{
			{ID: "i1", ProductID: productA, VariantID: productA, Quantity: 2, UnitPrice: dec("30.00")},
			{ID: "i2", ProductID: productB, VariantID: productB, Quantity: 1, UnitPrice: dec("40.00")},
		},
	}}
	svc := app.NewService(coupons.NewSettings(&cfg), e.DB,
		app.Stores{Coupons: couponspg.NewCouponRepository(e.DB), Usage: couponspg.NewUsageRepository(e.DB)},
		app.Collaborators{Customers: cust}, events.NewOutbox(e.DB), clk)
	sub := couponsevents.NewSubscriber(svc, zap.NewNop())
	mod := coupons.NewModule(couponshttp.NewHandler(svc, app.NewValidator(svc, carts)), sub)
	srv, err := httpx.NewServer(&cfg, zap.NewNop(), principals, nil, nil, nil, []httpx.Module{mod})
	if err != nil {
		t.Fatal(err)
	}
	return &harness{t: t, engine: engine, db: e.DB, svc: svc, srv: docs.Wrap(t, srv), customers: cust, carts: carts, clock: clk, sub: sub}
}

// eachEngine runs fn on a fresh harness per engine, in parallel.
func eachEngine(t *testing.T, fn func(t *testing.T, h *harness)) {
	t.Helper()
	for _, engine := range testdb.Engines() {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			fn(t, newHarness(t, engine, true))
		})
	}
}

// docs checks every response against the module's OpenAPI document.
var docs = httpxtest.NewValidator(func() openapi.Fragment { return coupons.NewModule(nil, nil).OpenAPI() })

type response httpxtest.Response

func (r response) data() map[string]any { return httpxtest.Response(r).Data() }

func (r response) list() []map[string]any { return httpxtest.Response(r).List() }

func (r response) err() map[string]any { return httpxtest.Response(r).Err() }

// do sends a request; headers are "Name: value" strings, a bare value is a bearer
// credential.
func (h *harness) do(method, path string, body any, creds ...string) response {
	h.t.Helper()
	return response(httpxtest.Do(h.t, h.srv, method, path, body, creds...))
}

func (h *harness) must(status int, method, path string, body any, creds ...string) response {
	h.t.Helper()
	return response(httpxtest.Must(h.t, h.srv, status, method, path, body, creds...))
}

// assertError checks the envelope: status, code (spec string or the status), category.
func assertError(t *testing.T, r response, status int, code any, category string) {
	t.Helper()
	httpxtest.AssertError(t, httpxtest.Response(r), status, code, category)
}

func fields(r response) map[string]any { return httpxtest.Response(r).Fields() }

// create creates a coupon with the admin key; extra overrides the defaults.
func (h *harness) create(code, typ, value string, extra map[string]any) map[string]any {
	h.t.Helper()
	body := map[string]any{"code": code, "type": typ, "value": value}
	for k, v := range extra {
		body[k] = v
	}
	return h.must(http.StatusCreated, http.MethodPost, "/api/v1/coupons", body, "admin").data()
}

type outboxEvent struct {
	Type        string
	AggregateID string
	Payload     string
}

func (h *harness) events(eventType string) []map[string]any {
	h.t.Helper()
	var rows []outboxEvent
	if err := h.db.Gorm().Table("outbox_events").Select("type", "aggregate_id", "payload").Where("type = ?", eventType).Order("occurred_at, id").Find(&rows).Error; err != nil {
		h.t.Fatal(err)
	}
	out := make([]map[string]any, len(rows))
	for i, r := range rows {
		if err := json.Unmarshal([]byte(r.Payload), &out[i]); err != nil {
			h.t.Fatal(err)
		}
		out[i]["_aggregate"] = r.AggregateID
	}
	return out
}

func keys(m map[string]any) string { return httpxtest.Keys(m) }
