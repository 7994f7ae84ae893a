package statistics_test

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"sort"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	catalog "github.com/gocommerce/commerce/modules/catalog/api"
	orders "github.com/gocommerce/commerce/modules/orders/api"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/httpxtest"
)

// presets are the spec's presets on Wednesday 17 June 2026 (weeks Monday to Sunday).
var presets = map[string][2]string{
	"today":        {"2026-06-17", "2026-06-17"},
	"yesterday":    {"2026-06-16", "2026-06-16"},
	"this_week":    {"2026-06-15", "2026-06-21"},
	"last_week":    {"2026-06-08", "2026-06-14"},
	"this_month":   {"2026-06-01", "2026-06-30"},
	"last_month":   {"2026-05-01", "2026-05-31"},
	"last_7_days":  {"2026-06-11", "2026-06-17"},
	"last_30_days": {"2026-05-19", "2026-06-17"},
	"last_90_days": {"2026-03-20", "2026-06-17"},
}

func days(from, to string) int {
	a, _ := time.Parse(time.DateOnly, from)
	b, _ := time.Parse(time.DateOnly, to)
	return int(b.Sub(a).Hours()/24) + 1
}

func shift(day string, n int) string {
	t, _ := time.Parse(time.DateOnly, day)
	return t.AddDate(0, 0, n).Format(time.DateOnly)
}

func num(t testing.TB, v any) float64 {
	t.Helper()
	f, ok := v.(float64)
	if !ok {
		t.Fatalf("%v is not a number", v)
	}
	return f
}

func obj(v any) map[string]any { m, _ := v.(map[string]any); return m }

func near(a, b float64) bool { return math.Abs(a-b) < 0.011 }

// checkChange compares a change member (nil without a base) with the expectation.
func checkChange(t testing.TB, what string, got any, want any) {
	t.Helper()
	if want == nil || got == nil {
		if want != got {
			t.Errorf("%s: change %v, want %v", what, got, want)
		}
		return
	}
	if !near(num(t, got), want.(float64)) {
		t.Errorf("%s: change %v, want %v", what, got, want)
	}
}

