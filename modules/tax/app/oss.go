package app

import (
	"context"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/tax/api"
	"github.com/gocommerce/commerce/modules/tax/domain"
	"github.com/gocommerce/commerce/modules/tax/ports"
	"github.com/gocommerce/commerce/platform/apperr"
)

// OSS schemes.
const (
	SchemeUnion    = "union"
	SchemeNonUnion = "non_union"
	SchemeImport   = "import"
)

// importLimit is the consignment value (EUR) up to which the import scheme applies.
var importLimit = decimal.NewFromInt(150)

// RecordOrder stores the tax lines of a created order (order.created), once per order:
// OSS reports and US nexus read them. An order without a country is ignored.
func (s *Service) RecordOrder(ctx context.Context, o api.OrderCreated) error {
	addr := o.ShippingAddress
	if addr == nil || country(addr) == "" {
		addr = o.BillingAddress
	}
	if addr == nil || country(addr) == "" {
		return nil
	}
	rec := &ports.Order{OrderID: o.ID, CountryCode: country(addr), RegionCode: region(addr), Currency: strings.ToUpper(o.Currency)}
	created, err := time.Parse(time.RFC3339Nano, o.CreatedAt)
	if err != nil {
		created = s.now()
	}
	rec.CreatedAt = created.UTC()
	sub, disc := amount(o.SubtotalPrice), amount(o.TotalDiscounts)
	rec.Sales, rec.Total = sub.Sub(disc), amount(o.TotalPrice)
	for _, l := range o.LineItems {
		rec.HasGoods = rec.HasGoods || l.RequiresShipping
	}
	for _, t := range o.TaxLines {
		rate, tax := amount(t.Rate), amount(t.Price)
		taxable := rec.Sales
		if rate.IsPositive() {
			taxable = tax.Div(rate).Round(2)
		}
		rec.Lines = append(rec.Lines, ports.OrderTax{Rate: rate, Taxable: taxable, Tax: tax})
	}
	// One atomic write (one statement on PostgreSQL): no transaction here.
	r, err := s.repo.RecordOrder(ctx, rec)
	if err == nil && r.New && rec.CountryCode == "US" && s.reaches(rec.RegionCode, r) {
		s.changed(ctx) // the loaded book taxes the state from now on
	}
	return err
}

// reaches reports whether the state's figures after a recorded order reach the
// state's nexus when the loaded book says they had not: only then is the book stale
// (figures only grow within a year; a new year reloads it anyway). Without a fresh
// book (one may be loading) it answers true, so no load in flight is kept.
func (s *Service) reaches(region string, r ports.Recorded) bool {
	b := s.fresh()
	if b == nil {
		return true
	}
	n := b.Nexus["US-"+region]
	if n == nil || n.Reached() {
		return false
	}
	after := *n
	after.Sales, after.Transactions = decimal.Max(n.Sales, r.Sales), max(n.Transactions, r.Transactions)
	return after.Reached()
}

func country(a *api.OrderAddress) string {
	c := strings.ToUpper(strings.TrimSpace(a.CountryCode))
	if c == "" {
		c = strings.ToUpper(strings.TrimSpace(a.Country))
	}
	if len(c) != 2 {
		return ""
	}
	return c
}

func region(a *api.OrderAddress) string {
	r := strings.ToUpper(strings.TrimSpace(a.Province))
	if r == "" {
		r = strings.ToUpper(strings.TrimSpace(a.State))
	}
	return r
}

func amount(s string) decimal.Decimal {
	d, err := decimal.NewFromString(strings.TrimSpace(s))
	if err != nil {
		return decimal.Zero
	}
	return d
}

// OSSQuery asks for an OSS return.
type OSSQuery struct {
	Scheme, Period, MemberState string
}

// OSSRow is one country and rate of a return.
type OSSRow struct {
	CountryCode, CountryName string
	Rate, Taxable, VAT       decimal.Decimal
	Transactions             int
}

