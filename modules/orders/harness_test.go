package orders_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"go.uber.org/zap"

	catalog "github.com/gocommerce/commerce/modules/catalog/api"
	"github.com/gocommerce/commerce/modules/catalog/api/catalogtest"
	customers "github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/modules/orders"
	"github.com/gocommerce/commerce/modules/orders/adapters/catalogapi"
	"github.com/gocommerce/commerce/modules/orders/adapters/customersapi"
	ordersevents "github.com/gocommerce/commerce/modules/orders/adapters/events"
	ordershttp "github.com/gocommerce/commerce/modules/orders/adapters/http"
	"github.com/gocommerce/commerce/modules/orders/adapters/inventoryapi"
	"github.com/gocommerce/commerce/modules/orders/adapters/paymentsapi"
	orderspg "github.com/gocommerce/commerce/modules/orders/adapters/postgres"
	"github.com/gocommerce/commerce/modules/orders/app"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/auth"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/openapi"
	"github.com/gocommerce/commerce/platform/testdb"
)

// Fixed ids of the test catalog and customers.
const (
	prodShirt  = "00000000-0000-4000-8000-00000000a001" // explicit variants S and M, 19.99, 200 g
	varShirtS  = "00000000-0000-4000-8000-00000000b001"
	varShirtM  = "00000000-0000-4000-8000-00000000b002"
	prodMug    = "00000000-0000-4000-8000-00000000a002" // default variant only, 8.50, 1 lb
	varMug     = "00000000-0000-4000-8000-00000000b003"
	prodEbook  = "00000000-0000-4000-8000-00000000a003" // untracked, not shipped, not taxable, 5.00
	varEbook   = "00000000-0000-4000-8000-00000000b004"
	prodYen    = "00000000-0000-4000-8000-00000000a004" // priced in JPY
	varYen     = "00000000-0000-4000-8000-00000000b005"
	custAda    = "00000000-0000-4000-8000-00000000c001"
	custBob    = "00000000-0000-4000-8000-00000000c002"
	unknownID  = "00000000-0000-4000-8000-00000000ffff"
	adaEmail   = "ada@example.com"
	bobEmail   = "bob@example.com"
	guestEmail = "guest@example.com"
)

// fakeAuth maps bearer credentials to principals: fixed API keys and staff, and
// "cust:<id>" for a customer token with the default customer scopes ("custw:<id>" also
// holds orders:write).
type fakeAuth struct{ customerScopes []string }

func (f fakeAuth) Authenticate(_ context.Context, cred, _ string) (*auth.Principal, error) {
	switch cred {
	case "admin":
		return &auth.Principal{Kind: auth.APIKey, ID: "k1", KeyPrefix: "AdMiN123", Scopes: []string{"admin"}}, nil
	case "staff":
		return &auth.Principal{Kind: auth.Staff, ID: "s1", Email: "staff@example.com", Scopes: []string{"admin"}}, nil
	case "ordersadmin":
		return &auth.Principal{Kind: auth.APIKey, ID: "k2", KeyPrefix: "OrDaDm12", Scopes: []string{"orders:admin"}}, nil
	case "writer":
		return &auth.Principal{Kind: auth.APIKey, ID: "k3", KeyPrefix: "WrItEr12", Scopes: []string{"orders:write"}}, nil
	case "reader":
		return &auth.Principal{Kind: auth.APIKey, ID: "k4", KeyPrefix: "ReAdEr12", Scopes: []string{"orders:read"}}, nil
	case "products":
		return &auth.Principal{Kind: auth.APIKey, ID: "k5", KeyPrefix: "PrOdUc12", Scopes: []string{"products:write"}}, nil
	}
	if id, ok := strings.CutPrefix(cred, "cust:"); ok {
		return &auth.Principal{Kind: auth.Customer, ID: id, Email: "x@example.com", Scopes: f.customerScopes}, nil
	}
	if id, ok := strings.CutPrefix(cred, "custw:"); ok {
		return &auth.Principal{Kind: auth.Customer, ID: id, Scopes: append([]string{"orders:write"}, f.customerScopes...)}, nil
	}
	return nil, apperr.Unauthorized("Unauthorized: Invalid token")
}

type harness struct {
	t         *testing.T
	engine    string
	db        *db.DB
	svc       *app.Service
	queries   *app.QueryService
	srv       http.Handler
	catalog   *catalogtest.Fake
	inventory *fakeInventory
	payments  *fakePayments
	customers *fakeCustomers
	clock     *clock.Fake
	sub       *ordersevents.Subscriber
}