// TestDashboardPresets: every preset's period and figures, compared with the period
// before, against the figures computed from the orders.
func TestDashboardPresets(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, h *harness) {
		st := h.seedStore(11, 140)
		totals := st.customerTotals("USD", time.UTC)
		for name, span := range presets {
			d := h.get("/dashboard?currency=USD&date_from=" + name + "&date_to=" + name)
			p := obj(d["period"])
			if p["from"] != span[0] || p["to"] != span[1] || int(num(t, p["days"])) != days(span[0], span[1]) {
				t.Errorf("%s: period %v, want %v", name, p, span)
			}
			n := days(span[0], span[1])
			w := window{from: span[0], to: span[1], cur: "USD", loc: time.UTC}
			prev := window{from: shift(span[0], -n), to: shift(span[0], -1), cur: "USD", loc: time.UTC}
			f, pf := st.figures(w), st.figures(prev)
			sales := obj(d["sales"])
			rev := obj(sales["total_revenue"])
			if rev["amount"] != money(f.revenue) || rev["currency"] != "USD" {
				t.Errorf("%s: total_revenue %v, want %s", name, rev, money(f.revenue))
			}
			checkChange(t, name+" revenue", rev["change_percentage"], change(f.revenue, pf.revenue))
			if rev["change_direction"] != direction(f.revenue, pf.revenue) {
				t.Errorf("%s: revenue direction %v", name, rev["change_direction"])
			}
			cnt := obj(sales["total_orders"])
			if int64(num(t, cnt["count"])) != f.orders {
				t.Errorf("%s: total_orders %v, want %d", name, cnt["count"], f.orders)
			}
			checkChange(t, name+" orders", cnt["change_percentage"], change(decimal.NewFromInt(f.orders), decimal.NewFromInt(pf.orders)))
			aov := obj(sales["average_order_value"])
			if aov["amount"] != money(f.aov()) {
				t.Errorf("%s: aov %v, want %s", name, aov["amount"], money(f.aov()))
			}
			ord := obj(d["orders"])
			for _, k := range []string{"pending", "confirmed", "processing", "completed", "cancelled", "refunded"} {
				if int64(num(t, obj(ord["by_status"])[k])) != f.byStatus[k] {
					t.Errorf("%s: by_status.%s %v, want %d", name, k, obj(ord["by_status"])[k], f.byStatus[k])
				}
			}
			if !near(num(t, ord["fulfillment_rate"]), pct(float64(f.shipped), float64(f.orders))) {
				t.Errorf("%s: fulfillment_rate %v", name, ord["fulfillment_rate"])
			}
			var newC, bought, returning int64
			for _, c := range st.customers {
				day := c.created.Format(time.DateOnly)
				if day >= span[0] && day <= span[1] {
					newC++
					if ct := totals[c.id]; ct != nil && ct.firstDay <= span[1] {
						bought++
					}
				}
			}
			seen := map[string]bool{}
			for _, o := range st.orders {
				if w.has(o) && o.Status != "cancelled" && o.CustomerID != nil && totals[*o.CustomerID].firstDay < span[0] && !seen[*o.CustomerID] {
					seen[*o.CustomerID] = true
					returning++
				}
			}
			cu := obj(d["customers"])
			if int64(num(t, cu["new_customers"])) != newC || int64(num(t, cu["returning_customers"])) != returning ||
				!near(num(t, cu["conversion_rate"]), pct(float64(bought), float64(newC))) {
				t.Errorf("%s: customers %v, want new %d returning %d bought %d", name, cu, newC, returning, bought)
			}
			top := httpxtest.Objects(obj(d["products"])["top_selling"])
			want := st.products(w)
			if len(top) != min(5, len(want)) {
				t.Fatalf("%s: top_selling %d, want %d", name, len(top), min(5, len(want)))
			}
			for i, p := range top {
				if p["product_id"] != want[i].id || p["revenue"] != money(want[i].revenue) || int64(num(t, p["quantity_sold"])) != want[i].sold {
					t.Errorf("%s: top_selling[%d] %v, want %+v", name, i, p, want[i])
				}
			}
			if num(t, obj(d["products"])["low_stock_count"]) != 1 {
				t.Errorf("%s: low_stock_count %v, want 1 (the T-shirt)", name, obj(d["products"])["low_stock_count"])
			}
			subs := obj(d["subscriptions"])
			if subs["mrr"] != "0.00" || subs["active_subscribers"] != float64(0) || subs["churn_rate"] != float64(0) {
				t.Errorf("%s: subscriptions %v, want none", name, subs)
			}
		}
		// the default is today, compared with yesterday; an ISO date range works too
		d := h.get("/dashboard")
		if p := obj(d["period"]); p["from"] != "2026-06-17" || p["to"] != "2026-06-17" || num(t, p["days"]) != 1 {
			t.Errorf("default period %v", p)
		}
		d = h.get("/dashboard?currency=USD&date_from=2026-04-01&date_to=2026-04-30T12:00:00Z&compare_with=previous_year")
		f := st.figures(window{from: "2026-04-01", to: "2026-04-30", cur: "USD", loc: time.UTC})
		if rev := obj(obj(d["sales"])["total_revenue"]); rev["amount"] != money(f.revenue) || rev["change_percentage"] != nil ||
			rev["change_direction"] != direction(f.revenue, decimal.Zero) {
			t.Errorf("april against 2025: %v (want %s, no base)", rev, money(f.revenue))
		}
		d = h.get("/dashboard?currency=USD&date_from=last_30_days&compare_with=none")
		if rev := obj(obj(d["sales"])["total_revenue"]); rev["change_percentage"] != nil || rev["change_direction"] != nil {
			t.Errorf("compare_with none: %v", rev)
		}
		// EUR orders are their own figures, never mixed with USD
		eur := st.figures(window{from: "2026-03-20", to: "2026-06-17", cur: "EUR", loc: time.UTC})
		d = h.get("/dashboard?currency=EUR&date_from=last_90_days&date_to=today")
		if rev := obj(obj(d["sales"])["total_revenue"]); rev["amount"] != money(eur.revenue) || rev["currency"] != "EUR" {
			t.Errorf("EUR revenue %v, want %s", rev, money(eur.revenue))
		}
		// without a currency: the one with the most orders in the period (USD here)
		d = h.get("/dashboard?date_from=last_90_days")
		if obj(obj(d["sales"])["total_revenue"])["currency"] != "USD" {
			t.Errorf("default currency %v", obj(obj(d["sales"])["total_revenue"]))
		}
	})
}

