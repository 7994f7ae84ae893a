// Package taxapi implements the carts module's ports.Tax on top of the tax module's
// api (docs/decisions/0137).
package taxapi

import (
	"context"

	"github.com/shopspring/decimal"

	tax "github.com/gocommerce/commerce/modules/tax/api"

	"github.com/gocommerce/commerce/modules/carts/ports"
)

// Adapter taxes a cart through the tax module.
type Adapter struct {
	tax tax.Tax
}

var _ ports.Tax = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(t tax.Tax) *Adapter { return &Adapter{tax: t} }

// Calculate taxes the cart's lines and shipping at the shipping address. Without an
// address there is no destination, so no tax (zero, an empty breakdown). Each line is
// sent as one unit at the line's amount after discounts, so that the tax module's
// per-line rounding applies to exactly the amount the cart charges; a line that needs
// no shipping is digital (taxed where the buyer is). The breakdown has a row per tax
// zone, named by the zone.
func (a *Adapter) Calculate(ctx context.Context, q ports.TaxQuery) (ports.TaxResult, error) {
	none := ports.TaxResult{Total: decimal.Zero, Breakdown: []ports.TaxJurisdiction{}}
	if q.ShippingAddress == nil {
		return none, nil
	}
	lines := make([]tax.Line, len(q.Lines))
	for i, l := range q.Lines {
		lines[i] = tax.Line{ID: string(l.ItemID), ProductID: l.ProductID, Quantity: 1, UnitPrice: l.Amount, IsDigital: !l.RequiresShipping}
	}
	to := &tax.Address{CountryCode: q.ShippingAddress.Country, RegionCode: q.ShippingAddress.Region,
		PostalCode: q.ShippingAddress.PostalCode, City: q.ShippingAddress.City}
	res, err := a.tax.Calculate(ctx, tax.Query{Lines: lines, ShippingAddress: to, CustomerID: q.CustomerID,
		Currency: q.Currency, ShippingAmount: q.ShippingTotal})
	if err != nil {
		return ports.TaxResult{}, err
	}
	out := none
	out.Total, out.Included = res.TotalTax, res.TaxIncluded
	for _, j := range res.Breakdown {
		name := j.TaxZoneName
		if name == "" {
			name = j.TaxZoneID
		}
		out.Breakdown = append(out.Breakdown, ports.TaxJurisdiction{Jurisdiction: name, Rate: j.Rate, Amount: j.TaxAmount})
	}
	return out, nil
}