var t0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func newHarness(t *testing.T, engine string) *harness {
	t.Helper()
	e := testdb.Open(t, engine, events.Migrations(), orders.Migrations())
	if err := e.DB.Gorm().AutoMigrate(&stockRow{}); err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	clk := clock.NewFake(t0)
	cat := catalogtest.New()
	cat.Put(catalog.Product{
		ID: prodShirt, Title: "Shirt", Status: catalog.StatusActive, Currency: "USD", Price: d("19.99"), Taxable: true, RequiresShipping: true,
		InventoryPolicy: "deny", InventoryManagement: catalog.InventoryManagementCommerce,
		Variants: []catalog.Variant{
			{ID: varShirtS, ProductID: prodShirt, Title: "S", SKU: "SHIRT-S", Price: d("19.99"), Weight: d("200"), WeightUnit: "g", RequiresShipping: true, InventoryPolicy: "deny"},
			{ID: varShirtM, ProductID: prodShirt, Title: "M", SKU: "SHIRT-M", Price: d("21.99"), Weight: d("0.25"), WeightUnit: "kg", RequiresShipping: true, InventoryPolicy: "deny"},
		},
	})
	cat.Put(catalog.Product{
		ID: prodMug, Title: "Mug", Status: catalog.StatusActive, Currency: "USD", Price: d("8.5"), Taxable: true, RequiresShipping: true,
		InventoryPolicy: "deny", InventoryManagement: catalog.InventoryManagementCommerce,
		Variants: []catalog.Variant{{ID: varMug, ProductID: prodMug, Title: "Default Title", SKU: "MUG", Price: d("8.5"), Weight: d("1"), WeightUnit: "lb", RequiresShipping: true, IsDefault: true, InventoryPolicy: "deny"}},
	})
	cat.Put(catalog.Product{
		ID: prodEbook, Title: "E-book", Status: catalog.StatusActive, Currency: "USD", Price: d("5"), Taxable: false, RequiresShipping: false,
		InventoryPolicy: "deny",
		Variants:        []catalog.Variant{{ID: varEbook, ProductID: prodEbook, Title: "Default Title", Price: d("5"), Weight: d("0"), WeightUnit: "kg", IsDefault: true}},
	})
	cat.Put(catalog.Product{
		ID: prodYen, Title: "Tea", Status: catalog.StatusActive, Currency: "JPY", Price: d("1200"), Taxable: true, RequiresShipping: true,
		Variants: []catalog.Variant{{ID: varYen, ProductID: prodYen, Title: "Default Title", Price: d("1200"), Weight: d("100"), WeightUnit: "g", IsDefault: true}},
	})
	inv := &fakeInventory{db: e.DB}
	inv.put(prodShirt, varShirtS, 10, "deny")
	inv.put(prodShirt, varShirtM, 1, "deny")
	inv.put(prodMug, varMug, 5, "deny")
	pay := newFakePayments()
	cus := &fakeCustomers{byID: map[string]customers.Customer{}}
	cus.put(customers.Customer{ID: custAda, Email: adaEmail, Phone: "+4930123", FirstName: "Ada"})
	cus.put(customers.Customer{ID: custBob, Email: bobEmail, FirstName: "Bob"})

	stores := app.Stores{Orders: orderspg.NewOrderRepository(e.DB), Notes: orderspg.NewNoteRepository(e.DB)}
	settings := orders.NewSettings(&cfg)
	others := app.Collaborators{
		Catalog: catalogapi.NewAdapter(cat), Inventory: inventoryapi.NewAdapter(inv),
		Payments: paymentsapi.NewAdapter(pay), Customers: customersapi.NewAdapter(cus),
	}
	pub := events.NewOutbox(e.DB)
	svc := app.NewService(settings, e.DB, stores, others, pub, clk)
	queries := app.NewQueryService(settings, e.DB, stores, clk)
	sub := ordersevents.NewSubscriber(svc, zap.NewNop())
	srv, err := httpx.NewServer(&cfg, zap.NewNop(), fakeAuth{customerScopes: cfg.Security.CustomerScopes}, nil, nil, nil,
		[]httpx.Module{orders.NewModule(ordershttp.NewHandler(svc, queries), sub)})
	if err != nil {
		t.Fatal(err)
	}
	return &harness{t: t, engine: engine, db: e.DB, svc: svc, queries: queries, srv: docs.Wrap(t, srv), catalog: cat, inventory: inv, payments: pay, customers: cus, clock: clk, sub: sub}
}

// eachEngine runs fn on a fresh harness per engine, in parallel.
func eachEngine(t *testing.T, fn func(t *testing.T, h *harness)) {
	t.Helper()
	for _, engine := range testdb.Engines() {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			fn(t, newHarness(t, engine))
		})
	}
}

type response httpxtest.Response

func (r response) data() map[string]any { return httpxtest.Response(r).Data() }

func (r response) list() []map[string]any { return httpxtest.Response(r).List() }

func (r response) pagination() map[string]any { return httpxtest.Response(r).Pagination() }

func (r response) err() map[string]any { return httpxtest.Response(r).Err() }

// do sends a request; body is JSON-encoded unless it is a string (sent raw).
func (h *harness) do(method, path string, body any, cred string) response {
	h.t.Helper()
	return response(httpxtest.Do(h.t, h.srv, method, path, body, cred))
}

