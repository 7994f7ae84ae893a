package domain

import (
	"testing"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/money/moneytest"
)

// Costs per unit, fuzzed (`make fuzz` runs it for longer).
func FuzzParseCost(f *testing.F) {
	moneytest.FuzzAmount(f, moneytest.Rules{}, func(s, _ string) (decimal.Decimal, error) { return ParseCost(s) })
}
