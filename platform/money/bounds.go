package money

import "github.com/shopspring/decimal"

// MaxIntegerDigits is the most integer digits an amount has: numeric(20,4) columns hold
// 16, and the amounts the API takes have at most 15.
const MaxIntegerDigits = 15

// maxScale bounds the decimals of an amount taken for a comparison: beyond the columns'
// four they only round, and the bound keeps the rounding cheap.
const maxScale = 64

// Bounded reports whether d has at most MaxIntegerDigits integer digits and at most 64
// decimals: an amount the columns hold, whose integer units (d.Shift(4).Round(0)) fit
// an int64. decimal.NewFromString takes exponents up to 10000 and any number of
// digits, so "1e30" or "99999999999999999999" would wrap around int64 (a filter
// comparing with a garbage number): parsers of client amounts check Bounded.
func Bounded(d decimal.Decimal) bool {
	exp := int64(d.Exponent())
	return exp >= -maxScale && int64(d.NumDigits())+exp <= MaxIntegerDigits
}
