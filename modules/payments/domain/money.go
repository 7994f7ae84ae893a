package domain

import (
	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/money"
)

// Currency is an upper-case ISO 4217 code.
type Currency string

// ParseCurrency normalises and checks an ISO 4217 code (INVALID_CURRENCY otherwise).
func ParseCurrency(s string) (Currency, error) {
	c, ok := money.Normalize(s)
	if !ok {
		return "", ErrInvalidCurrency
	}
	return Currency(c), nil
}

// KnownCurrency reports whether c is an ISO 4217 code this service knows.
func KnownCurrency(c string) bool { return money.Valid(c) }

// MinorUnits is the number of decimals of the currency (ISO 4217).
func (c Currency) MinorUnits() int32 { return money.MinorUnits(string(c)) }

// ParseAmount reads a decimal string amount of the currency by the house rules
// (money.Parse, docs/decisions/0022), and positive (INVALID_AMOUNT).
func ParseAmount(s string, c Currency) (decimal.Decimal, error) {
	d, err := money.Parse(s, string(c))
	if err != nil {
		return decimal.Zero, ErrInvalidAmount.WithMessage("Amount %s", err)
	}
	if !d.IsPositive() {
		return decimal.Zero, ErrInvalidAmount
	}
	return d, nil
}

// FormatAmount writes an amount with exactly the currency's minor units ("19.99", JPY "1999").
func FormatAmount(d decimal.Decimal, c Currency) string { return money.Format(d, string(c)) }

// ToMinor converts an amount to integer minor units (cents).
func ToMinor(d decimal.Decimal, c Currency) int64 { return d.Shift(c.MinorUnits()).Round(0).IntPart() }

// FromMinor converts integer minor units back to an amount.
func FromMinor(minor int64, c Currency) decimal.Decimal {
	return decimal.New(minor, -c.MinorUnits())
}

// Currencies lists every ISO 4217 code the service knows, in ascending order.
func Currencies() []string { return money.Codes() }
