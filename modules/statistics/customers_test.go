package statistics_test

import (
	"sort"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"go.uber.org/zap"

	customers "github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/modules/statistics"
	"github.com/gocommerce/commerce/modules/statistics/app"
	"github.com/gocommerce/commerce/platform/httpxtest"
)

// expectedSegments computes the segments from the orders (USD, the store's currency
// by orders) on today.
func expectedSegments(st *store, today string) map[string]map[string]bool {
	totals := st.customerTotals("USD", time.UTC)
	out := map[string]map[string]bool{"vip": {}, "loyal": {}, "new": {}, "at_risk": {}, "dormant": {}}
	ids := make([]string, 0, len(totals))
	for id := range totals {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		a, b := totals[ids[i]].spent, totals[ids[j]].spent
		if !a.Equal(b) {
			return a.GreaterThan(b)
		}
		return ids[i] < ids[j]
	})
	vip := (len(ids)*5 + 99) / 100
	for i, id := range ids {
		if i < vip {
			out["vip"][id] = true
		}
		c := totals[id]
		last := c.last.Format(time.DateOnly)
		switch {
		case last <= shift(today, -90):
			out["dormant"][id] = true
		case last <= shift(today, -60):
			out["at_risk"][id] = true
		case c.firstDay > shift(today, -30):
			out["new"][id] = true
		case c.orders >= 3:
			out["loyal"][id] = true
		}
	}
	return out
}

// TestCustomersReportAndSegments: the customer figures of a period against the
// orders, then the segments the job computes, in the report and through InSegment.
func TestCustomersReportAndSegments(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, h *harness) {
		st := h.seedStore(53, 160)
		totals := st.customerTotals("USD", time.UTC)
		var d map[string]any
		// a period up to today (read from the customer totals) and one in the past
		// (read from the orders of the period)
		for _, span := range [][3]string{{"last_90_days", "2026-03-20", "2026-06-17"}, {"last_month", "2026-05-01", "2026-05-31"}} {
			from, to := span[1], span[2]
			d = h.get("/customers?currency=USD&include_segments=true&date_from=" + span[0] + "&date_to=" + span[0])
			var total, newC, bought, churned int64
			sources := map[string]int64{}
			for _, c := range st.customers {
				day := c.created.Format(time.DateOnly)
				if day <= to {
					total++
				}
				if day >= from && day <= to {
					newC++
					src := "none"
					if ct := totals[c.id]; ct != nil {
						src = ct.firstChannel
						if ct.firstDay <= to {
							bought++
						}
					}
					sources[src]++
				}
			}
			for _, ct := range totals {
				if l := ct.last.Format(time.DateOnly); l >= shift(from, -90) && l <= shift(to, -90) {
					churned++
				}
			}
			w := window{from: from, to: to, cur: "USD", loc: time.UTC}
			ordering := map[string]bool{}
			var returning int64
			for _, o := range st.orders {
				if w.has(o) && o.Status != "cancelled" && o.CustomerID != nil && !ordering[*o.CustomerID] {
					ordering[*o.CustomerID] = true
					if totals[*o.CustomerID].firstDay < from {
						returning++
					}
				}
			}
			sm := obj(d["summary"])
			if int64(num(t, sm["total_customers"])) != total || int64(num(t, sm["new_customers"])) != newC ||
				int64(num(t, sm["returning_customers"])) != returning || int64(num(t, sm["churned_customers"])) != churned {
				t.Errorf("summary %v, want total %d new %d returning %d churned %d", sm, total, newC, returning, churned)
			}
			acq := obj(d["acquisition"])
			if int64(num(t, acq["total_new"])) != newC || !near(num(t, acq["conversion_rate"]), pct(float64(bought), float64(newC))) {
				t.Errorf("acquisition %v, want %d new, %d bought", acq, newC, bought)
			}
			for _, s := range httpxtest.Objects(acq["by_source"]) {
				if int64(num(t, s["count"])) != sources[s["source"].(string)] {
					t.Errorf("by_source %v, want %v", s, sources)
				}
			}
			if len(httpxtest.Objects(acq["by_source"])) != len(sources) {
				t.Errorf("by_source %v, want %v", acq["by_source"], sources)
			}
			var repeat, gapsN int64
			var gaps float64
			var values []decimal.Decimal
			sum := decimal.Zero
			for id := range ordering {
				c := totals[id]
				values = append(values, c.spent)
				sum = sum.Add(c.spent)
				if c.orders >= 2 {
					repeat++
					gapsN++
					gaps += c.last.Sub(c.first).Hours() / 24 / float64(c.orders-1)
				}
			}
			sort.Slice(values, func(i, j int) bool { return values[i].LessThan(values[j]) })
			med := values[len(values)/2]
			if len(values)%2 == 0 {
				med = values[len(values)/2-1].Add(values[len(values)/2]).Div(decimal.NewFromInt(2))
			}
			ret := obj(d["retention"])
			ltv := obj(ret["customer_lifetime_value"])
			if !near(num(t, ret["repeat_purchase_rate"]), pct(float64(repeat), float64(len(ordering)))) ||
				!near(num(t, ret["average_time_between_orders_days"]), round2(gaps/float64(gapsN))) ||
				ltv["average"] != money(sum.Div(decimal.NewFromInt(int64(len(values))))) || ltv["median"] != money(med) {
				t.Errorf("retention %v, want repeat %d of %d, gaps %v, ltv %s median %s", ret, repeat, len(ordering), round2(gaps/float64(gapsN)),
					money(sum.Div(decimal.NewFromInt(int64(len(values))))), money(med))
			}
		}
		// before the job ran, every segment is empty
		for _, s := range httpxtest.Objects(d["segments"]) {
			if num(t, s["count"]) != 0 {
				t.Errorf("segment before the job: %v", s)
			}
		}
		if _, err := h.svc.RefreshSegments(t.Context()); err != nil {
			t.Fatal(err)
		}
		want := expectedSegments(st, "2026-06-17")
		d = h.get("/customers?currency=USD&include_segments=true")
		segs := httpxtest.Objects(d["segments"])
		if len(segs) != 5 {
			t.Fatalf("segments %v", segs)
		}
		for _, s := range segs {
			name := s["segment"].(string)
			members := want[name]
			var orders int64
			spent := decimal.Zero
			for id := range members {
				orders += totals[id].orders
				spent = spent.Add(totals[id].spent)
			}
			aov := decimal.Zero
			if orders > 0 {
				aov = spent.Div(decimal.NewFromInt(orders))
			}
			if int(num(t, s["count"])) != len(members) || s["average_order_value"] != money(aov) ||
				!near(num(t, s["percentage"]), pct(float64(len(members)), float64(len(totals)))) {
				t.Errorf("segment %v, want %d members, aov %s", s, len(members), money(aov))
			}
			for _, c := range st.customers {
				in, err := h.svc.InSegment(t.Context(), name, c.id)
				if err != nil {
					t.Fatal(err)
				}
				if in != members[c.id] {
					t.Errorf("InSegment(%s, %s) = %v", name, c.id, in)
				}
			}
		}
		if len(want["vip"]) == 0 || len(want["dormant"])+len(want["at_risk"])+len(want["new"])+len(want["loyal"]) == 0 {
			t.Errorf("the seeded store should fill the segments: %v", want)
		}
		if in, _ := h.svc.InSegment(t.Context(), "0190a000-0000-7000-8000-000000000001", "c-01"); in {
			t.Error("a name that is no computed segment")
		}
	})
}

