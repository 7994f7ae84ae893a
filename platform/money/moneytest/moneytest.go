// Package moneytest fuzzes the parsers of client amounts (decimal strings in request
// bodies and queries), for _test.go files only.
package moneytest

import (
	"testing"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/money"
)

// Rules are what a parser promises of the amounts it accepts.
type Rules struct {
	// Positive refuses zero (a payment); amounts are never negative.
	Positive bool
	// CurrencyDecimals: at most the currency's minor units of decimals (a price);
	// otherwise at most MaxDecimals (0: any number, up to money.Bounded's).
	CurrencyDecimals bool
	MaxDecimals      int32
}

// seeds are amounts in every notation decimal.NewFromString takes, and some it does not.
var seeds = []string{"19.99", "0", "0.00", "00.10", " 5 ", "1999", "1.005", "0.0001", "0.00001", "-1", "-0", "+1", ".5", "5.",
	"1e3", "1E-2", "1e30", "1e999999999", "1e-999999999", "999999999999999", "999999999999999.9999", "1000000000000000",
	"99999999999999999999", "1_000", "0x10", "NaN", "Inf", "１２", "1.2.3", "", " ", "\x00", "12\n",
	"0.00000000000000000000000000000000000000000000000000000000000000000"}

// FuzzAmount fuzzes parse over amounts and currencies: what it accepts is non-negative
// (positive under Rules.Positive), money.Bounded, within the rules' decimals, and
// parses again from its own text to the same amount; what it refuses is a 400
// (apperr.Invalid). It never panics. `go test` runs the seeds; `make fuzz` runs longer.
func FuzzAmount(f *testing.F, r Rules, parse func(s, currency string) (decimal.Decimal, error)) {
	f.Helper()
	for i, s := range seeds {
		f.Add(s, []string{"USD", "JPY", "BHD", "CLF", "usd", "XYZ", ""}[i%7])
	}
	f.Fuzz(func(t *testing.T, s, currency string) {
		d, err := parse(s, currency)
		if err != nil {
			if e, ok := apperr.As(err); !ok || e.Kind != apperr.Invalid {
				t.Fatalf("%q %q: %v, want a validation error", s, currency, err)
			}
			return
		}
		switch {
		case d.IsNegative() || (r.Positive && d.IsZero()):
			t.Fatalf("%q %q: accepted %s", s, currency, d)
		case !money.Bounded(d):
			t.Fatalf("%q %q: accepted %s, beyond what the columns hold", s, currency, d)
		case r.CurrencyDecimals && !d.Equal(d.Round(money.MinorUnits(currency))):
			t.Fatalf("%q %q: accepted %s, more decimals than the currency has", s, currency, d)
		case r.MaxDecimals > 0 && !d.Equal(d.Round(r.MaxDecimals)):
			t.Fatalf("%q %q: accepted %s, more than %d decimals", s, currency, d, r.MaxDecimals)
		}
		again, err := parse(d.String(), currency)
		if err != nil || !again.Equal(d) {
			t.Fatalf("%q %q: accepted %s, then its own text gives %s, %v", s, currency, d, again, err)
		}
	})
}
