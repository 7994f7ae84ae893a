package coupons_test

import (
	"context"
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
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/httpxtest"
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

var principals = httpxtest.Preset().With(httpxtest.ReadWrite("coupons")).With(httpxtest.Principals{
	"couponad":  httpxtest.APIKey("k4", "coupons:admin"),
	"products":  httpxtest.APIKey("k5", "products:read"),
	"customer":  httpxtest.Customer(customer1, ""),
	"customer2": httpxtest.Customer(customer2, ""),
})

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

// harness is the coupons module on a fresh database with fake collaborators.
type harness struct {
	*httpxtest.Harness
	t         *testing.T
	engine    string
	db        *db.DB
	svc       *app.Service
	customers *fakeCustomers
	carts     *fakeCarts
	clock     *clock.Fake
	sub       *couponsevents.Subscriber
}

var t0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func newHarness(t *testing.T, engine string, stacking bool) *harness {
	t.Helper()
	env := httpxtest.NewEnv(t, engine, t0, coupons.Migrations())
	env.Config.Coupons.AllowFreeShippingStacking = stacking
	cust := &fakeCustomers{returning: map[string]bool{}, segments: map[string]map[string]bool{}}
	carts := &fakeCarts{cart: ports.Cart{
		ID: cartID, Currency: "USD", Subtotal: dec("100.00"), ShippingTotal: dec("10.00"), TaxTotal: decimal.Zero,
		Lines: []domain.Line{
			{ID: "i1", ProductID: productA, VariantID: productA, Quantity: 2, UnitPrice: dec("30.00")},
			{ID: "i2", ProductID: productB, VariantID: productB, Quantity: 1, UnitPrice: dec("40.00")},
		},
	}}
	svc := app.NewService(coupons.NewSettings(&env.Config), env.DB,
		app.Stores{Coupons: couponspg.NewCouponRepository(env.DB), Usage: couponspg.NewUsageRepository(env.DB)},
		app.Collaborators{Customers: cust}, env.Outbox(), env.Clock)
	sub := couponsevents.NewSubscriber(svc, zap.NewNop())
	h := env.Serve(principals, docs, coupons.NewModule(couponshttp.NewHandler(svc, app.NewValidator(svc, carts)), sub))
	return &harness{Harness: h, t: t, engine: engine, db: env.DB, svc: svc, customers: cust, carts: carts, clock: env.Clock, sub: sub}
}

// eachEngine runs fn on a fresh harness per engine, in parallel.
func eachEngine(t *testing.T, fn func(t *testing.T, h *harness)) {
	httpxtest.EachEngine(t, func(t *testing.T, engine string) *harness { return newHarness(t, engine, true) }, fn)
}

// docs checks every response against the module's OpenAPI document.
var docs = httpxtest.Docs(func() *coupons.Module { return coupons.NewModule(nil, nil) })

var assertError = httpxtest.AssertError

// create creates a coupon with the admin key; extra overrides the defaults.
func (h *harness) create(code, typ, value string, extra map[string]any) map[string]any {
	h.t.Helper()
	body := map[string]any{"code": code, "type": typ, "value": value}
	for k, v := range extra {
		body[k] = v
	}
	return h.Must(http.StatusCreated, http.MethodPost, "/api/v1/coupons", body, "admin").Data()
}
