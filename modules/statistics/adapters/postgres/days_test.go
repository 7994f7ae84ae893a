package postgres

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestPlanMonthsCoversTheRange: for ranges within and across months and years, the
// whole months plus the added days minus the subtracted days count every day of the
// range once and no other day, and the plan reads no more days than the range has.
func TestPlanMonthsCoversTheRange(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 25))
	base := time.Date(2025, 11, 1, 0, 0, 0, 0, time.UTC)
	cases := [][2]int{{0, 0}, {0, 29}, {1, 30}, {30, 30}, {15, 75}, {0, 400}, {59, 61}}
	for range 400 {
		a := r.IntN(500)
		cases = append(cases, [2]int{a, a + r.IntN(120)})
	}
	day := func(n int) time.Time { return base.AddDate(0, 0, n) }
	for _, c := range cases {
		for _, current := range []bool{false, true} {
			from, to := day(c[0]).Format(time.DateOnly), day(c[1]).Format(time.DateOnly)
			p := planMonths(from, to, current)
			count := map[string]int{}
			read := 0
			expand := func(f, l time.Time, n int) {
				for d := f; !d.After(l); d = d.AddDate(0, 0, 1) {
					count[d.Format(time.DateOnly)] += n
					if !current || !d.After(day(c[1])) {
						read++
					}
				}
			}
			parse := func(s string) time.Time {
				d, err := time.Parse(time.DateOnly, s)
				if err != nil {
					t.Fatal(err)
				}
				return d
			}
			if p.fromMonth != "" {
				m, _ := time.Parse("2006-01", p.fromMonth)
				last, _ := time.Parse("2006-01", p.toMonth)
				for ; !m.After(last); m = m.AddDate(0, 1, 0) {
					for d := m; d.Month() == m.Month(); d = d.AddDate(0, 0, 1) {
						count[d.Format(time.DateOnly)]++
					}
				}
			}
			for _, d := range p.add {
				expand(parse(d.from), parse(d.to), 1)
			}
			for _, d := range p.sub {
				expand(parse(d.from), parse(d.to), -1)
			}
			for d, n := range count {
				in := d >= from && d <= to
				if (in && n != 1) || (!in && n != 0) {
					t.Fatalf("%s..%s current=%v: plan %+v counts %s %d times", from, to, current, p, d, n)
				}
			}
			for d := day(c[0]); !d.After(day(c[1])); d = d.AddDate(0, 0, 1) {
				if count[d.Format(time.DateOnly)] != 1 {
					t.Fatalf("%s..%s current=%v: plan %+v misses %s", from, to, current, p, d.Format(time.DateOnly))
				}
			}
			if days := c[1] - c[0] + 1; read > days {
				t.Errorf("%s..%s current=%v: plan %+v reads %d days of %d", from, to, current, p, read, days)
			}
		}
	}
	// within a month the days themselves; the last 30 days on a month's first day: the
	// two months minus the previous month's first day and the days after today (none
	// sold: nothing to read)
	if p := planMonths("2026-03-03", "2026-03-09", false); p.fromMonth != "" || len(p.add) != 1 || len(p.sub) != 0 {
		t.Errorf("a week: %+v", p)
	}
	if p := planMonths("2026-11-02", "2026-12-01", true); p.fromMonth != "2026-11" || p.toMonth != "2026-12" ||
		len(p.add) != 0 || len(p.sub) != 2 || p.sub[0] != (dayRange{"2026-11-01", "2026-11-01"}) ||
		p.sub[1] != (dayRange{"2026-12-02", "2026-12-31"}) {
		t.Errorf("last 30 days on Dec 1: %+v", p)
	}
}