// TestSalesReport: summary, comparison (previous period, previous year, none), the
// time series by day, week and month, channels, payment methods and the groups.
func TestSalesReport(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, h *harness) {
		st := h.seedStore(23, 140)
		for _, tc := range []struct{ query, from, to, compare, period string }{
			{"", "2026-06-01", "2026-06-17", "previous_period", "day"},
			{"?date_from=last_90_days&period=week", "2026-03-20", "2026-06-17", "previous_period", "week"},
			{"?date_from=2026-03-01&date_to=2026-05-31&period=month&compare_with=previous_year", "2026-03-01", "2026-05-31", "previous_year", "month"},
			{"?date_from=last_month&date_to=last_month&compare_with=none", "2026-05-01", "2026-05-31", "none", "day"},
		} {
			sep := "?"
			if tc.query != "" {
				sep = "&"
			}
			d := h.get("/sales" + tc.query + sep + "currency=USD")
			w := window{from: tc.from, to: tc.to, cur: "USD", loc: time.UTC}
			f := st.figures(w)
			sm := obj(d["summary"])
			if sm["total_revenue"] != money(f.revenue) || int64(num(t, sm["total_orders"])) != f.orders ||
				sm["average_order_value"] != money(f.aov()) || sm["total_discounts"] != money(f.discounts) || sm["net_revenue"] != money(f.net) {
				t.Errorf("%s: summary %v, want revenue %s orders %d aov %s discounts %s net %s", tc.query, sm, money(f.revenue), f.orders,
					money(f.aov()), money(f.discounts), money(f.net))
			}
			cmp := obj(d["comparison"])
			var pf figures
			switch tc.compare {
			case "previous_period":
				n := days(tc.from, tc.to)
				pf = st.figures(window{from: shift(tc.from, -n), to: shift(tc.from, -1), cur: "USD", loc: time.UTC})
			case "previous_year":
				pf = st.figures(window{from: "2025-03-01", to: "2025-05-31", cur: "USD", loc: time.UTC})
			}
			if tc.compare == "none" {
				if cmp["revenue_change"] != nil || cmp["orders_change"] != nil || cmp["aov_change"] != nil {
					t.Errorf("%s: comparison %v, want nulls", tc.query, cmp)
				}
			} else {
				checkChange(t, tc.query+" revenue_change", cmp["revenue_change"], change(f.revenue, pf.revenue))
				checkChange(t, tc.query+" orders_change", cmp["orders_change"], change(decimal.NewFromInt(f.orders), decimal.NewFromInt(pf.orders)))
				checkChange(t, tc.query+" aov_change", cmp["aov_change"], change(f.aov(), pf.aov()))
			}
			// the series: one point per bucket, starting at the period's first day, that
			// sum to the summary; each point equals its own window's figures
			series := httpxtest.Objects(d["time_series"])
			var starts []string
			for day := tc.from; day <= tc.to; day = shift(day, 1) {
				t0, _ := time.Parse(time.DateOnly, day)
				if day == tc.from || tc.period == "day" || (tc.period == "week" && t0.Weekday() == time.Monday) || (tc.period == "month" && t0.Day() == 1) {
					starts = append(starts, day)
				}
			}
			if len(series) != len(starts) {
				t.Fatalf("%s: %d points, want %d", tc.query, len(series), len(starts))
			}
			for i, p := range series {
				end := tc.to
				if i+1 < len(starts) {
					end = shift(starts[i+1], -1)
				}
				pf := st.figures(window{from: starts[i], to: end, cur: "USD", loc: time.UTC})
				if p["date"] != starts[i] || p["revenue"] != money(pf.revenue) || int64(num(t, p["orders"])) != pf.orders || p["aov"] != money(pf.aov()) {
					t.Errorf("%s: point %v, want %s %s %d", tc.query, p, starts[i], money(pf.revenue), pf.orders)
				}
			}
			for _, c := range httpxtest.Objects(d["by_channel"]) {
				ch := c["channel"].(string)
				if c["revenue"] != money(f.byChannel[ch]) || int64(num(t, c["orders"])) != f.channelOrders[ch] {
					t.Errorf("%s: channel %v, want %s", tc.query, c, money(f.byChannel[ch]))
				}
				share, _ := f.byChannel[ch].Div(f.revenue).Mul(decimal.NewFromInt(100)).Round(2).Float64()
				if !near(num(t, c["percentage"]), share) {
					t.Errorf("%s: channel %s share %v, want %v", tc.query, ch, c["percentage"], share)
				}
			}
			if len(httpxtest.Objects(d["by_channel"])) != len(f.byChannel) {
				t.Errorf("%s: %d channels, want %d", tc.query, len(httpxtest.Objects(d["by_channel"])), len(f.byChannel))
			}
			for _, m := range httpxtest.Objects(d["by_payment_method"]) {
				if m["revenue"] != money(f.byMethod[m["method"].(string)]) {
					t.Errorf("%s: method %v, want %s", tc.query, m, money(f.byMethod[m["method"].(string)]))
				}
			}
			if len(httpxtest.Objects(d["by_payment_method"])) != len(f.byMethod) {
				t.Errorf("%s: methods %v, want %v", tc.query, d["by_payment_method"], f.byMethod)
			}
		}
		w := window{from: "2026-03-20", to: "2026-06-17", cur: "USD", loc: time.UTC}
		want := st.products(w)
		d := h.get("/sales?currency=USD&date_from=last_90_days&group_by=product")
		byProduct := httpxtest.Objects(d["by_product"])
		if len(byProduct) != len(want) {
			t.Fatalf("by_product %v, want %d", byProduct, len(want))
		}
		for i, p := range byProduct {
			if p["product_id"] != want[i].id || p["revenue"] != money(want[i].revenue) {
				t.Errorf("by_product[%d] %v, want %+v", i, p, want[i])
			}
		}
		d = h.get("/sales?currency=USD&date_from=last_90_days&group_by=category")
		cats := categorySums(want)
		for _, c := range httpxtest.Objects(d["by_category"]) {
			if c["revenue"] != money(cats[c["category_id"].(string)]) || c["name"] != c["category_id"] {
				t.Errorf("by_category %v, want %s", c, money(cats[c["category_id"].(string)]))
			}
		}
		if len(httpxtest.Objects(d["by_category"])) != len(cats) {
			t.Errorf("by_category %v, want %v", d["by_category"], cats)
		}
	})
}

