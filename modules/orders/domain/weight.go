package domain

import "github.com/shopspring/decimal"

// Weight units the catalog knows, and their size in kilograms.
var kilogramsPer = map[string]decimal.Decimal{
	"kg": decimal.NewFromInt(1),
	"g":  decimal.New(1, -3),
	"lb": decimal.RequireFromString("0.45359237"),
	"oz": decimal.RequireFromString("0.028349523125"),
}

// WeightDecimals is how many decimals of a kilogram order weights keep (grams).
const WeightDecimals = 3

// ToKilograms converts a weight in unit (kg, g, lb, oz; kg when unknown or empty) to
// kilograms, unrounded.
func ToKilograms(w decimal.Decimal, unit string) decimal.Decimal {
	f, ok := kilogramsPer[unit]
	if !ok {
		f = kilogramsPer["kg"]
	}
	return w.Mul(f)
}

// FormatWeight writes kilograms with three decimals ("1.250").
func FormatWeight(kg decimal.Decimal) string { return kg.StringFixed(WeightDecimals) }
