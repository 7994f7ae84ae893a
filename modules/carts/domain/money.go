package domain

import (
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/money"
)

// MinorUnits returns the number of decimals of a currency (2 unless listed), from the
// shared ISO 4217 table, so cart amounts show as product prices do.
func MinorUnits(currency string) int32 { return money.MinorUnits(currency) }

// Format writes an amount with the currency's minor units ("19.90", JPY "1999").
func Format(d decimal.Decimal, currency string) string { return money.Format(d, currency) }

// Round rounds half-up (away from zero) to the currency's minor unit.
func Round(d decimal.Decimal, currency string) decimal.Decimal { return money.Round(d, currency) }

// DefaultCurrency is a new cart's currency when the request names none.
const DefaultCurrency = "USD"

// NormalizeCurrency upper-cases a currency code and checks it is an active ISO 4217
// code; "" is DefaultCurrency.
func NormalizeCurrency(code string) (string, error) {
	if strings.TrimSpace(code) == "" {
		return DefaultCurrency, nil
	}
	c, ok := money.Normalize(code)
	if !ok {
		return "", ErrInvalidCurrency
	}
	return c, nil
}
