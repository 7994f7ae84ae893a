package postgres

import (
	"strings"
	"time"

	"github.com/gocommerce/commerce/modules/statistics/domain"
	"github.com/gocommerce/commerce/modules/statistics/ports"
)

// shiftDay is the day n days after day (YYYY-MM-DD).
func shiftDay(day string, n int) string {
	t, err := time.Parse(domain.DayLayout, day)
	if err != nil {
		return day
	}
	return t.AddDate(0, 0, n).Format(domain.DayLayout)
}

// dayRange is the days from through to (YYYY-MM-DD), both included.
type dayRange struct{ from, to string }

// monthPlan is how a range of days is read from the product rollups: the whole months
// fromMonth through toMonth (YYYY-MM; none when fromMonth is ""), plus the days add,
// minus the days sub. Its sums equal the sums of the range's days.
type monthPlan struct {
	fromMonth, toMonth string
	add, sub           []dayRange
}

// planMonths splits [from, to] into whole months and days. A month the range covers in
// part is read as its days in the range, or as the whole month minus its days out of
// the range, whichever is fewer days; days after to cost nothing when current (to is
// today: no order is after it). Unparsable days fall back to the days themselves.
func planMonths(from, to string, current bool) monthPlan {
	f, err1 := time.Parse(domain.DayLayout, from)
	t, err2 := time.Parse(domain.DayLayout, to)
	if err1 != nil || err2 != nil || t.Before(f) {
		return monthPlan{add: []dayRange{{from, to}}}
	}
	day := func(d time.Time) string { return d.Format(domain.DayLayout) }
	var p monthPlan
	var whole []string
	for m := time.Date(f.Year(), f.Month(), 1, 0, 0, 0, 0, time.UTC); !m.After(t); m = m.AddDate(0, 1, 0) {
		end := m.AddDate(0, 1, -1)
		in0, in1 := maxTime(m, f), minTime(end, t)
		if in0.Equal(m) && in1.Equal(end) {
			whole = append(whole, m.Format("2006-01"))
			continue
		}
		inside := daysIn(in0, in1)
		outside := daysIn(m, in0.AddDate(0, 0, -1))
		if !current {
			outside += daysIn(in1.AddDate(0, 0, 1), end)
		}
		if inside <= outside {
			p.add = append(p.add, dayRange{day(in0), day(in1)})
			continue
		}
		whole = append(whole, m.Format("2006-01"))
		if in0.After(m) {
			p.sub = append(p.sub, dayRange{day(m), day(in0.AddDate(0, 0, -1))})
		}
		if in1.Before(end) {
			p.sub = append(p.sub, dayRange{day(in1.AddDate(0, 0, 1)), day(end)})
		}
	}
	if len(whole) > 0 {
		p.fromMonth, p.toMonth = whole[0], whole[len(whole)-1]
	}
	return p
}

// daysIn is the number of days from a through b (0 when b is before a).
func daysIn(a, b time.Time) int {
	if b.Before(a) {
		return 0
	}
	return int(b.Sub(a).Hours()/24+0.5) + 1
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// productRows is a query of the product rollups' rows that sum to r's figures
// (columns product_id, variant_id, orders, q, rq, rev, ref), with its arguments: whole
// months from statistics_product_monthly, the days at the ends from
// statistics_product_daily, added or subtracted (decision 0215). Grouped, a product or
// variant sold in r when its orders sum to more than 0.
func productRows(r ports.Range) (string, []any) {
	const cols = `product_id, variant_id, orders, quantity AS q, refunded_quantity AS rq, revenue AS rev, refunded AS ref`
	const neg = `product_id, variant_id, -orders, -quantity, -refunded_quantity, -revenue, -refunded`
	p := planMonths(r.From, r.To, r.Current)
	var parts []string
	var args []any
	if p.fromMonth != "" {
		parts = append(parts, `SELECT `+cols+` FROM statistics_product_monthly WHERE currency = ? AND month >= ? AND month <= ?`)
		args = append(args, r.Currency, p.fromMonth, p.toMonth)
	}
	for _, d := range p.add {
		parts = append(parts, `SELECT `+cols+` FROM statistics_product_daily WHERE currency = ? AND day >= ? AND day <= ?`)
		args = append(args, r.Currency, d.from, d.to)
	}
	for _, d := range p.sub {
		parts = append(parts, `SELECT `+neg+` FROM statistics_product_daily WHERE currency = ? AND day >= ? AND day <= ?`)
		args = append(args, r.Currency, d.from, d.to)
	}
	return strings.Join(parts, ` UNION ALL `), args
}
