// Package taxtest offers other modules' tests a stand-in for api.Tax.
package taxtest

import (
	"context"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/tax/api"
	"github.com/gocommerce/commerce/platform/money"
)

// Flat is an api.Tax that taxes every line and the shipping at one rate (a fraction),
// rounding per line, with one breakdown row; Err, when set, is every answer.
type Flat struct {
	Rate decimal.Decimal
	Err  error
}

var _ api.Tax = Flat{}

// Calculate taxes q at the flat rate (prices exclusive of tax).
func (f Flat) Calculate(_ context.Context, q api.Query) (api.Result, error) {
	if f.Err != nil {
		return api.Result{}, f.Err
	}
	res := api.Result{Currency: q.Currency, Lines: make([]api.LineTax, len(q.Lines)), Breakdown: []api.Jurisdiction{}}
	taxable := decimal.Zero
	for i, l := range q.Lines {
		amount := money.Round(l.UnitPrice.Mul(decimal.NewFromInt(int64(l.Quantity))), q.Currency)
		tax := money.Round(amount.Mul(f.Rate), q.Currency)
		res.Lines[i] = api.LineTax{ItemID: l.ID, TaxableAmount: amount, TaxAmount: tax, TaxRate: f.Rate, TaxRateID: "flat", TaxZoneID: "flat"}
		res.TotalTax, taxable = res.TotalTax.Add(tax), taxable.Add(amount)
	}
	res.ShippingTax, res.ShippingRate = money.Round(q.ShippingAmount.Mul(f.Rate), q.Currency), f.Rate
	res.TotalTax = res.TotalTax.Add(res.ShippingTax)
	if res.TotalTax.IsPositive() {
		res.Breakdown = append(res.Breakdown, api.Jurisdiction{TaxZoneID: "flat", TaxZoneName: "Flat", TaxRateID: "flat",
			TaxRateName: "Flat", Rate: f.Rate, TaxableAmount: taxable.Add(q.ShippingAmount), TaxAmount: res.TotalTax})
	}
	return res, nil
}
