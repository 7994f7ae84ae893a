package statistics_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"go.uber.org/zap"

	catalog "github.com/gocommerce/commerce/modules/catalog/api"
	customers "github.com/gocommerce/commerce/modules/customers/api"
	orders "github.com/gocommerce/commerce/modules/orders/api"
	"github.com/gocommerce/commerce/modules/statistics"
	statsevents "github.com/gocommerce/commerce/modules/statistics/adapters/events"
	statshttp "github.com/gocommerce/commerce/modules/statistics/adapters/http"
	statspg "github.com/gocommerce/commerce/modules/statistics/adapters/postgres"
	"github.com/gocommerce/commerce/modules/statistics/app"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/httpxtest"
)

var principals = httpxtest.Principals{
	"admin":     httpxtest.APIKey("k1", "admin"),
	"stats":     httpxtest.APIKey("k2", "statistics:read"),
	"statsadm":  httpxtest.APIKey("k3", "statistics:admin"),
	"readall":   httpxtest.APIKey("k4", "read"),
	"products":  httpxtest.APIKey("k5", "products:read"),
	"orders":    httpxtest.APIKey("k6", "orders:admin"),
	"customer":  httpxtest.Customer("0190a000-0000-7000-8000-0000000000c1", ""),
	"staffuser": httpxtest.Staff("s1", ""),
}

// now is the harness's instant: Wednesday 17 June 2026, 15:00 UTC.
var now = time.Date(2026, 6, 17, 15, 0, 0, 0, time.UTC)

type harness struct {
	*httpxtest.Harness
	svc   *app.Service
	sub   *statsevents.Subscriber
	clock *clock.Fake
	loc   *time.Location
	// batching holds the order events back (pending) until flush hands them to the
	// subscriber's batch handler, as a relay batch would.
	batching bool
	pending  []event.Event
}

var docs = httpxtest.Docs(func() *statistics.Module { return statistics.NewModule(nil, nil, nil) })

func newHarness(t testing.TB, engine string, mutate func(*config.Config)) *harness {
	t.Helper()
	env := httpxtest.NewEnv(t, engine, now, statistics.Migrations())
	if mutate != nil {
		mutate(&env.Config)
	}
	settings := statistics.NewSettings(&env.Config)
	svc := app.NewService(settings, env.DB, statspg.NewRepository(env.DB), env.Clock)
	sub := statsevents.NewSubscriber(svc, zap.NewNop())
	h := env.Serve(principals, docs, statistics.NewModule(statshttp.NewHandler(svc), sub, statistics.NewJobs(svc, settings, zap.NewNop())))
	return &harness{Harness: h, svc: svc, sub: sub, clock: env.Clock, loc: settings.Location}
}

func eachEngine(t *testing.T, mutate func(*config.Config), fn func(t *testing.T, h *harness)) {
	t.Helper()
	httpxtest.EachEngine(t, func(t *testing.T, engine string) *harness { return newHarness(t, engine, mutate) }, fn)
}

// send hands an event to the module's subscriber as the bus would.
func (h *harness) send(typ string, data any) {
	h.T.Helper()
	raw, err := json.Marshal(data)
	if err != nil {
		h.T.Fatal(err)
	}
	e := event.Event{ID: "evt_" + typ, Type: typ, Data: raw}
	var handle func(event.Event) error
	switch {
	case typ == customers.EventCustomerCreated:
		handle = func(e event.Event) error { return h.sub.HandleCustomer(h.T.Context(), e) }
	case typ == customers.EventCustomerDeleted:
		handle = func(e event.Event) error { return h.sub.HandleCustomerDeleted(h.T.Context(), e) }
	case typ == catalog.EventProductDeleted:
		handle = func(e event.Event) error { return h.sub.HandleProductDeleted(h.T.Context(), e) }
	case len(typ) > 8 && typ[:8] == "product.":
		handle = func(e event.Event) error { return h.sub.HandleProduct(h.T.Context(), e) }
	case len(typ) > 13 && typ[:13] == "subscription.":
		handle = func(e event.Event) error { return h.sub.HandleSubscription(h.T.Context(), e) }
	case h.batching:
		h.pending = append(h.pending, e)
		return
	default:
		handle = func(e event.Event) error { return h.sub.HandleOrder(h.T.Context(), e) }
	}
	if err := handle(e); err != nil {
		h.T.Fatal(err)
	}
}

