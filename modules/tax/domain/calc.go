package domain

import (
	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/tax/api"
	"github.com/gocommerce/commerce/platform/money"
)

// Address is where goods go (or the buyer is): codes upper case.
type Address = api.Address

// Input is one calculation.
type Input struct {
	// Lines are the lines to tax, as api.Tax receives them (TaxCategoryID trimmed).
	Lines []api.Line
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
func Calculate(b *Book, s Settings, in Input) api.Result {
	res := result{Result: api.Result{Currency: in.Currency, TaxIncluded: in.TaxIncluded,
		Lines: make([]api.LineTax, 0, len(in.Lines)), Breakdown: []api.Jurisdiction{}}}
	dest := in.Address.CountryCode
	res.ReverseChargeApplied = in.B2B && IsEU(dest) && dest != s.Origin
	for _, l := range in.Lines {
		amount := l.UnitPrice.Mul(decimal.NewFromInt(int64(l.Quantity)))
		digital := l.IsDigital
		if c := b.Categories[l.TaxCategoryID]; c != nil && c.IsDigital {
			digital = true
		}
		r, z := b.Pick(s.where(in.Address, digital || res.ReverseChargeApplied), l.TaxCategoryID, in.Day)
		lt := res.tax(b, r, z, amount)
		lt.ItemID = l.ID
		res.Lines = append(res.Lines, lt)
	}
	res.ShippingTax, res.ShippingRate = decimal.Zero, decimal.Zero
	if in.ShippingAmount.IsPositive() {
		r, z := b.Pick(s.where(in.Address, res.ReverseChargeApplied), "", in.Day)
		st := res.tax(b, r, z, in.ShippingAmount)
		res.ShippingTax, res.ShippingRate = st.TaxAmount, st.TaxRate
	}
	res.TotalTax = res.ShippingTax
	for _, l := range res.Lines {
		res.TotalTax = res.TotalTax.Add(l.TaxAmount)
	}
	return res.Result
}

// result is a calculation under way.
type result struct{ api.Result }

// where is the address whose rate applies: the buyer's, or the store's own country for
// goods sold to an EU consumer in another member state without OSS.
func (s Settings) where(a Address, digital bool) Address {
	if digital || s.OSS || !IsEU(a.CountryCode) || !IsEU(s.Origin) || a.CountryCode == s.Origin {
		return a
	}
	return Address{CountryCode: s.Origin}
}

// tax computes one amount's tax at r (nil: no tax) and adds it to the breakdown.
func (res *result) tax(b *Book, r *Rate, z *Zone, amount decimal.Decimal) api.LineTax {
	lt := api.LineTax{TaxableAmount: money.Round(amount, res.Currency), TaxAmount: decimal.Zero, TaxRate: decimal.Zero}
	if r == nil {
		return lt
	}
	if n := b.Nexus[z.CountryCode+"-"+z.RegionCode]; n != nil && !n.Reached() {
		return lt // no nexus in the state: nothing to collect
	}
	lt.TaxRateID, lt.TaxZoneID = r.ID, z.ID
	if res.ReverseChargeApplied && (r.ReverseCharge || r.B2BExempt) {
		lt.ReverseCharge = true
		return lt
	}
	lt.TaxRate = r.Rate
	if res.TaxIncluded {
		gross := lt.TaxableAmount
		lt.TaxAmount = money.Round(gross.Sub(gross.Div(decimal.NewFromInt(1).Add(r.Rate))), res.Currency)
		lt.TaxableAmount = gross.Sub(lt.TaxAmount)
	} else {
		lt.TaxAmount = money.Round(lt.TaxableAmount.Mul(r.Rate), res.Currency)
	}
	res.add(r, z, lt)
	return lt
}

func (res *result) add(r *Rate, z *Zone, lt api.LineTax) {
	for i := range res.Breakdown {
		if j := &res.Breakdown[i]; j.TaxRateID == r.ID {
			j.TaxableAmount, j.TaxAmount = j.TaxableAmount.Add(lt.TaxableAmount), j.TaxAmount.Add(lt.TaxAmount)
			return
		}
	}
	res.Breakdown = append(res.Breakdown, api.Jurisdiction{TaxZoneID: z.ID, TaxZoneName: z.Name, TaxRateID: r.ID,
		TaxRateName: r.Name, Rate: r.Rate, TaxableAmount: lt.TaxableAmount, TaxAmount: lt.TaxAmount})
}
