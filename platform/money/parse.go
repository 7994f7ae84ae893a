package money

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
)

// MaxIntegerDigits bounds the integer part of an amount: what numeric(20,4) holds and
// what SQLite's REAL compares exactly (docs/decisions/0022).
const MaxIntegerDigits = 15

// StoredDecimals is how many decimals the database keeps of any amount (numeric(20,4)):
// the bound for amounts that are not in a currency (a coupon's value, a cost, a weight).
const StoredDecimals int32 = 4

// Problem says why an amount was refused.
type Problem int

const (
	// NotDecimal: not digits with an optional fraction ("19.99", "20"): empty, a sign
	// other than '-', an exponent ("1e3"), NaN, Infinity, ".5", "5.", spaces inside.
	NotDecimal Problem = iota + 1
	// Negative: a leading '-'.
	Negative
	// TooLarge: more than MaxIntegerDigits integer digits (leading zeros do not count).
	TooLarge
	// TooPrecise: more decimals than allowed (trailing zeros do not count).
	TooPrecise
)

// ParseError is the error of Parse and ParseDecimal. Its message is the problem in the
// words of a field message ("must not be negative"), so that a caller can name the field:
// `price must not be negative`.
type ParseError struct {
	Problem  Problem
	Decimals int32  // the decimals allowed (TooPrecise)
	Currency string // the currency, when the amount had one
}

func (e *ParseError) Error() string {
	switch e.Problem {
	case Negative:
		return "must not be negative"
	case TooLarge:
		return fmt.Sprintf("must have at most %d integer digits", MaxIntegerDigits)
	case TooPrecise:
		if e.Currency != "" {
			return fmt.Sprintf("must have at most %d decimal places for %s", e.Decimals, e.Currency)
		}
		return fmt.Sprintf("must have at most %d decimal places", e.Decimals)
	default:
		return `must be a decimal string such as "19.99"`
	}
}

// Parse reads an amount of currency written as a string, by the house rules
// (docs/decisions/0022): digits with an optional fraction ("19.99", "20", "0.5"),
// surrounding white space ignored; never negative, never an exponent, NaN or an empty
// string, at most MaxIntegerDigits integer digits and no more decimals than the
// currency's minor units ("1.999" USD and "10.5" JPY are refused, not rounded; "19.990"
// USD is 19.99). The error is a *ParseError. currency must be upper case; a code the
// table does not list has DefaultMinorUnits.
func Parse(s, currency string) (decimal.Decimal, error) {
	return parse(s, MinorUnits(currency), currency)
}

// ParseDecimal reads a non-negative decimal string with at most decimals decimals by
// the same rules as Parse, for amounts without a currency (StoredDecimals) and other
// decimals that follow them (a weight).
func ParseDecimal(s string, decimals int32) (decimal.Decimal, error) {
	return parse(s, decimals, "")
}

func parse(s string, decimals int32, currency string) (decimal.Decimal, error) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "-") {
		return decimal.Zero, &ParseError{Problem: Negative}
	}
	whole, frac, dot := strings.Cut(s, ".")
	if !digits(whole) || (dot && !digits(frac)) {
		return decimal.Zero, &ParseError{Problem: NotDecimal}
	}
	if len(strings.TrimLeft(whole, "0")) > MaxIntegerDigits {
		return decimal.Zero, &ParseError{Problem: TooLarge}
	}
	if int32(len(strings.TrimRight(frac, "0"))) > decimals {
		return decimal.Zero, &ParseError{Problem: TooPrecise, Decimals: decimals, Currency: currency}
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Zero, &ParseError{Problem: NotDecimal}
	}
	return d, nil
}

// digits reports a non-empty run of ASCII digits.
func digits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
