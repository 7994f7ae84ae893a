// Package domain holds the tax module's records (zones, rates, categories, nexus), the
// EU VAT id formats and the calculation engine. Plain Go: money is decimal.Decimal,
// days are "YYYY-MM-DD" strings, time comes from the caller.
package domain

import (
	"sort"
	"time"

	"github.com/shopspring/decimal"
)

// Zone types.
const (
	ZoneCountry = "country"
	ZoneState   = "state"
)

// VAT types.
const (
	VATStandard = "standard"
	VATReduced  = "reduced"
)

// RateTypePercentage is the one rate type: rate is a decimal fraction of the amount.
const RateTypePercentage = "percentage"

// Zone is a tax jurisdiction: a country, or a region (state) of one.
type Zone struct {
	ID          string
	Name        string
	Code        string
	CountryCode string
	RegionCode  string // "" for a whole country
	ZoneType    string
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// Matches reports whether an address lies in the zone.
func (z *Zone) Matches(a Address) bool {
	return z.CountryCode == a.CountryCode && (z.RegionCode == "" || z.RegionCode == a.RegionCode)
}

// Category is a tax category of products.
type Category struct {
	ID            string
	Name          string
	Code          string
	Description   string
	IsDigital     bool
	IsFood        bool
	IsLuxury      bool
	IsMedical     bool
	IsEducational bool
}

// Rate is a tax rate of a zone, for one category or ("" CategoryID) for everything.
type Rate struct {
	ID            string
	Name          string
	ZoneID        string
	CategoryID    string
	Rate          decimal.Decimal // a fraction: 0.19
	RateType      string
	IsVAT         bool
	VATType       string // "" for a sales tax
	B2BExempt     bool
	ReverseCharge bool
	ValidFrom     string // YYYY-MM-DD
	ValidUntil    string // YYYY-MM-DD, inclusive; "" open-ended
	Priority      int
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// ValidOn reports whether the rate applies on day (YYYY-MM-DD): from ValidFrom to
// ValidUntil, both inclusive.
func (r *Rate) ValidOn(day string) bool {
	return r.ValidFrom <= day && (r.ValidUntil == "" || day <= r.ValidUntil)
}

// Nexus is a US state's economic-nexus rule and the store's recorded sales there.
type Nexus struct {
	CountryCode           string
	RegionCode            string
	SalesThreshold        decimal.Decimal
	TransactionsThreshold int // 0: no count threshold
	// Registered: the merchant registered in the state (docs/decisions/0136).
	Registered bool
	// Sales and Transactions are the recorded figures of the current or previous
	// calendar year, whichever is higher.
	Sales        decimal.Decimal
	Transactions int
}

// Reached reports whether the store has nexus in the state.
func (n *Nexus) Reached() bool {
	if n.Registered || (n.SalesThreshold.IsPositive() && n.Sales.GreaterThanOrEqual(n.SalesThreshold)) {
		return true
	}
	return n.TransactionsThreshold > 0 && n.Transactions >= n.TransactionsThreshold
}

// Book is everything the engine reads: zones, rates, categories and nexus by
// "COUNTRY-REGION". It is built once and read by many requests; never changed.
type Book struct {
	Zones      map[string]*Zone
	Rates      []*Rate // highest priority first
	Categories map[string]*Category
	Nexus      map[string]*Nexus
}

// NewBook indexes the records.
func NewBook(zones []*Zone, rates []*Rate, cats []*Category, nexus []*Nexus) *Book {
	b := &Book{Zones: map[string]*Zone{}, Categories: map[string]*Category{}, Nexus: map[string]*Nexus{}}
	for _, z := range zones {
		b.Zones[z.ID] = z
	}
	for _, c := range cats {
		b.Categories[c.ID] = c
	}
	for _, n := range nexus {
		b.Nexus[n.CountryCode+"-"+n.RegionCode] = n
	}
	b.Rates = append([]*Rate(nil), rates...)
	sort.SliceStable(b.Rates, func(i, j int) bool { return b.better(b.Rates[i], b.Rates[j]) })
	return b
}

// better orders rates: higher priority, then the more specific zone (a region over its
// country), then a category's own rate over the general one, then the later
// valid_from, then the id.
func (b *Book) better(x, y *Rate) bool {
	if x.Priority != y.Priority {
		return x.Priority > y.Priority
	}
	xr, yr := b.regional(x), b.regional(y)
	if xr != yr {
		return xr
	}
	if (x.CategoryID != "") != (y.CategoryID != "") {
		return x.CategoryID != ""
	}
	if x.ValidFrom != y.ValidFrom {
		return x.ValidFrom > y.ValidFrom
	}
	return x.ID < y.ID
}

func (b *Book) regional(r *Rate) bool {
	z := b.Zones[r.ZoneID]
	return z != nil && z.RegionCode != ""
}

// Pick returns the rate for an address, a category ("" for none) and a day: among the
// rates of the zones the address lies in, for the category or for every category,
// valid on the day, the best by priority (docs/decisions/0130). Nil when none applies.
func (b *Book) Pick(a Address, category, day string) (*Rate, *Zone) {
	for _, r := range b.Rates {
		if r.CategoryID != "" && r.CategoryID != category {
			continue
		}
		z := b.Zones[r.ZoneID]
		if z != nil && z.Matches(a) && r.ValidOn(day) {
			return r, z
		}
	}
	return nil, nil
}

// RateFilter selects the rates GET /tax/rates lists.
type RateFilter struct {
	CountryCode string
	RegionCode  string // "": every zone of the country
	CategoryID  string // "": every category
	Day         string
}

// List returns the rates valid on the day in the country's zones (the region's and the
// country-wide ones when a region is given), best first.
func (b *Book) List(f RateFilter) []*Rate {
	out := []*Rate{}
	for _, r := range b.Rates {
		z := b.Zones[r.ZoneID]
		if z == nil || z.CountryCode != f.CountryCode || !r.ValidOn(f.Day) {
			continue
		}
		if f.RegionCode != "" && z.RegionCode != "" && z.RegionCode != f.RegionCode {
			continue
		}
		if f.CategoryID != "" && r.CategoryID != "" && r.CategoryID != f.CategoryID {
			continue
		}
		out = append(out, r)
	}
	return out
}
