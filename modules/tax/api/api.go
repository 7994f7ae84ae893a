// Package api is what other modules (checkout, carts) may import from tax: the Tax
// interface that computes the tax of a set of lines shipped to an address, its DTOs, and
// the order.created members the module reads. No framework imports.
package api

import (
	"context"

	"github.com/shopspring/decimal"
)

// Tax computes taxes.
type Tax interface {
	// Calculate taxes the lines and the shipping amount. A malformed VAT id is a
	// validation_error, one VIES rejects invalid_vat_id, a VIES outage
	// vies_unavailable (apperr values).
	Calculate(ctx context.Context, q Query) (Result, error)
}

// Address locates a buyer. Codes: ISO 3166-1 alpha-2 country, ISO 3166-2 subdivision
// without the country ("CA" for California).
type Address struct {
	CountryCode string
	RegionCode  string
	PostalCode  string
	City        string
}

// Line is one line to tax: the amount is UnitPrice × Quantity (after discounts when the
// caller spread them over the unit price).
type Line struct {
	ID            string
	ProductID     string
	Quantity      int
	UnitPrice     decimal.Decimal
	TaxCategoryID string
	IsDigital     bool
	Title         string
	SKU           string
}

// Query is one calculation. The shipping address decides, else the billing one.
type Query struct {
	Lines           []Line
	ShippingAddress *Address
	BillingAddress  *Address
	CustomerID      string
	VATID           string
	Currency        string
	ShippingAmount  decimal.Decimal
	// TaxIncluded overrides tax.default_tax_included when set.
	TaxIncluded *bool
}

// LineTax is a line's tax. TaxRateID and TaxZoneID are "" when no rate applies.
type LineTax struct {
	ItemID        string
	TaxableAmount decimal.Decimal
	TaxAmount     decimal.Decimal
	TaxRate       decimal.Decimal // a fraction: 0.19
	TaxRateID     string
	TaxZoneID     string
	ReverseCharge bool
}

// Jurisdiction is one row of the breakdown (shipping included in its rate's row).
type Jurisdiction struct {
	TaxZoneID     string
	TaxZoneName   string
	TaxRateID     string
	TaxRateName   string
	Rate          decimal.Decimal
	TaxableAmount decimal.Decimal
	TaxAmount     decimal.Decimal
}

// BreakdownRow is a Jurisdiction on the wire, a row of a tax_breakdown (the tax
// calculation's and a checkout's): the rate a fraction, the amounts formatted in the
// currency.
type BreakdownRow struct {
	TaxZoneID     string `json:"tax_zone_id"`
	TaxZoneName   string `json:"tax_zone_name"`
	TaxRateID     string `json:"tax_rate_id"`
	TaxRateName   string `json:"tax_rate_name"`
	Rate          string `json:"rate"`
	TaxableAmount string `json:"taxable_amount"`
	TaxAmount     string `json:"tax_amount"`
}

// Result is the tax of a query, rounded per line to the currency.
type Result struct {
	Lines        []LineTax
	ShippingTax  decimal.Decimal
	ShippingRate decimal.Decimal
	TotalTax     decimal.Decimal
	Breakdown    []Jurisdiction
	Currency     string
	TaxIncluded  bool
	// ReverseChargeApplied: EU B2B with a valid VAT id; every line's tax is zero.
	ReverseChargeApplied bool
	// VATIDValid is set when the query had a VAT id (always true then: an invalid one
	// is an error).
	VATIDValid *bool
}

// EventOrderCreated is the orders module's event; tax records the order's tax lines
// from its data (OSS reports, US nexus).
const EventOrderCreated = "order.created"

// OrderCreated lists the members of the order resource tax reads from order.created.
type OrderCreated struct {
	ID              string          `json:"id"`
	Currency        string          `json:"currency"`
	SubtotalPrice   string          `json:"subtotal_price"`
	TotalDiscounts  string          `json:"total_discounts"`
	TotalPrice      string          `json:"total_price"`
	CreatedAt       string          `json:"created_at"`
	ShippingAddress *OrderAddress   `json:"shipping_address"`
	BillingAddress  *OrderAddress   `json:"billing_address"`
	LineItems       []OrderLineItem `json:"line_items"`
	TaxLines        []OrderTaxLine  `json:"tax_lines"`
}

// OrderAddress is the part of an order address tax reads.
type OrderAddress struct {
	Country     string `json:"country"`
	CountryCode string `json:"country_code"`
	State       string `json:"state"`
	Province    string `json:"province_code"`
}

// OrderLineItem is the part of an order line tax reads.
type OrderLineItem struct {
	RequiresShipping bool `json:"requires_shipping"`
}

// OrderTaxLine is an order's tax line: rate is a fraction.
type OrderTaxLine struct {
	Rate  string `json:"rate"`
	Price string `json:"price"`
}
