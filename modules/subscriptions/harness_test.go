package subscriptions_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"

	catalog "github.com/gocommerce/commerce/modules/catalog/api"
	orders "github.com/gocommerce/commerce/modules/orders/api"
	"github.com/gocommerce/commerce/modules/subscriptions"
	subsevents "github.com/gocommerce/commerce/modules/subscriptions/adapters/events"
	subshttp "github.com/gocommerce/commerce/modules/subscriptions/adapters/http"
	subsjobs "github.com/gocommerce/commerce/modules/subscriptions/adapters/jobs"
	subspg "github.com/gocommerce/commerce/modules/subscriptions/adapters/postgres"
	"github.com/gocommerce/commerce/modules/subscriptions/app"
	"github.com/gocommerce/commerce/modules/subscriptions/ports"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/jobs"
)

const (
	customer1 = "0190a000-0000-7000-8000-0000000000c1"
	customer2 = "0190a000-0000-7000-8000-0000000000c2"
	order1    = "0190a000-0000-7000-8000-00000000d001"
	order2    = "0190a000-0000-7000-8000-00000000d002"
	product1  = "0190a000-0000-7000-8000-00000000e001"
)

// The test gateway's cards (CONTRACT §6), saved: the fake payments module charges a
// saved method as the test gateway charges the card it was saved from.
const (
	cardOK           = "pm_4242424242424242"
	cardDeclined     = "pm_4000000000000002"
	cardInsufficient = "pm_4000000000009995"
)

var declines = map[string][2]string{
	cardDeclined:     {"card_declined", "Your card was declined."},
	cardInsufficient: {"insufficient_funds", "Your card has insufficient funds."},
}

var principals = httpxtest.Principals{
	"admin":     httpxtest.APIKey("k1", "admin"),
	"writer":    httpxtest.APIKey("k2", "subscriptions:write"),
	"reader":    httpxtest.APIKey("k3", "subscriptions:read"),
	"other":     httpxtest.APIKey("k4", "products:read"),
	"customer":  httpxtest.Customer(customer1, "ada@example.com"),
	"customer2": httpxtest.Customer(customer2, "bob@example.com"),
}

// fakePayments charges like the test gateway and keeps payments by idempotency key,
// as the payments module does: a charge retried with its key answers the first one.
type fakePayments struct {
	mu       sync.Mutex
	byKey    map[string]ports.ChargeResult
	charges  map[string]int // per invoice id: charges that reached the gateway
	total    int
	failNext func(r ports.ChargeRequest) error // after the charge, as a crash would
}

func (f *fakePayments) Charge(_ context.Context, r ports.ChargeRequest) (ports.ChargeResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	res, ok := f.byKey[r.IdempotencyKey]
	if !ok {
		res = ports.ChargeResult{PaymentID: fmt.Sprintf("pay_%d", len(f.byKey)+1), Paid: true}
		if d, bad := declines[r.PaymentMethodID]; bad {
			res = ports.ChargeResult{PaymentID: res.PaymentID, ErrorCode: d[0], ErrorMessage: d[1]}
		}
		f.byKey[r.IdempotencyKey] = res
		f.charges[fmt.Sprint(r.Metadata["subscription_invoice_id"])]++
		f.total++
	}
	if f.failNext != nil {
		err := f.failNext(r)
		f.failNext = nil
		return ports.ChargeResult{}, err
	}
	return res, nil
}

// OwnsMethod: every token belongs to its customer except those starting with
// "pm_other" (someone else's).
func (f *fakePayments) OwnsMethod(_ context.Context, _, token string) (bool, error) {
	return !strings.HasPrefix(token, "pm_other"), nil
}

func (f *fakePayments) chargesOf(invoiceID string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.charges[invoiceID]
}

// fakeOrders knows the originating orders and records the cycles' orders.
type fakeOrders struct {
	mu      sync.Mutex
	owners  map[string]string
	created map[string]ports.OrderDraft
}

func (f *fakeOrders) Exists(_ context.Context, id string) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, ok := f.created[id]
	_, known := f.owners[id]
	return ok || known, nil
}

func (f *fakeOrders) CustomerOf(_ context.Context, id string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c, ok := f.owners[id]
	if !ok {
		return "", orders.ErrOrderNotFound
	}
	return c, nil
}

func (f *fakeOrders) Create(_ context.Context, d ports.OrderDraft) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, dup := f.created[d.ID]; dup {
		return errors.New("duplicate order")
	}
	f.created[d.ID] = d
	return nil
}

func (f *fakeOrders) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.created)
}

type fakeCatalog struct{}

func (fakeCatalog) ProductName(_ context.Context, id string) (string, error) {
	if id != product1 {
		return "", catalog.ErrProductNotFound
	}
	return "Coffee Club", nil
}

type fakeCustomers struct{}

func (fakeCustomers) Customer(_ context.Context, id string) (ports.Customer, error) {
	switch id {
	case customer1:
		return ports.Customer{ID: id, Email: "ada@example.com", Name: "Ada Lovelace"}, nil
	case customer2:
		return ports.Customer{ID: id, Email: "bob@example.com", Name: "Bob"}, nil
	}
	return ports.Customer{}, apperr.New(apperr.NotFound, "CUSTOMER_NOT_FOUND", "Customer not found")
}

// fakeNotifier records the emails.
type fakeNotifier struct {
	mu   sync.Mutex
	sent []ports.Message
}

