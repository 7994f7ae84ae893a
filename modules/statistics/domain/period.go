// Package domain holds the statistics rules without I/O: date presets and periods in
// the store's time zone, the previous period of a comparison, changes and rates, the
// order's status and fulfillment keys, amounts as integers and the segment rules.
package domain

import (
	"strings"
	"time"

	"github.com/gocommerce/commerce/platform/apperr"
)

// DayLayout is how days are written (and stored): YYYY-MM-DD.
const DayLayout = time.DateOnly

// Presets the spec names for date_from and date_to.
var Presets = []string{"today", "yesterday", "this_week", "last_week", "this_month", "last_month",
	"last_7_days", "last_30_days", "last_90_days"}

// Comparisons compare_with accepts: the period just before (the default), the same days
// a year before, or none.
const (
	ComparePrevious = "previous_period"
	ComparePrevYear = "previous_year"
	CompareNone     = "none"
)

// Period is a range of whole local days, both ends included.
type Period struct {
	From, To time.Time // midnight of the first and of the last day, in the store's zone
}

// Days is the number of days of the period.
func (p Period) Days() int { return int(daysBetween(p.From, p.To)) + 1 }

// FromDay and ToDay are the ends written as YYYY-MM-DD.
func (p Period) FromDay() string { return p.From.Format(DayLayout) }

// ToDay is the last day written as YYYY-MM-DD.
func (p Period) ToDay() string { return p.To.Format(DayLayout) }

// Previous is the period of the same length that ends the day before p starts.
func (p Period) Previous() Period {
	n := p.Days()
	return Period{From: p.From.AddDate(0, 0, -n), To: p.From.AddDate(0, 0, -1)}
}

// YearBefore is the same days a year earlier.
func (p Period) YearBefore() Period {
	return Period{From: p.From.AddDate(-1, 0, 0), To: p.To.AddDate(-1, 0, 0)}
}

// Compared is the period compare_with names, and false for none.
func (p Period) Compared(with string) (Period, bool) {
	switch with {
	case ComparePrevYear:
		return p.YearBefore(), true
	case CompareNone:
		return Period{}, false
	default:
		return p.Previous(), true
	}
}

func daysBetween(a, b time.Time) int64 {
	ay, am, ad := a.Date()
	by, bm, bd := b.Date()
	return int64(time.Date(by, bm, bd, 12, 0, 0, 0, time.UTC).Sub(time.Date(ay, am, ad, 12, 0, 0, 0, time.UTC)) / (24 * time.Hour))
}

// midnight is the start of t's day in loc.
func midnight(t time.Time, loc *time.Location) time.Time {
	y, m, d := t.In(loc).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, loc)
}

// Day is the local day of the instant t in loc, as YYYY-MM-DD.
func Day(t time.Time, loc *time.Location) string { return t.In(loc).Format(DayLayout) }

// ErrBadDate is the validation error of a date that is neither a preset nor ISO 8601.
func badDate(field, value string) error {
	return apperr.Validation(map[string]string{field: "must be an ISO 8601 date or one of " + strings.Join(Presets, ", ") +
		" (got " + quote(value) + ")"})
}

func quote(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return "\"" + s + "\""
}

// presetRange is the first and last day a preset names on now's day in loc; weeks run
// Monday to Sunday.
func presetRange(name string, now time.Time, loc *time.Location) (from, to time.Time, ok bool) {
	today := midnight(now, loc)
	weekday := (int(today.Weekday()) + 6) % 7 // Monday 0 ... Sunday 6
	monday := today.AddDate(0, 0, -weekday)
	first := time.Date(today.Year(), today.Month(), 1, 0, 0, 0, 0, loc)
	switch name {
	case "today":
		return today, today, true
	case "yesterday":
		y := today.AddDate(0, 0, -1)
		return y, y, true
	case "this_week":
		return monday, monday.AddDate(0, 0, 6), true
	case "last_week":
		return monday.AddDate(0, 0, -7), monday.AddDate(0, 0, -1), true
	case "this_month":
		return first, first.AddDate(0, 1, -1), true
	case "last_month":
		return first.AddDate(0, -1, 0), first.AddDate(0, 0, -1), true
	case "last_7_days":
		return today.AddDate(0, 0, -6), today, true
	case "last_30_days":
		return today.AddDate(0, 0, -29), today, true
	case "last_90_days":
		return today.AddDate(0, 0, -89), today, true
	}
	return time.Time{}, time.Time{}, false
}

// parseDate reads an ISO 8601 date (YYYY-MM-DD) or instant (RFC 3339, read as its day
// in loc).
func parseDate(v string, loc *time.Location) (time.Time, bool) {
	if t, err := time.ParseInLocation(DayLayout, v, loc); err == nil {
		return t, true
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04"} {
		if t, err := time.ParseInLocation(layout, v, loc); err == nil {
			return midnight(t, loc), true
		}
	}
	return time.Time{}, false
}

// MaxDays bounds a period (ten years).
const MaxDays = 3700

// ParsePeriod reads date_from and date_to (each a preset or an ISO 8601 date; empty
// takes the default preset given) on now in loc. A preset as date_from starts the
// period at the preset's first day, as date_to ends it at the preset's last day.
func ParsePeriod(from, to, defFrom, defTo string, now time.Time, loc *time.Location) (Period, error) {
	if from == "" {
		from = defFrom
	}
	if to == "" {
		to = defTo
	}
	start, ok := endOf(from, true, now, loc)
	if !ok {
		return Period{}, badDate("date_from", from)
	}
	end, ok := endOf(to, false, now, loc)
	if !ok {
		return Period{}, badDate("date_to", to)
	}
	if end.Before(start) {
		return Period{}, apperr.Validation(map[string]string{"date_to": "must not be before date_from"})
	}
	p := Period{From: start, To: end}
	if p.Days() > MaxDays {
		return Period{}, apperr.Validation(map[string]string{"date_from": "the period must be at most 3700 days"})
	}
	return p, nil
}

func endOf(v string, first bool, now time.Time, loc *time.Location) (time.Time, bool) {
	v = strings.TrimSpace(v)
	if f, t, ok := presetRange(strings.ToLower(v), now, loc); ok {
		if first {
			return f, true
		}
		return t, true
	}
	return parseDate(v, loc)
}
