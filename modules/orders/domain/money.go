package domain

import (
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/money"
)

func set(s string) map[string]bool {
	out := map[string]bool{}
	for _, c := range strings.Fields(s) {
		out[c] = true
	}
	return out
}

// NormalizeCurrency upper-cases and checks an ISO 4217 code (INVALID_CURRENCY otherwise).
func NormalizeCurrency(s string) (string, error) {
	c, ok := money.Normalize(s)
	if !ok {
		return "", ErrInvalidCurrency.WithField("currency", "must be an active ISO 4217 code")
	}
	return c, nil
}

// MinorUnits is the number of decimals of a currency (2 when unknown).
func MinorUnits(currency string) int32 { return money.MinorUnits(currency) }

// ParseMoney reads an amount of the currency by the house rules (money.Parse,
// docs/decisions/0022); field names the member in the error (INVALID_PRICE).
func ParseMoney(s, currency, field string) (decimal.Decimal, error) {
	d, err := money.Parse(s, currency)
	if err != nil {
		return decimal.Zero, ErrInvalidPrice.WithMessage("%s %s", field, err).WithField(field, err.Error())
	}
	return d, nil
}

// Round rounds an amount to the currency's minor units (half away from zero).
func Round(d decimal.Decimal, currency string) decimal.Decimal { return money.Round(d, currency) }

// FormatMoney writes an amount with exactly the currency's minor units ("19.90", JPY "1999").
func FormatMoney(d decimal.Decimal, currency string) string { return money.Format(d, currency) }

// Units is an amount as an integer of 10^-4 units, for exact filters and sorting on
// both engines.
func Units(d decimal.Decimal) int64 { return d.Shift(4).Round(0).IntPart() }