// TestOrdersReport: counts, items, by status and fulfillment, fulfillment times and
// the geographic distribution.
func TestOrdersReport(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, h *harness) {
		st := h.seedStore(31, 140)
		d := h.get("/orders?currency=USD&date_from=last_90_days&include_geo=true")
		w := window{from: "2026-03-20", to: "2026-06-17", cur: "USD", loc: time.UTC}
		f := st.figures(w)
		sm := obj(d["summary"])
		if int64(num(t, sm["total_orders"])) != f.orders || int64(num(t, sm["total_items"])) != f.items ||
			!near(num(t, sm["average_items_per_order"]), round2(float64(f.items)/float64(f.orders))) {
			t.Errorf("summary %v, want %d orders %d items", sm, f.orders, f.items)
		}
		var closedN, shippedN, sameDay, in48 int64
		var closedSecs, shipSecs float64
		for _, o := range st.orders {
			if !w.has(o) || o.Status == "cancelled" {
				continue
			}
			if o.ClosedAt != nil {
				closedN++
				closedSecs += o.ClosedAt.Sub(o.CreatedAt).Seconds()
			}
			if o.FulfillmentStatus != "unfulfilled" {
				// the shipment is the first event after the creation (updated_at of
				// the shipping event, which the evolve step recorded first)
				at := shipAt(st, o)
				shippedN++
				shipSecs += at.Sub(o.CreatedAt).Seconds()
				if at.Format(time.DateOnly) == o.CreatedAt.Format(time.DateOnly) {
					sameDay++
				}
				if at.Sub(o.CreatedAt) <= 48*time.Hour {
					in48++
				}
			}
		}
		if !near(num(t, sm["average_processing_time_hours"]), round2(closedSecs/3600/float64(closedN))) {
			t.Errorf("processing hours %v, want %v", sm["average_processing_time_hours"], round2(closedSecs/3600/float64(closedN)))
		}
		fm := obj(d["fulfillment_metrics"])
		if !near(num(t, fm["average_fulfillment_time_hours"]), round2(shipSecs/3600/float64(shippedN))) ||
			!near(num(t, fm["same_day_fulfillment_rate"]), pct(float64(sameDay), float64(shippedN))) ||
			!near(num(t, fm["within_48h_rate"]), pct(float64(in48), float64(shippedN))) {
			t.Errorf("fulfillment_metrics %v, want %v h, same day %d, 48h %d of %d", fm, round2(shipSecs/3600/float64(shippedN)), sameDay, in48, shippedN)
		}
		for k, v := range obj(d["by_status"]) {
			if int64(num(t, v)) != f.byStatus[k] {
				t.Errorf("by_status.%s %v, want %d", k, v, f.byStatus[k])
			}
		}
		bf := obj(d["by_fulfillment_status"])
		for _, k := range []string{"unfulfilled", "partial", "fulfilled", "returned"} {
			if int64(num(t, bf[k])) != f.byFulfillment[k] {
				t.Errorf("by_fulfillment_status.%s %v, want %d", k, bf[k], f.byFulfillment[k])
			}
		}
		geo := httpxtest.Objects(d["geographic_distribution"])
		if len(geo) != len(f.countryOrders) {
			t.Errorf("geo %v, want %v", geo, f.countryOrders)
		}
		for _, g := range geo {
			c := g["country"].(string)
			if int64(num(t, g["orders"])) != f.countryOrders[c] || g["revenue"] != money(f.byCountry[c]) ||
				!near(num(t, g["percentage"]), pct(float64(f.countryOrders[c]), float64(f.orders))) {
				t.Errorf("geo %v, want %d %s", g, f.countryOrders[c], money(f.byCountry[c]))
			}
		}
		if _, ok := h.get("/orders?currency=USD")["geographic_distribution"]; ok {
			t.Error("geographic_distribution without include_geo")
		}
		// by week: the points sum to the summary
		d = h.get("/orders?currency=USD&date_from=last_90_days&period=week")
		var sum int64
		for _, p := range httpxtest.Objects(d["time_series"]) {
			sum += int64(num(t, p["orders"]))
		}
		if sum != f.orders {
			t.Errorf("weekly orders sum to %d, want %d", sum, f.orders)
		}
	})
}

