// Package taxapi implements checkout's ports.Tax on the tax module's api.
package taxapi

import (
	"context"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/checkout/domain"
	"github.com/gocommerce/commerce/modules/checkout/ports"
	tax "github.com/gocommerce/commerce/modules/tax/api"
)

// Adapter is ports.Tax over tax.Tax.
type Adapter struct{ tax tax.Tax }

var _ ports.Tax = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(t tax.Tax) *Adapter { return &Adapter{tax: t} }

func address(a *domain.Address) *tax.Address {
	if a == nil {
		return nil
	}
	return &tax.Address{CountryCode: a.CountryCode, RegionCode: a.RegionCode, PostalCode: a.PostalCode, City: a.City}
}

// Calculate taxes the lines (each at its amount after its discount) and the shipping.
func (a *Adapter) Calculate(ctx context.Context, q ports.TaxQuery) (domain.Tax, error) {
	ship := q.ShippingAddress
	in := tax.Query{ShippingAddress: address(&ship), BillingAddress: address(q.BillingAddress), CustomerID: q.CustomerID, VATID: q.VATID,
		Currency: q.Currency, ShippingAmount: q.Shipping, Lines: make([]tax.Line, len(q.Lines))}
	for i, l := range q.Lines {
		line := tax.Line{ID: l.ItemID, ProductID: l.ProductID, Quantity: l.Quantity, UnitPrice: l.UnitPrice, Title: l.Title, SKU: l.SKU}
		if !l.UnitPrice.Mul(decimal.NewFromInt(int64(l.Quantity))).Equal(l.Amount) {
			// A discounted line: its taxable amount as one unit, so no rounding is lost.
			line.Quantity, line.UnitPrice = 1, l.Amount
		}
		in.Lines[i] = line
	}
	r, err := a.tax.Calculate(ctx, in)
	if err != nil {
		return domain.Tax{}, err
	}
	out := domain.Tax{ItemTax: decimal.Zero, ShippingTax: r.ShippingTax, ShippingRate: r.ShippingRate, ReverseCharge: r.ReverseChargeApplied,
		VATIDValid: r.VATIDValid, Breakdown: make([]domain.TaxBreakdown, len(r.Breakdown))}
	for _, l := range r.Lines {
		out.Lines = append(out.Lines, domain.LineTax{ItemID: l.ItemID, TaxableAmount: l.TaxableAmount, TaxAmount: l.TaxAmount, Rate: l.TaxRate,
			RateID: l.TaxRateID, ZoneID: l.TaxZoneID, ReverseCharge: l.ReverseCharge})
		out.ItemTax = out.ItemTax.Add(l.TaxAmount)
	}
	for i, b := range r.Breakdown {
		out.Breakdown[i] = domain.TaxBreakdown{ZoneID: b.TaxZoneID, ZoneName: b.TaxZoneName, RateID: b.TaxRateID, RateName: b.TaxRateName,
			Rate: b.Rate, TaxableAmount: b.TaxableAmount, TaxAmount: b.TaxAmount}
	}
	return out, nil
}
