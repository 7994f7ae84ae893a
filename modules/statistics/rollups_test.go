package statistics_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	orders "github.com/gocommerce/commerce/modules/orders/api"
)

type cell struct {
	orders, items             int64
	gross, discounts, refunds string
}

// TestRollupsMatchRecomputation: after creates, refunds (partial and full),
// cancellations, shipments and closes, and again after every event is replayed (the
// old versions, which must change nothing, and the latest twice), the daily and the
// product rollups equal a full recomputation from the orders' final states.
func TestRollupsMatchRecomputation(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, h *harness) {
		st := h.seedStore(7, 160)
		h.checkRollups(st)
		r := rand.New(rand.NewPCG(1, 2))
		for _, i := range r.Perm(len(st.orders)) {
			o := st.orders[i]
			h.send(orders.EventOrderUpdated, olderVersion(o))
			h.send(orders.EventOrderUpdated, o)
			h.send(orders.EventOrderUpdated, o)
		}
		h.checkRollups(st)
		// a later cancellation of a refunded order leaves it out of the sales rollups
		o := st.orders[5]
		o.Status, o.UpdatedAt = "cancelled", o.UpdatedAt.Add(time.Minute)
		h.send(orders.EventOrderCancelled, orders.OrderCancelled{Order: o})
		st.orders[5] = o
		h.checkRollups(st)
		// the full recomputation of the module (Rebuild, the bench's seeding) agrees
		if err := h.svc.Rebuild(t.Context()); err != nil {
			t.Fatal(err)
		}
		h.checkRollups(st)
	})
}

// A relay batch of order events (decision 0231) records what its events one by one
// would: a store whose order events came in batches of 1 to 40 (an order's creation,
// updates, cancellation and close often in one batch), then again with every event
// replayed in batches (the latest twice, then an older version), has the daily,
// product and customer figures of a full recomputation from the orders' final states.
func TestOrderBatchesMatchRecomputation(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, h *harness) {
		r := rand.New(rand.NewPCG(3, 4))
		h.batching = true
		st := h.seedStore(11, 160)
		h.flush(r)
		h.checkRollups(st)
		for _, i := range r.Perm(len(st.orders)) {
			o := st.orders[i]
			h.send(orders.EventOrderUpdated, o)
			h.send(orders.EventOrderUpdated, o)
			h.send(orders.EventOrderUpdated, olderVersion(o)) // older than the record: changes nothing
		}
		h.flush(r)
		h.checkRollups(st)
		// a cancellation and a reopening of the same order in one batch
		o := st.orders[5]
		o.Status, o.UpdatedAt = "cancelled", o.UpdatedAt.Add(time.Minute)
		h.send(orders.EventOrderCancelled, orders.OrderCancelled{Order: o})
		st.orders[5] = o
		o.Status, o.UpdatedAt = "open", o.UpdatedAt.Add(time.Minute)
		h.send(orders.EventOrderReopened, o)
		st.orders[5] = o
		h.flush(rand.New(rand.NewPCG(5, 6)))
		h.checkRollups(st)
	})
}

// olderVersion is o as an event before its creation's would show it: open, unpaid,
// unfulfilled, nothing refunded.
func olderVersion(o orders.Order) orders.Order {
	o.Status, o.FinancialStatus, o.FulfillmentStatus, o.TotalRefunded = "open", "pending", "unfulfilled", "0.00"
	o.UpdatedAt = o.CreatedAt.Add(-time.Second)
	return o
}

