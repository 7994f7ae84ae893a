package money

import "github.com/shopspring/decimal"

// Bounded reports whether d has at most MaxIntegerDigits integer digits: an amount the
// columns hold, whose integer units (d.Shift(4).Round(0)) fit an int64. Parsers of
// client amounts check it: decimal.NewFromString takes any number of digits and
// exponents up to decimal.MaxDecodeExponent, so "1e30" or "99999999999999999999" would
// wrap around int64 (a filter comparing with a garbage number) or overflow the column.
// Decimals are not bounded here (the columns round them), only their exponent, to
// decimal's own parsing limit, so that rounding stays cheap for any value.
func Bounded(d decimal.Decimal) bool {
	exp := int64(d.Exponent())
	return exp >= -int64(decimal.MaxDecodeExponent) && int64(d.NumDigits())+exp <= MaxIntegerDigits
}