// shipAt is when the order was first shown shipped in the seeded story.
func shipAt(st *store, o orders.Order) time.Time { return st.shipped[o.ID] }

// TestProductsReport: sold, revenue, profit at cost, margin, returns, sorting, the
// limit, the category filter and the inventory figures.
func TestProductsReport(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, h *harness) {
		st := h.seedStore(41, 140)
		w := window{from: "2026-03-20", to: "2026-06-17", cur: "USD", loc: time.UTC}
		want := st.products(w)
		d := h.get("/products?currency=USD&date_from=last_90_days")
		sm := obj(d["summary"])
		var sold int64
		var revenue, profit, knownRevenue decimal.Decimal
		for _, p := range want {
			sold += p.sold
			revenue = revenue.Add(p.revenue)
			if p.costKnown {
				profit = profit.Add(p.revenue.Sub(p.cost))
				knownRevenue = knownRevenue.Add(p.revenue)
			}
		}
		margin, _ := profit.Div(knownRevenue).Mul(decimal.NewFromInt(100)).Round(2).Float64()
		if int64(num(t, sm["total_products_sold"])) != sold || int64(num(t, sm["unique_products_sold"])) != int64(len(want)) ||
			sm["total_revenue"] != money(revenue) || sm["gross_profit"] != money(profit) || !near(num(t, sm["gross_margin"]), margin) {
			t.Errorf("summary %v, want sold %d unique %d revenue %s profit %s margin %v", sm, sold, len(want), money(revenue), money(profit), margin)
		}
		top := httpxtest.Objects(d["top_products"])
		if len(top) != len(want) {
			t.Fatalf("top_products %d, want %d", len(top), len(want))
		}
		for i, p := range top {
			e := want[i]
			if p["product_id"] != e.id || p["revenue"] != money(e.revenue) || int64(num(t, p["quantity_sold"])) != e.sold ||
				!near(num(t, p["return_rate"]), pct(float64(e.refunds), float64(e.quantity))) {
				t.Errorf("top_products[%d] %v, want %+v", i, p, e)
			}
			if !e.costKnown {
				if p["profit"] != nil || p["margin"] != nil {
					t.Errorf("%s without a cost price: profit %v margin %v", e.id, p["profit"], p["margin"])
				}
				continue
			}
			m, _ := e.revenue.Sub(e.cost).Div(e.revenue).Mul(decimal.NewFromInt(100)).Round(2).Float64()
			if p["profit"] != money(e.revenue.Sub(e.cost)) || !near(num(t, p["margin"]), m) {
				t.Errorf("%s: profit %v margin %v, want %s %v", e.id, p["profit"], p["margin"], money(e.revenue.Sub(e.cost)), m)
			}
		}
		for _, p := range top {
			for _, c := range products {
				if c.id == p["product_id"] && (p["title"] != c.title || p["sku"] != c.sku) {
					t.Errorf("%v: want title %s sku %s", p, c.title, c.sku)
				}
			}
		}
		// a period that reads months minus their end days (Apr 3 - May 29), and one within
		// a month: the same figures as the orders'
		for _, w := range []window{{from: "2026-04-03", to: "2026-05-29", cur: "USD", loc: time.UTC},
			{from: "2026-05-10", to: "2026-05-16", cur: "USD", loc: time.UTC}} {
			want := st.products(w)
			top := httpxtest.Objects(h.get("/products?currency=USD&limit=100&date_from=" + w.from + "&date_to=" + w.to)["top_products"])
			if len(top) != len(want) {
				t.Fatalf("%s..%s: top_products %d, want %d", w.from, w.to, len(top), len(want))
			}
			for i, p := range top {
				if e := want[i]; p["product_id"] != e.id || p["revenue"] != money(e.revenue) || int64(num(t, p["quantity_sold"])) != e.sold {
					t.Errorf("%s..%s: top_products[%d] %v, want %+v", w.from, w.to, i, p, e)
				}
			}
		}
		// sort by quantity, limit 2
		d = h.get("/products?currency=USD&date_from=last_90_days&sort_by=quantity&limit=2")
		byQty := append([]productFigure(nil), want...)
		sort.SliceStable(byQty, func(i, j int) bool {
			if byQty[i].sold != byQty[j].sold {
				return byQty[i].sold > byQty[j].sold
			}
			return byQty[i].id < byQty[j].id
		})
		top = httpxtest.Objects(d["top_products"])
		if len(top) != 2 || top[0]["product_id"] != byQty[0].id || top[1]["product_id"] != byQty[1].id {
			t.Errorf("by quantity %v, want %s, %s", top, byQty[0].id, byQty[1].id)
		}
		// sort by profit: net revenue less the kept quantity's cost (a product without a
		// cost price counts its net revenue)
		byProfit := append([]productFigure(nil), want...)
		sort.SliceStable(byProfit, func(i, j int) bool {
			a, b := byProfit[i].revenue.Sub(byProfit[i].cost), byProfit[j].revenue.Sub(byProfit[j].cost)
			if !a.Equal(b) {
				return a.GreaterThan(b)
			}
			return byProfit[i].id < byProfit[j].id
		})
		top = httpxtest.Objects(h.get("/products?currency=USD&date_from=last_90_days&sort_by=profit&limit=3")["top_products"])
		if len(top) != 3 || top[0]["product_id"] != byProfit[0].id || top[1]["product_id"] != byProfit[1].id || top[2]["product_id"] != byProfit[2].id {
			t.Errorf("by profit %v, want %s, %s, %s", top, byProfit[0].id, byProfit[1].id, byProfit[2].id)
		}
		// by_category: the net revenue of every product sold per product type (not only
		// the top ones), "uncategorized" for none, by revenue
		cats := categorySums(want)
		got := httpxtest.Objects(h.get("/products?currency=USD&date_from=last_90_days&limit=1")["by_category"])
		if len(got) != len(cats) {
			t.Errorf("by_category %v, want %v", got, cats)
		}
		for i, c := range got {
			if c["revenue"] != money(cats[c["category_id"].(string)]) || c["name"] != c["category_id"] {
				t.Errorf("by_category %v, want %s", c, money(cats[c["category_id"].(string)]))
			}
			if i > 0 && num(t, c["percentage"]) > num(t, got[i-1]["percentage"]) {
				t.Errorf("by_category not by revenue: %v", got)
			}
		}
		// category: a product type
		d = h.get("/products?currency=USD&date_from=last_90_days&category_id=apparel")
		for _, p := range httpxtest.Objects(d["top_products"]) {
			if p["product_id"] != "p-tee" && p["product_id"] != "p-cap" {
				t.Errorf("apparel lists %v", p["product_id"])
			}
		}
		// inventory: 5 SKUs; the T-shirt is low (3 <= 5), the cap out; value at cost
		im := obj(d["inventory_metrics"])
		value := decimal.Zero
		for _, p := range products {
			if p.stock > 0 {
				value = value.Add(dec(p.cost).Mul(decimal.NewFromInt(int64(p.stock))))
			}
		}
		if num(t, im["total_sku_count"]) != 5 || num(t, im["low_stock_count"]) != 1 || num(t, im["out_of_stock_count"]) != 1 ||
			im["inventory_value"] != money(value) {
			t.Errorf("inventory_metrics %v, want value %s", im, money(value))
		}
		h.As("stats").Must(http.StatusBadRequest, http.MethodGet, "/api/v1/admin/statistics/products?sort_by=price", nil)
		h.As("stats").Must(http.StatusBadRequest, http.MethodGet, "/api/v1/admin/statistics/products?limit=0", nil)
		h.As("stats").Must(http.StatusBadRequest, http.MethodGet, "/api/v1/admin/statistics/products?limit=101", nil)
	})
}

