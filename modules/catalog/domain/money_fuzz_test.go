package domain

import (
	"testing"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/money/moneytest"
)

// Prices and weights, fuzzed (`make fuzz` runs them for longer).
func FuzzParseAmount(f *testing.F) {
	moneytest.FuzzAmount(f, moneytest.Rules{CurrencyDecimals: true}, func(s, currency string) (decimal.Decimal, error) {
		return ParseAmount("price", s, currency)
	})
}

func FuzzParseWeight(f *testing.F) {
	moneytest.FuzzAmount(f, moneytest.Rules{MaxDecimals: 4}, func(s, _ string) (decimal.Decimal, error) {
		d, ok := ParseWeight(s)
		if !ok {
			return d, ErrInvalidPrice
		}
		return d, nil
	})
}
