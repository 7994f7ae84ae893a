package orders_test

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"go.uber.org/zap"

	catalog "github.com/gocommerce/commerce/modules/catalog/api"
	"github.com/gocommerce/commerce/modules/catalog/api/catalogtest"
	customers "github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/modules/orders"
	ordersevents "github.com/gocommerce/commerce/modules/orders/adapters/events"
	ordershttp "github.com/gocommerce/commerce/modules/orders/adapters/http"
	"github.com/gocommerce/commerce/modules/orders/app"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/ids"
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

// principals: fixed API keys and staff, and "cust:<id>" for a customer token with the
// default customer scopes ("custw:<id>" also holds orders:write).
var principals = httpxtest.Principals{
	"admin":       httpxtest.APIKey("AdMiN123", "admin"),
	"staff":       httpxtest.Staff("s1", "staff@example.com"),
	"ordersadmin": httpxtest.APIKey("OrDaDm12", "orders:admin"),
	"writer":      httpxtest.APIKey("WrItEr12", "orders:write"),
	"reader":      httpxtest.APIKey("ReAdEr12", "orders:read"),
	"products":    httpxtest.APIKey("PrOdUc12", "products:write"),
	"cust:":       httpxtest.Customer("", "x@example.com"),
	"custw:":      httpxtest.Customer("", "", "orders:write"),
}

// harness is the orders module on a fresh database with fake collaborators.
type harness struct {
	*httpxtest.Harness
	t         *testing.T
	engine    string
	db        *db.DB
	svc       *app.Service
	queries   *app.QueryService
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
	env := httpxtest.NewEnv(t, engine, t0, orders.Migrations(), testTables)
	clk := env.Clock
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
	inv := &fakeInventory{db: env.DB}
	inv.put(prodShirt, varShirtS, 10, "deny")
	inv.put(prodShirt, varShirtM, 1, "deny")
	inv.put(prodMug, varMug, 5, "deny")
	pay := newFakePayments()
	cus := &fakeCustomers{}
	cus.put(customers.Customer{ID: custAda, Email: adaEmail, Phone: "+4930123", FirstName: "Ada"})
	cus.put(customers.Customer{ID: custBob, Email: bobEmail, FirstName: "Bob"})

	stores := orders.NewStores(env.DB)
	settings := orders.NewSettings(&env.Config)
	others := orders.NewCollaborators(cat, inv, pay, cus, nil)
	others.Coupons = nil // no coupons module: discount codes are not recorded as coupon uses
	svc := app.NewService(settings, env.DB, stores, others, env.Outbox(), clk)
	queries := app.NewQueryService(settings, env.DB, stores, clk)
	sub := ordersevents.NewSubscriber(svc, zap.NewNop())
	return &harness{Harness: env.Serve(principals, docs, orders.NewModule(ordershttp.NewHandler(svc, queries), sub)), t: t, engine: engine, db: env.DB,
		svc: svc, queries: queries, catalog: cat, inventory: inv, payments: pay, customers: cus, clock: clk, sub: sub}
}

// eachEngine runs fn on a fresh harness per engine, in parallel.
func eachEngine(t *testing.T, fn func(t *testing.T, h *harness)) {
	httpxtest.EachEngine(t, newHarness, fn)
}

var assertError = httpxtest.AssertError

// expectError sends a request and checks the error envelope.
func (h *harness) expectError(status int, code any, category, method, path string, body any, cred string) httpxtest.Response {
	h.t.Helper()
	r := h.Do(method, path, body, cred)
	assertError(h.t, r, status, code, category)
	return r
}

// create creates an order as the admin key and returns it.
func (h *harness) create(body map[string]any) map[string]any {
	h.t.Helper()
	return h.Must(http.StatusCreated, http.MethodPost, "/api/v1/orders", body, "admin").Data()
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
	case "payment.created", "payment.succeeded", "payment.failed", "payment.canceled":
		// the wired bus delivers payment events to orders in relay batches
		herr = h.sub.HandlePayments(context.Background(), []event.Event{ev})
	case "refund.succeeded", "refund.failed":
		herr = h.sub.HandleRefund(context.Background(), ev)
	default:
		herr = h.sub.HandlePayment(context.Background(), ev)
	}
	if herr != nil {
		h.t.Fatal(herr)
	}
}

// expectLevels checks the fake inventory's levels of variants.
func (h *harness) expectLevels(what string, want map[string]int) {
	h.T.Helper()
	got := map[string]int{}
	for v := range want {
		got[v] = h.inventory.level(v)
	}
	if !maps.Equal(got, want) {
		h.T.Fatalf("%s: levels %v, want %v", what, got, want)
	}
}

// reopen reopens an order as admin.
func (h *harness) reopen(id string) {
	h.Must(http.StatusOK, http.MethodPost, "/api/v1/orders/"+id+"/reopen", nil, "admin")
}

// cancelRestocking cancels an order as admin, restocking what it claimed.
func (h *harness) cancelRestocking(id string) {
	h.Must(http.StatusOK, http.MethodPost, "/api/v1/orders/"+id+"/cancel", map[string]any{"restock": true}, "admin")
}

func (h *harness) get(id string) map[string]any {
	h.t.Helper()
	return h.Must(http.StatusOK, http.MethodGet, "/api/v1/orders/"+id+"?include=fulfillments,refunds,transactions", nil, "admin").Data()
}

func items(m map[string]any, key string) []map[string]any { return httpxtest.Objects(m[key]) }

// docs checks every response against the module's OpenAPI fragment: each answer the
// tests provoke must be documented with its status and match its schema.
var docs = httpxtest.Docs(func() *orders.Module { return orders.NewModule(nil, nil) })