// TestAccess: admin or statistics:read; every other key 403 (also the read wildcard),
// anonymous 401.
func TestAccess(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, h *harness) {
		for _, path := range []string{"dashboard", "sales", "orders", "products", "customers"} {
			p := "/api/v1/admin/statistics/" + path
			for _, who := range []string{"admin", "staffuser", "stats", "statsadm"} {
				h.As(who).Must(http.StatusOK, http.MethodGet, p, nil)
			}
			for _, who := range []string{"readall", "products", "orders", "customer"} {
				h.As(who).Must(http.StatusForbidden, http.MethodGet, p, nil)
			}
			h.Must(http.StatusUnauthorized, http.MethodGet, p, nil)
		}
	})
}

// TestBadQueries: dates, periods, comparisons, groups and flags the spec does not name
// answer 400 naming the parameter.
func TestBadQueries(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, h *harness) {
		for _, q := range []string{"dashboard?date_from=tomorrow", "dashboard?date_to=2026-13-01", "dashboard?date_from=2026-06-10&date_to=2026-06-01",
			"dashboard?compare_with=last_year", "sales?period=year", "sales?group_by=region", "orders?include_geo=maybe",
			"customers?include_segments=2", "dashboard?currency=DOLLARS", "dashboard?date_from=2000-01-01"} {
			r := h.As("stats").Must(http.StatusBadRequest, http.MethodGet, "/api/v1/admin/statistics/"+q, nil)
			if obj(r.Body["error"])["category"] != "validation" {
				t.Errorf("%s: %v", q, r.Body)
			}
		}
	})
}