func (f *fakeNotifier) Send(_ context.Context, m ports.Message) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sent = append(f.sent, m)
	return fmt.Sprintf("ntf_%d", len(f.sent)), nil
}

func (f *fakeNotifier) templates() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, m := range f.sent {
		out = append(out, m.TemplateID)
	}
	return out
}

// enqueued records the retry tasks.
type enqueued struct {
	mu    sync.Mutex
	tasks []string
}

func (e *enqueued) Enqueue(_ context.Context, task string, payload any, _ ...jobs.Option) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.tasks = append(e.tasks, fmt.Sprintf("%s %v", task, payload))
	return nil
}

type harness struct {
	*httpxtest.Harness
	t        *testing.T
	engine   string
	db       *db.DB
	svc      *app.Service
	clock    *clock.Fake
	payments *fakePayments
	orders   *fakeOrders
	mail     *fakeNotifier
	queue    *enqueued
	repo     *subspg.Repository
	sub      *subsevents.Subscriber
	jobs     *subsjobs.Jobs
	settings app.Settings
}

var t0 = time.Date(2026, 1, 31, 9, 0, 0, 0, time.UTC)

func newFakePayments() *fakePayments {
	return &fakePayments{byKey: map[string]ports.ChargeResult{}, charges: map[string]int{}}
}

func newFakeOrders() *fakeOrders {
	return &fakeOrders{owners: map[string]string{order1: customer1, order2: customer2}, created: map[string]ports.OrderDraft{}}
}

func newHarness(t *testing.T, engine string) *harness {
	t.Helper()
	return harnessOn(t, httpxtest.NewEnv(t, engine, t0, subscriptions.Migrations()), newFakePayments(), newFakeOrders())
}

// harnessOn builds a service (one "process") on the env's database and clock, with the
// payments and the orders given.
func harnessOn(t *testing.T, env *httpxtest.Env, pay *fakePayments, ord *fakeOrders) *harness {
	t.Helper()
	settings := app.SettingsFrom(&env.Config)
	repo := subspg.NewRepository(env.DB)
	mail, queue := &fakeNotifier{}, &enqueued{}
	svc := newService(env, repo, settings, pay, ord, mail, queue)
	sub := subsevents.NewSubscriber(svc, zap.NewNop())
	j := subsjobs.NewJobs(svc, settings, zap.NewNop())
	mod := subscriptions.NewModule(svc, subshttp.NewHandler(svc), sub, j)
	return &harness{Harness: env.Serve(principals, docs, mod), t: t, engine: env.Engine, db: env.DB, svc: svc, clock: env.Clock,
		payments: pay, orders: ord, mail: mail, queue: queue, repo: repo, sub: sub, jobs: j, settings: settings}
}

// newService is the module's service on the env's database and clock with fakes of
// the other modules and of the jobs queue.
func newService(env *httpxtest.Env, repo *subspg.Repository, settings app.Settings, pay *fakePayments, ord *fakeOrders,
	mail *fakeNotifier, queue *enqueued) *app.Service {
	return app.NewService(env.DB, repo, app.Modules{Payments: pay, Orders: ord, Catalog: fakeCatalog{}, Customers: fakeCustomers{}, Notifier: mail},
		env.Outbox(), queue, env.Clock, settings, zap.NewNop())
}

// process is another process of the module on the harness's database and clock, with
// its payments and orders.
func (h *harness) process(t *testing.T) *harness {
	t.Helper()
	env := &httpxtest.Env{T: t, Engine: h.engine, DB: h.db, Config: config.Default(), Clock: h.clock}
	return harnessOn(t, env, h.payments, h.orders)
}

// eachEngine runs fn on a fresh harness per engine, in parallel.
func eachEngine(t *testing.T, fn func(t *testing.T, h *harness)) {
	t.Helper()
	httpxtest.EachEngine(t, newHarness, fn)
}

var docs = httpxtest.Docs(func() *subscriptions.Module {
	return subscriptions.NewModule(nil, nil, &subsevents.Subscriber{}, nil)
})

// bill runs the billing sweep once.
func (h *harness) bill() {
	h.t.Helper()
	if _, err := h.svc.BillDue(context.Background()); err != nil {
		h.t.Fatalf("BillDue: %v", err)
	}
}

// advance moves the clock on and runs the sweep.
func (h *harness) advance(d time.Duration) {
	h.t.Helper()
	h.clock.Advance(d)
	h.bill()
}

func body(extra map[string]any) map[string]any {
	return httpxtest.Override(map[string]any{
		"customer_id": customer1, "order_id": order1, "product_id": product1, "interval": "monthly", "interval_count": 1,
		"currency": "USD", "amount": "19.99", "payment_method_id": cardOK, "gateway": "test",
	}, extra)
}

// create creates a subscription as the caller and returns its resource.
func (h *harness) create(as string, extra map[string]any) map[string]any {
	h.t.Helper()
	r := h.Must(201, "POST", "/api/v1/subscriptions", body(extra), as)
	if r.Body["success"] != true {
		h.t.Fatalf("create answered %v", r.Body)
	}
	return r.Body["subscription"].(map[string]any)
}

func (h *harness) get(id string) map[string]any {
	h.t.Helper()
	return h.Must(200, "GET", "/api/v1/subscriptions/"+id, nil, "admin").Body["subscription"].(map[string]any)
}

func (h *harness) invoices(id string) []map[string]any {
	h.t.Helper()
	return httpxtest.Objects(h.Must(200, "GET", "/api/v1/subscriptions/"+id+"/invoices", nil, "admin").Body["invoices"])
}
