package domain

import (
	"testing"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/money/moneytest"
)

// Payment amounts, fuzzed (`make fuzz` runs it for longer).
func FuzzParseAmount(f *testing.F) {
	moneytest.FuzzAmount(f, moneytest.Rules{Positive: true, CurrencyDecimals: true}, func(s, currency string) (decimal.Decimal, error) {
		return ParseAmount(s, Currency(currency))
	})
}
