package domain

import (
	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/money"
)

// Line is a cart line as checkout prices it.
type Line struct {
	ItemID, ProductID, VariantID, Title, VariantTitle, SKU string
	Quantity                                               int
	UnitPrice                                              decimal.Decimal
	Subtotal                                               decimal.Decimal // unit price × quantity
	Discount                                               decimal.Decimal // coupon discount of the line
	RequiresShipping                                       bool
}

// Taxable is the line's amount after its discount.
func (l Line) Taxable() decimal.Decimal { return l.Subtotal.Sub(l.Discount) }

// LineTax is the tax of one line.
type LineTax struct {
	ItemID                         string
	TaxableAmount, TaxAmount, Rate decimal.Decimal
	RateID, ZoneID, Title          string
	ReverseCharge                  bool
}

// TaxBreakdown is the tax of one jurisdiction (zone and rate).
type TaxBreakdown struct {
	ZoneID, ZoneName, RateID, RateName string
	Rate, TaxableAmount, TaxAmount     decimal.Decimal
}

// Tax is a tax calculation's answer.
type Tax struct {
	Lines         []LineTax
	ItemTax       decimal.Decimal
	ShippingTax   decimal.Decimal
	ShippingRate  decimal.Decimal
	Breakdown     []TaxBreakdown
	ReverseCharge bool
	VATIDValid    *bool
}

// Totals are a session's money figures, in the cart's currency.
type Totals struct {
	Lines            []Line
	Subtotal         decimal.Decimal
	LineDiscount     decimal.Decimal
	Shipping         decimal.Decimal // the chosen rate's price
	ShippingDiscount decimal.Decimal
	Tax              Tax
}

// DiscountTotal is the line and shipping discounts.
func (t Totals) DiscountTotal() decimal.Decimal { return t.LineDiscount.Add(t.ShippingDiscount) }

// ShippingTotal is the shipping after its discount.
func (t Totals) ShippingTotal() decimal.Decimal { return t.Shipping.Sub(t.ShippingDiscount) }

// TaxTotal is the item and shipping tax.
func (t Totals) TaxTotal() decimal.Decimal { return t.Tax.ItemTax.Add(t.Tax.ShippingTax) }

// Total is what the customer pays: subtotal less discounts, plus shipping and tax
// (prices exclude tax).
func (t Totals) Total() decimal.Decimal {
	return t.Subtotal.Sub(t.LineDiscount).Add(t.ShippingTotal()).Add(t.TaxTotal())
}

// NewTotals prices lines with their discounts and a shipping price less its discount
// (capped at the price), rounded to the currency; tax is added later.
func NewTotals(currency string, lines []Line, shipping, shippingDiscount decimal.Decimal) Totals {
	t := Totals{Lines: lines, Subtotal: decimal.Zero, LineDiscount: decimal.Zero, Shipping: money.Round(shipping, currency),
		Tax: Tax{ItemTax: decimal.Zero, ShippingTax: decimal.Zero, ShippingRate: decimal.Zero}}
	for i := range t.Lines {
		l := &t.Lines[i]
		l.Subtotal = money.Round(l.UnitPrice.Mul(decimal.NewFromInt(int64(l.Quantity))), currency)
		l.Discount = decimal.Min(money.Round(l.Discount, currency), l.Subtotal)
		t.Subtotal = t.Subtotal.Add(l.Subtotal)
		t.LineDiscount = t.LineDiscount.Add(l.Discount)
	}
	t.ShippingDiscount = decimal.Min(money.Round(shippingDiscount, currency), t.Shipping)
	return t
}

// RequiresShipping reports whether any line ships.
func (t Totals) RequiresShipping() bool {
	for _, l := range t.Lines {
		if l.RequiresShipping {
			return true
		}
	}
	return false
}