// TestCustomerCountsFollowCreatesAndDeletes: the total and new customers (sums of the
// customers per day) count a customer created twice once and a deleted one no more.
func TestCustomerCountsFollowCreatesAndDeletes(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, h *harness) {
		st := h.seedStore(7, 10)
		from, to := "2026-03-20", "2026-06-17"
		check := func(gone map[string]bool) {
			t.Helper()
			var total, newC int64
			for _, c := range st.customers {
				if day := c.created.Format(time.DateOnly); !gone[c.id] && day <= to {
					total++
					if day >= from {
						newC++
					}
				}
			}
			sm := obj(h.get("/customers?currency=USD&date_from=last_90_days")["summary"])
			if int64(num(t, sm["total_customers"])) != total || int64(num(t, sm["new_customers"])) != newC {
				t.Errorf("summary %v, want total %d new %d", sm, total, newC)
			}
		}
		check(nil)
		// the same customer created again (a replayed event, another time): counted once
		c := st.customers[3]
		h.send(customers.EventCustomerCreated, customers.Customer{ID: c.id, CreatedAt: c.created})
		h.send(customers.EventCustomerCreated, customers.Customer{ID: c.id, CreatedAt: c.created.Add(-48 * time.Hour)})
		check(nil)
		// deleted customers (twice, and one never seen) are no longer counted
		gone := map[string]bool{}
		for _, id := range []string{st.customers[5].id, st.customers[9].id, st.customers[5].id, "c-unknown"} {
			h.send(customers.EventCustomerDeleted, customers.CustomerDeleted{ID: id})
			gone[id] = true
		}
		check(gone)
	})
}

// The segments sweep runs every statistics.segments_interval.
func TestSegmentsJob(t *testing.T) {
	t.Parallel()
	if j := statistics.NewJobs(nil, app.Settings{SegmentsInterval: 3 * time.Hour}, zap.NewNop()); j.Task != "statistics:segments" || j.Every != 3*time.Hour || j.Done != "segment memberships computed" {
		t.Errorf("sweep %q every %v", j.Task, j.Every)
	}
}