// TestStoreTimezone: with statistics.timezone, "today" and each order's day are the
// store's: an order at 02:00 UTC on the 17th is on the 16th in New York.
func TestStoreTimezone(t *testing.T) {
	eachEngine(t, func(c *config.Config) { c.Statistics.Timezone = "America/New_York" }, func(t *testing.T, h *harness) {
		st := &store{}
		for i, at := range []time.Time{
			time.Date(2026, 6, 17, 2, 0, 0, 0, time.UTC),  // 16th 22:00 in New York
			time.Date(2026, 6, 17, 5, 0, 0, 0, time.UTC),  // 17th 01:00
			time.Date(2026, 6, 16, 3, 59, 0, 0, time.UTC), // 15th 23:59
			time.Date(2026, 6, 15, 4, 30, 0, 0, time.UTC), // 15th 00:30 (Monday)
			time.Date(2026, 6, 22, 3, 30, 0, 0, time.UTC), // 21st 23:30 (Sunday), this week
		} {
			o := baseOrder(fmt.Sprintf("tz-%d", i), at, "10.00")
			h.send("order.created", o)
			st.orders = append(st.orders, o)
		}
		h.clock.Advance(time.Date(2026, 6, 17, 3, 0, 0, 0, time.UTC).Sub(now)) // the 16th, 23:00 in New York
		d := h.get("/dashboard")
		if p := obj(d["period"]); p["from"] != "2026-06-16" {
			t.Errorf("today in New York: %v", p)
		}
		if c := obj(obj(d["sales"])["total_orders"]); num(t, c["count"]) != 1 {
			t.Errorf("orders on the 16th in New York: %v, want 1", c)
		}
		d = h.get("/dashboard?date_from=this_week&date_to=this_week")
		if p := obj(d["period"]); p["from"] != "2026-06-15" || p["to"] != "2026-06-21" {
			t.Errorf("this week: %v", p)
		}
		if c := obj(obj(d["sales"])["total_orders"]); num(t, c["count"]) != 5 {
			t.Errorf("this week's orders %v, want 5", c)
		}
		if c := obj(obj(d["sales"])["total_orders"]); c["change_direction"] != "up" || c["change_percentage"] != nil {
			t.Errorf("against an empty week: %v", c)
		}
	})
}