// flush hands the pending order events to the batch handler in batches of 1 to 40,
// in the order they were sent.
func (h *harness) flush(r *rand.Rand) {
	h.T.Helper()
	for len(h.pending) > 0 {
		n := min(1+r.IntN(40), len(h.pending))
		if err := h.sub.HandleOrders(h.T.Context(), h.pending[:n]); err != nil {
			h.T.Fatal(err)
		}
		h.pending = h.pending[n:]
	}
}

// get asks a report as the stats key and wants 200.
func (h *harness) get(path string) map[string]any {
	h.T.Helper()
	return h.As("stats").Must(http.StatusOK, http.MethodGet, "/api/v1/admin/statistics"+path, nil).Data()
}

// ---- the store: products, customers and orders made from a seed ----

type product struct {
	id, variant, title, sku, kind string
	price, cost                   string // cost "" when unknown
	stock, threshold              int
}

var products = []product{
	{"p-mug", "v-mug", "Mug", "MUG-1", "kitchen", "12.50", "4.00", 40, 5},
	{"p-tee", "v-tee", "T-shirt", "TEE-1", "apparel", "25.00", "9.75", 3, 5},
	{"p-cap", "v-cap", "Cap", "CAP-1", "apparel", "18.00", "6.00", 0, 2},
	{"p-pen", "v-pen", "Pen", "PEN-1", "office", "2.35", "", 500, 10},
	{"p-bag", "v-bag", "Bag", "BAG-1", "", "80.00", "31.20", 7, 3},
}

func productResource(p product) catalog.ProductResource {
	managed := "commerce"
	var cost *string
	if p.cost != "" {
		cost = &p.cost
	}
	vs := []catalog.VariantResource{{ID: p.variant, ProductID: p.id, Title: "Default", SKU: p.sku, Price: p.price, CostPrice: cost,
		InventoryQuantity: p.stock, IsDefault: true}}
	return catalog.ProductResource{ID: p.id, Title: p.title, ProductType: p.kind, Price: p.price, CostPrice: cost, Currency: "USD",
		InventoryQuantity: p.stock, InventoryManagement: &managed, LowStockThreshold: p.threshold, Variants: &vs}
}

type customer struct {
	id      string
	created time.Time
}

// store is the known set: what the events said, and each order's final state.
type store struct {
	customers []customer
	orders    []orders.Order       // final states
	shipped   map[string]time.Time // when each shipped order was first shown shipped
}

// seedStore sends products, customers and n orders (created over the last 130 days,
// then some paid, shipped, refunded, cancelled or closed) and answers the final states.
func (h *harness) seedStore(seed uint64, n int) *store {
	h.T.Helper()
	r := rand.New(rand.NewPCG(seed, seed+1))
	for _, p := range products {
		h.send(catalog.EventProductCreated, productResource(p))
	}
	st := &store{shipped: map[string]time.Time{}}
	for i := range 24 {
		c := customer{id: fmt.Sprintf("c-%02d", i), created: now.Add(-time.Duration(r.IntN(150*24)) * time.Hour)}
		st.customers = append(st.customers, c)
		h.send(customers.EventCustomerCreated, customers.Customer{ID: c.id, CreatedAt: c.created})
	}
	for i := range n {
		o := h.newOrder(r, st, i)
		h.send(orders.EventOrderCreated, orders.OrderCreated{Order: o})
		o = h.evolve(r, st, o)
		st.orders = append(st.orders, o)
	}
	return st
}