func (h *harness) checkRollups(st *store) {
	h.T.Helper()
	h.checkCustomerTotals(st)
	want := map[string]cell{}
	wantProducts := map[string][3]int64{}
	wantRevenue := map[string]decimal.Decimal{}
	for _, o := range st.orders {
		day := o.CreatedAt.In(h.loc).Format(time.DateOnly)
		k := fmt.Sprintf("%s|%s|%s|%s|%s|%s|%s", day, o.Currency, o.SourceName, gateway(o), expStatus(o), expFulfillment(o), o.ShippingAddress.Country)
		c := want[k]
		c.orders++
		var items int64
		for _, l := range o.LineItems {
			items += int64(l.Quantity)
		}
		c.items += items
		c.gross = dec(c.gross).Add(dec(o.TotalPrice)).StringFixed(4)
		c.discounts = dec(c.discounts).Add(dec(o.TotalDiscounts)).StringFixed(4)
		c.refunds = dec(c.refunds).Add(dec(o.TotalRefunded)).StringFixed(4)
		want[k] = c
		if o.Status == "cancelled" {
			continue
		}
		seen := map[string]bool{}
		for _, l := range o.LineItems {
			pk := fmt.Sprintf("%s|%s|%s|%s", day, o.Currency, l.ProductID, l.VariantID)
			p := wantProducts[pk]
			if !seen[pk] {
				p[0]++
				seen[pk] = true
			}
			p[1] += int64(l.Quantity)
			p[2] += int64(l.RefundedQuantity)
			wantProducts[pk] = p
			wantRevenue[pk] = wantRevenue[pk].Add(dec(l.Price).Mul(decimal.NewFromInt(int64(l.Quantity))))
		}
	}
	got := map[string]cell{}
	var day, cur, ch, pm, status, ful, country string
	var c cell
	var gross, disc, ref int64
	err := h.DB.Query(h.T.Context(), `SELECT day, currency, channel, payment_method, status, fulfillment, country, orders, items,
		gross, discounts, refunded FROM statistics_daily`, nil,
		[]any{&day, &cur, &ch, &pm, &status, &ful, &country, &c.orders, &c.items, &gross, &disc, &ref}, func() error {
			c.gross, c.discounts, c.refunds = units(gross), units(disc), units(ref)
			got[fmt.Sprintf("%s|%s|%s|%s|%s|%s|%s", day, cur, ch, pm, status, ful, country)] = c
			return nil
		})
	if err != nil {
		h.T.Fatal(err)
	}
	compareCells(h.T, "daily", got, want)
	h.checkProductRollup("product", "statistics_product_daily", "day", wantProducts, wantRevenue)
	// the monthly product rollup: the same cells per month (YYYY-MM)
	wantMonthly := map[string][3]int64{}
	wantMonthlyRevenue := map[string]decimal.Decimal{}
	for k, w := range wantProducts {
		mk := k[:7] + k[10:]
		m := wantMonthly[mk]
		for i := range m {
			m[i] += w[i]
		}
		wantMonthly[mk] = m
		wantMonthlyRevenue[mk] = wantMonthlyRevenue[mk].Add(wantRevenue[k])
	}
	h.checkProductRollup("monthly product", "statistics_product_monthly", "month", wantMonthly, wantMonthlyRevenue)
}

// checkProductRollup compares a product rollup table, whose date column is dateCol,
// with the recomputation: its cells' orders, quantity and refunded quantity, and their
// revenue.
func (h *harness) checkProductRollup(what, table, dateCol string, want map[string][3]int64, wantRevenue map[string]decimal.Decimal) {
	h.T.Helper()
	got := map[string][3]int64{}
	var date, cur, pid, vid string
	var n, q, rq, rev int64
	err := h.DB.Query(h.T.Context(), `SELECT `+dateCol+`, currency, product_id, variant_id, orders, quantity, refunded_quantity, revenue
		FROM `+table, nil, []any{&date, &cur, &pid, &vid, &n, &q, &rq, &rev}, func() error {
		k := fmt.Sprintf("%s|%s|%s|%s", date, cur, pid, vid)
		got[k] = [3]int64{n, q, rq}
		if units(rev) != wantRevenue[k].StringFixed(4) {
			h.T.Errorf("%s %s: revenue %s, recomputation %s", what, k, units(rev), wantRevenue[k].StringFixed(4))
		}
		return nil
	})
	if err != nil {
		h.T.Fatal(err)
	}
	compareCells(h.T, what, got, want)
}

// compareCells compares a rollup's cells with the recomputation's.
func compareCells[V comparable](t testing.TB, what string, got, want map[string]V) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s rollup has %d cells, recomputation %d", what, len(got), len(want))
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s %s: rollup %+v, recomputation %+v", what, k, got[k], w)
		}
	}
}

// checkCustomerTotals compares the customer totals with the orders'.
func (h *harness) checkCustomerTotals(st *store) {
	h.T.Helper()
	for _, cur := range []string{"USD", "EUR"} {
		want := st.customerTotals(cur, h.loc)
		got := map[string]string{}
		var id, channel, firstDay string
		var n, spent int64
		err := h.DB.Query(h.T.Context(), h.DB.Rebind(`SELECT customer_id, orders, spent, first_day, first_channel
			FROM statistics_customer_totals WHERE currency = ?`), []any{cur}, []any{&id, &n, &spent, &firstDay, &channel}, func() error {
			got[id] = fmt.Sprintf("%d %s %s %s", n, units(spent), firstDay, channel)
			return nil
		})
		if err != nil {
			h.T.Fatal(err)
		}
		if len(got) != len(want) {
			h.T.Errorf("%s: %d customer totals, want %d", cur, len(got), len(want))
		}
		for id, c := range want {
			if w := fmt.Sprintf("%d %s %s %s", c.orders, c.spent.StringFixed(4), c.firstDay, c.firstChannel); got[id] != w {
				h.T.Errorf("%s %s: totals %q, want %q", cur, id, got[id], w)
			}
		}
	}
}

func units(v int64) string { return decimal.New(v, -4).StringFixed(4) }