// OSSReport is a One-Stop-Shop return for a month.
type OSSReport struct {
	Scheme, Period, MemberState string
	Rows                        []OSSRow
	TotalTaxable, TotalVAT      decimal.Decimal
	TotalTransactions           int
}

var periodFormat = regexp.MustCompile(`^\d{4}-(0[1-9]|1[0-2])$`)

// OSSReport sums the VAT of the month's recorded orders to EU consumers by country and
// rate for a scheme (docs/decisions/0135): union — consumers in other member states
// than member_state; non_union — services (orders with no line to ship) to consumers
// in any member state; import — goods consignments of at most EUR 150. Orders without
// VAT (reverse charge, exports) are not in a return.
func (s *Service) OSSReport(ctx context.Context, q OSSQuery) (OSSReport, error) {
	bad := map[string]string{}
	switch q.Scheme {
	case SchemeUnion, SchemeNonUnion, SchemeImport:
	case "":
		bad["scheme"] = "is required"
	default:
		bad["scheme"] = "must be one of: union, non_union, import"
	}
	if !periodFormat.MatchString(q.Period) {
		bad["period"] = "must be a month YYYY-MM"
	}
	ms := strings.ToUpper(strings.TrimSpace(q.MemberState))
	if !domain.IsEU(ms) {
		bad["member_state"] = "must be an EU member state code"
	}
	if len(bad) > 0 {
		return OSSReport{}, apperr.Validation(bad)
	}
	if s.settings.OSSMemberState != "" && ms != s.settings.OSSMemberState {
		return OSSReport{}, domain.ErrOSSReport.WithMessage("OSS report failed: the store's member state of identification is %s, not %s",
			s.settings.OSSMemberState, ms).WithField("member_state", "must be "+s.settings.OSSMemberState)
	}
	from, _ := time.Parse("2006-01", q.Period)
	orders, err := s.repo.Orders(ctx, from, from.AddDate(0, 1, 0))
	if err != nil {
		return OSSReport{}, domain.ErrOSSReport.WithCause(err)
	}
	rep := OSSReport{Scheme: q.Scheme, Period: q.Period, MemberState: ms, Rows: []OSSRow{}}
	index := map[string]int{}
	for _, o := range orders {
		if !inScheme(q.Scheme, ms, o) {
			continue
		}
		counted := false
		for _, l := range o.Lines {
			if !l.Tax.IsPositive() {
				continue
			}
			key := o.CountryCode + "|" + l.Rate.String()
			i, ok := index[key]
			if !ok {
				i = len(rep.Rows)
				index[key] = i
				rep.Rows = append(rep.Rows, OSSRow{CountryCode: o.CountryCode, CountryName: domain.CountryName(o.CountryCode), Rate: l.Rate})
			}
			row := &rep.Rows[i]
			row.Taxable, row.VAT, row.Transactions = row.Taxable.Add(l.Taxable), row.VAT.Add(l.Tax), row.Transactions+1
			rep.TotalTaxable, rep.TotalVAT = rep.TotalTaxable.Add(l.Taxable), rep.TotalVAT.Add(l.Tax)
			counted = true
		}
		if counted {
			rep.TotalTransactions++
		}
	}
	sort.SliceStable(rep.Rows, func(i, j int) bool {
		a, b := rep.Rows[i], rep.Rows[j]
		if a.CountryCode != b.CountryCode {
			return a.CountryCode < b.CountryCode
		}
		return a.Rate.GreaterThan(b.Rate)
	})
	return rep, nil
}

func inScheme(scheme, memberState string, o *ports.Order) bool {
	if !domain.IsEU(o.CountryCode) {
		return false
	}
	switch scheme {
	case SchemeUnion:
		return o.CountryCode != memberState
	case SchemeNonUnion:
		return !o.HasGoods
	default: // import
		return o.HasGoods && o.Currency == "EUR" && o.Total.LessThanOrEqual(importLimit)
	}
}
