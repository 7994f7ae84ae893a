package domain

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/shopspring/decimal"
)

// maxIntegerDigits bounds amounts to what numeric(20,4) holds.
const maxIntegerDigits = 15

var decimalPattern = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?$`)

// ParseAmount parses a money amount of currency: a non-negative decimal string with at
// most the currency's minor units of decimals (e.g. "19.99", "1999" for JPY). Anything
// else is ErrInvalidPrice naming field.
func ParseAmount(field, raw, currency string) (decimal.Decimal, error) {
	s := strings.TrimSpace(raw)
	if strings.HasPrefix(s, "-") {
		return decimal.Zero, ErrInvalidPrice.WithMessage("%s must not be negative", field).WithField(field, "must not be negative")
	}
	if !decimalPattern.MatchString(s) {
		return decimal.Zero, ErrInvalidPrice.WithMessage("%s must be a decimal string such as \"19.99\"", field).WithField(field, "must be a decimal string such as \"19.99\"")
	}
	intPart, frac, _ := strings.Cut(s, ".")
	if len(strings.TrimLeft(intPart, "0")) > maxIntegerDigits {
		return decimal.Zero, ErrInvalidPrice.WithMessage("%s is too large", field).WithField(field, "is too large")
	}
	if minor := MinorUnits(currency); int32(len(strings.TrimRight(frac, "0"))) > minor {
		msg := fmt.Sprintf("must have at most %d decimal places for %s", minor, currency)
		return decimal.Zero, ErrInvalidPrice.WithMessage("%s %s", field, msg).WithField(field, msg)
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Zero, ErrInvalidPrice.WithField(field, "must be a decimal string such as \"19.99\"")
	}
	return d, nil
}

// FitsCurrency reports whether d has no more decimals than the currency's minor units.
func FitsCurrency(d decimal.Decimal, currency string) bool {
	return d.Equal(d.Round(MinorUnits(currency)))
}

// FormatAmount writes an amount with the currency's minor units ("19.90", "1999").
func FormatAmount(d decimal.Decimal, currency string) string {
	return d.StringFixed(MinorUnits(currency))
}

// ParseWeight parses a non-negative decimal weight (at most 4 decimals).
func ParseWeight(raw string) (decimal.Decimal, bool) {
	s := strings.TrimSpace(raw)
	if !decimalPattern.MatchString(s) {
		return decimal.Zero, false
	}
	intPart, frac, _ := strings.Cut(s, ".")
	if len(strings.TrimLeft(intPart, "0")) > maxIntegerDigits || len(strings.TrimRight(frac, "0")) > 4 {
		return decimal.Zero, false
	}
	d, err := decimal.NewFromString(s)
	return d, err == nil
}