// must sends a request and fails unless the status matches.
func (h *harness) must(status int, method, path string, body any, cred string) response {
	h.t.Helper()
	return response(httpxtest.Must(h.t, h.srv, status, method, path, body, cred))
}

// assertError checks the envelope: status, code (spec string or the status), category
// and a request id.
func assertError(t *testing.T, r response, status int, code any, category string) {
	t.Helper()
	httpxtest.AssertError(t, httpxtest.Response(r), status, code, category)
	httpxtest.AssertRequestID(t, httpxtest.Response(r))
}

// expectError sends a request and checks the error envelope.
func (h *harness) expectError(status int, code any, category, method, path string, body any, cred string) response {
	h.t.Helper()
	r := h.do(method, path, body, cred)
	assertError(h.t, r, status, code, category)
	return r
}

func fields(r response) map[string]any { return httpxtest.Response(r).Fields() }

type outboxEvent struct {
	Type        string
	AggregateID string
	Payload     string
}

// events returns the outbox events of a type (all types when empty), oldest first.
func (h *harness) events(eventType string) []outboxEvent {
	h.t.Helper()
	q := h.db.Gorm().Table("outbox_events").Select("type", "aggregate_id", "payload").Order("occurred_at, id")
	if eventType != "" {
		q = q.Where("type = ?", eventType)
	}
	var rows []outboxEvent
	if err := q.Find(&rows).Error; err != nil {
		h.t.Fatal(err)
	}
	return rows
}

// eventsFor returns the decoded payloads of a type for one order.
func (h *harness) eventsFor(eventType, orderID string) []map[string]any {
	h.t.Helper()
	var out []map[string]any
	for _, e := range h.events(eventType) {
		if e.AggregateID != orderID {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(e.Payload), &m); err != nil {
			h.t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

// lastEvent returns the latest payload of a type for an order, failing when none.
func (h *harness) lastEvent(eventType, orderID string) map[string]any {
	h.t.Helper()
	evs := h.eventsFor(eventType, orderID)
	if len(evs) == 0 {
		h.t.Fatalf("no %s event for %s", eventType, orderID)
	}
	return evs[len(evs)-1]
}

func (h *harness) count(table, where string, args ...any) int64 {
	h.t.Helper()
	var n int64
	if err := h.db.Gorm().Table(table).Where(where, args...).Count(&n).Error; err != nil {
		h.t.Fatal(err)
	}
	return n
}

// create creates an order as the admin key and returns it.
func (h *harness) create(body map[string]any) map[string]any {
	h.t.Helper()
	return h.must(http.StatusCreated, http.MethodPost, "/api/v1/orders", body, "admin").data()
}

// simple creates a guest order of n mugs (8.50 each) with 5.00 shipping.
func (h *harness) simple(n int, extra map[string]any) map[string]any {
	h.t.Helper()
	body := map[string]any{
		"email":          guestEmail,
		"line_items":     []any{map[string]any{"product_id": prodMug, "quantity": n}},
		"shipping_lines": []any{map[string]any{"title": "Standard", "price": "5.00"}},
	}
	for k, v := range extra {
		body[k] = v
	}
	return h.create(body)
}

// pay feeds a payment.succeeded event for the order through the subscriber.
func (h *harness) pay(orderID, paymentID, amount string) {
	h.t.Helper()
	h.paymentEvent("payment.succeeded", map[string]any{"payment_id": paymentID, "status": "succeeded", "amount": amount, "currency": "USD", "gateway": "test", "order_id": orderID})
}

func (h *harness) paymentEvent(eventType string, data map[string]any) {
	h.t.Helper()
	raw, err := json.Marshal(data)
	if err != nil {
		h.t.Fatal(err)
	}
	ev := event.Event{ID: "evt_" + ids.New(), Type: eventType, Data: raw}
	var herr error
	switch eventType {
	case "payment.created":
		herr = h.sub.HandlePaymentCreated(context.Background(), ev)
	case "refund.succeeded", "refund.failed":
		herr = h.sub.HandleRefund(context.Background(), ev)
	default:
		herr = h.sub.HandlePayment(context.Background(), ev)
	}
	if herr != nil {
		h.t.Fatal(herr)
	}
}

func (h *harness) get(id string) map[string]any {
	h.t.Helper()
	return h.must(http.StatusOK, http.MethodGet, "/api/v1/orders/"+id+"?include=fulfillments,refunds,transactions", nil, "admin").data()
}

func keys(m map[string]any) string { return httpxtest.Keys(m) }

func items(m map[string]any, key string) []map[string]any { return httpxtest.Objects(m[key]) }

// docs checks every response against the module's OpenAPI fragment: each answer the
// tests provoke must be documented with its status and match its schema.
var docs = httpxtest.NewValidator(func() openapi.Fragment { return orders.NewModule(nil, nil).OpenAPI() })
