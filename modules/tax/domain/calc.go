package domain

import (
	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/money"
)

// Address is where goods go (or the buyer is): codes upper case.
type Address struct {
	CountryCode string
	RegionCode  string
	PostalCode  string
	City        string
}

// Line is one priced line to tax.
type Line struct {
	ID         string
	ProductID  string
	Quantity   int
	UnitPrice  decimal.Decimal
	CategoryID string
	IsDigital  bool
}

// Input is one calculation.
type Input struct {
	Lines []Line
	// Address is the shipping address, else the billing one.
	Address        Address
	ShippingAmount decimal.Decimal
	Currency       string
	// TaxIncluded: unit prices and the shipping amount include the tax.
	TaxIncluded bool
	// B2B: the buyer gave a VAT id found valid.
	B2B bool
	// Day is the calculation day (YYYY-MM-DD) that selects rates by validity.
	Day string
}

// Settings are the store's tax settings the engine reads.
type Settings struct {
	// Origin is the store's country (tax.oss_member_state, else the country of
	// tax.default_tax_zone); "" unknown.
	Origin string
	// OSS: the store is registered for the EU One-Stop-Shop (tax.enable_oss), so goods
	// sold to consumers in other member states are taxed at the buyer's rate.
	OSS bool
}

// LineTax is the tax of one line.
type LineTax struct {
	ItemID        string
	Taxable       decimal.Decimal
	Tax           decimal.Decimal
	Rate          decimal.Decimal
	RateID        string // "" when no rate applies
	ZoneID        string
	ReverseCharge bool
}

// Jurisdiction is one row of the breakdown: a rate and what it taxed.
type Jurisdiction struct {
	ZoneID   string
	ZoneName string
	RateID   string
	RateName string
	Rate     decimal.Decimal
	Taxable  decimal.Decimal
	Tax      decimal.Decimal
}

// Result is a calculation's outcome. Amounts are rounded to the currency per line
// (docs/decisions/0130); TotalTax is the sum of the lines' and the shipping's tax.
type Result struct {
	Lines           []LineTax
	ShippingTaxable decimal.Decimal
	ShippingTax     decimal.Decimal
	ShippingRate    decimal.Decimal
	TotalTax        decimal.Decimal
	Breakdown       []Jurisdiction
	Currency        string
	TaxIncluded     bool
	ReverseCharge   bool
}

// Calculate taxes the lines and the shipping amount of in by the book's rates.
//
//   - The address decides the zone; a US state taxes only with nexus (Book.Nexus).
//   - EU: a valid VAT id of a buyer in another member state than the store's is a
//     reverse charge (no tax, every line marked). Digital goods to consumers are
//     taxed at the buyer's country (OSS); other goods too when the store uses OSS
//     (or its country is unknown), else at the store's own country's rate.
//   - Each line's tax is rounded to the currency (half away from zero); with
//     TaxIncluded the price holds the tax: tax = gross − gross / (1 + rate).
//   - Shipping is taxed at the general (no category) rate by the same rules as goods.
func Calculate(b *Book, s Settings, in Input) Result {
	res := Result{Currency: in.Currency, TaxIncluded: in.TaxIncluded, Lines: make([]LineTax, 0, len(in.Lines)),
		Breakdown: []Jurisdiction{}}
	dest := in.Address.CountryCode
	res.ReverseCharge = in.B2B && IsEU(dest) && dest != s.Origin
	for _, l := range in.Lines {
		amount := l.UnitPrice.Mul(decimal.NewFromInt(int64(l.Quantity)))
		digital := l.IsDigital
		if c := b.Categories[l.CategoryID]; c != nil && c.IsDigital {
			digital = true
		}
		r, z := b.Pick(s.where(in.Address, digital || res.ReverseCharge), l.CategoryID, in.Day)
		lt := res.tax(b, r, z, amount)
		lt.ItemID = l.ID
		res.Lines = append(res.Lines, lt)
	}
	if in.ShippingAmount.IsPositive() {
		r, z := b.Pick(s.where(in.Address, res.ReverseCharge), "", in.Day)
		st := res.tax(b, r, z, in.ShippingAmount)
		res.ShippingTaxable, res.ShippingTax, res.ShippingRate = st.Taxable, st.Tax, st.Rate
	}
	res.TotalTax = res.ShippingTax
	for _, l := range res.Lines {
		res.TotalTax = res.TotalTax.Add(l.Tax)
	}
	return res
}

// where is the address whose rate applies: the buyer's, or the store's own country for
// goods sold to an EU consumer in another member state without OSS.
func (s Settings) where(a Address, digital bool) Address {
	if digital || s.OSS || !IsEU(a.CountryCode) || !IsEU(s.Origin) || a.CountryCode == s.Origin {
		return a
	}
	return Address{CountryCode: s.Origin}
}

// tax computes one amount's tax at r (nil: no tax) and adds it to the breakdown.
func (res *Result) tax(b *Book, r *Rate, z *Zone, amount decimal.Decimal) LineTax {
	lt := LineTax{Taxable: money.Round(amount, res.Currency), Tax: decimal.Zero, Rate: decimal.Zero}
	if r == nil {
		return lt
	}
	if n := b.Nexus[z.CountryCode+"-"+z.RegionCode]; n != nil && !n.Reached() {
		return lt // no nexus in the state: nothing to collect
	}
	lt.RateID, lt.ZoneID = r.ID, z.ID
	if res.ReverseCharge && (r.ReverseCharge || r.B2BExempt) {
		lt.ReverseCharge = true
		return lt
	}
	lt.Rate = r.Rate
	if res.TaxIncluded {
		gross := lt.Taxable
		lt.Tax = money.Round(gross.Sub(gross.Div(decimal.NewFromInt(1).Add(r.Rate))), res.Currency)
		lt.Taxable = gross.Sub(lt.Tax)
	} else {
		lt.Tax = money.Round(lt.Taxable.Mul(r.Rate), res.Currency)
	}
	res.add(r, z, lt)
	return lt
}

func (res *Result) add(r *Rate, z *Zone, lt LineTax) {
	for i := range res.Breakdown {
		if j := &res.Breakdown[i]; j.RateID == r.ID {
			j.Taxable, j.Tax = j.Taxable.Add(lt.Taxable), j.Tax.Add(lt.Tax)
			return
		}
	}
	res.Breakdown = append(res.Breakdown, Jurisdiction{ZoneID: z.ID, ZoneName: z.Name, RateID: r.ID, RateName: r.Name,
		Rate: r.Rate, Taxable: lt.Taxable, Tax: lt.Tax})
}
