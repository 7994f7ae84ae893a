package domain

import (
	"regexp"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/money"
)

var decimalString = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?$`)

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

// ParseMoney reads a non-negative decimal string amount of the currency with at most
// its minor units of decimals; field names the member in the error (INVALID_PRICE).
func ParseMoney(s, currency, field string) (decimal.Decimal, error) {
	s = strings.TrimSpace(s)
	bad := func(msg string) error {
		return ErrInvalidPrice.WithMessage("%s %s", field, msg).WithField(field, msg)
	}
	if !decimalString.MatchString(s) {
		return decimal.Zero, bad("must be a non-negative decimal string such as \"19.99\"")
	}
	if whole, _, _ := strings.Cut(s, "."); len(strings.TrimLeft(whole, "0")) > 15 {
		return decimal.Zero, bad("must have at most 15 integer digits")
	}
	if _, frac, ok := strings.Cut(s, "."); ok && int32(len(strings.TrimRight(frac, "0"))) > MinorUnits(currency) {
		return decimal.Zero, bad("has more decimals than " + currency + " allows")
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Zero, bad("must be a decimal string")
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
