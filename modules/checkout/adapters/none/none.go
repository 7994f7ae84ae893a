// Package none holds the default adapters of checkout's ports whose modules are not
// wired yet: tax answers zero with an empty breakdown, shipping offers no rates (an
// order then has no shipping line). module.go binds the tax and shipping modules'
// adapters (taxapi, shippingapi) instead once those modules exist.
package none

import (
	"context"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/checkout/domain"
	"github.com/gocommerce/commerce/modules/checkout/ports"
)

// Tax answers no tax.
type Tax struct{}

var _ ports.Tax = Tax{}

// NewTax builds the adapter.
func NewTax() Tax { return Tax{} }

// Calculate answers zero for every line and an empty breakdown.
func (Tax) Calculate(_ context.Context, q ports.TaxQuery) (domain.Tax, error) {
	out := domain.Tax{ItemTax: decimal.Zero, ShippingTax: decimal.Zero, ShippingRate: decimal.Zero, Breakdown: []domain.TaxBreakdown{}}
	for _, l := range q.Lines {
		out.Lines = append(out.Lines, domain.LineTax{ItemID: l.ItemID, TaxableAmount: l.Amount, TaxAmount: decimal.Zero, Rate: decimal.Zero})
	}
	return out, nil
}

// Shipping offers no rates.
type Shipping struct{}

var _ ports.Shipping = Shipping{}

// NewShipping builds the adapter.
func NewShipping() Shipping { return Shipping{} }

// Rates answers none.
func (Shipping) Rates(context.Context, ports.RateQuery) ([]domain.Rate, error) { return nil, nil }