func (h *harness) newOrder(r *rand.Rand, st *store, i int) orders.Order {
	created := now.Add(-time.Duration(r.IntN(130*24*60)) * time.Minute)
	if i%9 == 0 {
		created = now.Add(-time.Duration(r.IntN(6*60)) * time.Minute) // some today
	}
	cur := "USD"
	if i%7 == 3 {
		cur = "EUR"
	}
	o := orders.Order{ID: fmt.Sprintf("o-%04d", i), Currency: cur, Status: "open", FinancialStatus: "pending",
		FulfillmentStatus: "unfulfilled", SourceName: []string{"web", "pos", "api"}[r.IntN(3)], CreatedAt: created, UpdatedAt: created,
		ProcessedAt: created, ShippingAddress: &orders.Address{Country: []string{"US", "DE", "FR", "US"}[r.IntN(4)]}}
	if r.IntN(5) > 0 {
		c := st.customers[r.IntN(len(st.customers))].id
		o.CustomerID = &c
	}
	sub := decimal.Zero
	for j := range 1 + r.IntN(3) {
		p := products[(i+j*2)%len(products)]
		q := 1 + r.IntN(4)
		price := decimal.RequireFromString(p.price)
		o.LineItems = append(o.LineItems, orders.LineItem{ID: fmt.Sprintf("%s-l%d", o.ID, j), ProductID: p.id, VariantID: p.variant,
			Title: p.title, SKU: p.sku, Quantity: q, Price: p.price, Total: price.Mul(decimal.NewFromInt(int64(q))).StringFixed(2)})
		sub = sub.Add(price.Mul(decimal.NewFromInt(int64(q))))
	}
	disc := decimal.Zero
	if r.IntN(4) == 0 {
		disc = sub.Div(decimal.NewFromInt(10)).Round(2)
	}
	ship := decimal.RequireFromString("4.99")
	o.SubtotalPrice, o.TotalDiscounts = sub.StringFixed(2), disc.StringFixed(2)
	o.TotalShipping = ship.StringFixed(2)
	o.TotalPrice = sub.Sub(disc).Add(ship).StringFixed(2)
	o.TotalRefunded = "0.00"
	if r.IntN(3) > 0 {
		gw := []string{"stripe", "paypal", "test"}[r.IntN(3)]
		o.FinancialStatus = "paid"
		txs := []orders.Transaction{{Kind: "sale", Status: "success", Gateway: gw, Amount: o.TotalPrice}}
		o.Transactions = &txs
	}
	return o
}

// evolve sends the order's later events (each an order.updated or order.cancelled
// with a later updated_at) and answers its final state.
func (h *harness) evolve(r *rand.Rand, st *store, o orders.Order) orders.Order {
	at := o.CreatedAt
	step := func() time.Time {
		at = at.Add(time.Duration(1+r.IntN(40)) * time.Hour)
		if at.After(now) {
			at = now
		}
		return at
	}
	switch r.IntN(6) {
	case 0: // cancelled
		o.Status, o.UpdatedAt = "cancelled", step()
		c := o.UpdatedAt
		o.CancelledAt = &c
		h.send(orders.EventOrderCancelled, orders.OrderCancelled{Order: o})
	case 1, 2: // shipped, maybe closed
		if o.FinancialStatus == "pending" {
			o.FinancialStatus = "paid"
		}
		o.FulfillmentStatus, o.UpdatedAt = "fulfilled", step()
		st.shipped[o.ID] = o.UpdatedAt
		fs := []orders.Fulfillment{{ID: o.ID + "-f", Status: "success", CreatedAt: o.UpdatedAt}}
		o.Fulfillments = &fs
		h.send(orders.EventOrderUpdated, o)
		o.Fulfillments = nil
		if r.IntN(2) == 0 {
			o.Status, o.UpdatedAt = "closed", step()
			c := o.UpdatedAt
			o.ClosedAt = &c
			h.send(orders.EventOrderClosed, o)
		}
	case 3: // refunded in part (one item of the first line), maybe after shipping
		if r.IntN(2) == 0 {
			o.FulfillmentStatus = "partial"
		}
		o.FinancialStatus = "partially_refunded"
		o.LineItems[0].RefundedQuantity = 1
		o.TotalRefunded = o.LineItems[0].Price
		o.UpdatedAt = step()
		if o.FulfillmentStatus == "partial" {
			st.shipped[o.ID] = o.UpdatedAt
		}
		h.send(orders.EventOrderUpdated, o)
	case 4: // refunded in full
		o.FinancialStatus = "refunded"
		for i := range o.LineItems {
			o.LineItems[i].RefundedQuantity = o.LineItems[i].Quantity
		}
		o.TotalRefunded = o.TotalPrice
		o.UpdatedAt = step()
		h.send(orders.EventOrderUpdated, o)
	}
	return o
}

// baseOrder is a paid web order of one 10.00 mug line, created at.
func baseOrder(id string, at time.Time, total string) orders.Order {
	return orders.Order{ID: id, Currency: "USD", Status: "open", FinancialStatus: "paid", FulfillmentStatus: "unfulfilled",
		SourceName: "web", CreatedAt: at, UpdatedAt: at, TotalPrice: total, TotalDiscounts: "0.00", TotalRefunded: "0.00",
		ShippingAddress: &orders.Address{Country: "US"},
		LineItems:       []orders.LineItem{{ID: id + "-l", ProductID: "p-mug", VariantID: "v-mug", Title: "Mug", Quantity: 1, Price: total}}}
}