// A relay batch of product events (every stock change re-sends the product) is one
// write in which each product keeps its latest snapshot.
func TestProductEventsInOneBatch(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, h *harness) {
		snapshot := func(id, title string, stock int) event.Event {
			raw, err := json.Marshal(map[string]any{"id": id, "title": title, "status": "active",
				"variants": []map[string]any{{"id": id + "-v", "title": "Default", "price": "5.00", "inventory_quantity": stock}}})
			if err != nil {
				t.Fatal(err)
			}
			return event.Event{ID: "evt_" + id + title, Type: catalog.EventProductUpdated, Data: raw}
		}
		batch := []event.Event{snapshot("p1", "Mug", 9), snapshot("p2", "Cup", 4), snapshot("p1", "Mug 2", 8)}
		if err := h.sub.HandleProducts(t.Context(), batch); err != nil {
			t.Fatal(err)
		}
		var title string
		var stock int
		if err := h.DB.Gorm().Raw("SELECT title, inventory_quantity FROM statistics_variants WHERE variant_id = 'p1-v'").Row().Scan(&title, &stock); err != nil {
			t.Fatal(err)
		}
		if title != "Default" || stock != 8 {
			t.Errorf("p1's variant: %q stock %d, want the latest snapshot's 8", title, stock)
		}
		if err := h.DB.Gorm().Raw("SELECT title FROM statistics_products WHERE product_id = 'p1'").Row().Scan(&title); err != nil || title != "Mug 2" {
			t.Errorf("p1: %q (%v), want Mug 2", title, err)
		}
		if n := h.Count("statistics_products", "product_id = ?", "p2"); n != 1 {
			t.Errorf("p2 saved %d times, want 1", n)
		}
	})
}

// TestProductsNoEventShowed: a product sold that no product event ever showed (say,
// created before the statistics were installed) takes its title and SKU from its order
// lines, in the products report and in the dashboard's top sellers alike.
func TestProductsNoEventShowed(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, h *harness) {
		o := baseOrder("o-ghost", now, "7.00")
		o.LineItems = []orders.LineItem{{ID: "o-ghost-l", ProductID: "p-ghost", VariantID: "v-ghost", Title: "Ghost lamp",
			SKU: "GHOST-1", Quantity: 1, Price: "7.00"}}
		h.send("order.created", o)
		top := httpxtest.Objects(h.get("/products?currency=USD&date_from=today")["top_products"])
		if len(top) != 1 || top[0]["product_id"] != "p-ghost" || top[0]["title"] != "Ghost lamp" || top[0]["sku"] != "GHOST-1" {
			t.Errorf("products report: %v, want p-ghost titled from its line", top)
		}
		sellers := httpxtest.Objects(obj(h.get("/dashboard?currency=USD")["products"])["top_selling"])
		if len(sellers) != 1 || sellers[0]["title"] != "Ghost lamp" {
			t.Errorf("dashboard top sellers: %v, want p-ghost titled from its line", sellers)
		}
	})
}

// categorySums is the net revenue of the products per product type ("uncategorized"
// for none).
func categorySums(want []productFigure) map[string]decimal.Decimal {
	cats := map[string]decimal.Decimal{}
	for _, p := range want {
		for _, c := range products {
			if c.id == p.id {
				k := c.kind
				if k == "" {
					k = "uncategorized"
				}
				cats[k] = cats[k].Add(p.revenue)
			}
		}
	}
	return cats
}
