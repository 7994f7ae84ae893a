package domain

import (
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/money"
)

// ParseCost reads a cost per unit: a non-negative decimal string.
func ParseCost(s string) (decimal.Decimal, error) {
	d, err := decimal.NewFromString(strings.TrimSpace(s))
	if err != nil || d.IsNegative() || strings.ContainsAny(s, "eE") || !money.Bounded(d) {
		return decimal.Zero, apperr.Validation(map[string]string{"cost_per_unit": "must be a non-negative decimal string"})
	}
	return d, nil
}

// MinorUnits is the number of decimals of an ISO 4217 currency, in any case (2 unless
// listed).
func MinorUnits(currency string) int32 { return money.MinorUnits(strings.ToUpper(currency)) }

// FormatMoney writes an amount with the currency's minor units ("19.99", JPY "1999").
// An amount with more decimals than the currency has keeps them rather than rounding
// a recorded cost away.
func FormatMoney(d decimal.Decimal, currency string) string {
	units := MinorUnits(currency)
	if -d.Exponent() > units && !d.Equal(d.Round(units)) {
		return d.String()
	}
	return d.StringFixed(units)
}
