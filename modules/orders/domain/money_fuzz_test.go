package domain

import (
	"testing"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/money/moneytest"
)

// Order amounts, fuzzed (`make fuzz` runs it for longer).
func FuzzParseMoney(f *testing.F) {
	moneytest.FuzzAmount(f, moneytest.Rules{CurrencyDecimals: true}, func(s, currency string) (decimal.Decimal, error) {
		return ParseMoney(s, currency, "amount")
	})
}
