package domain

import (
	"sort"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/money"
)

// TableCurrency is the currency the built-in rate tables are priced in.
const TableCurrency = "USD"

// referenceRates are units of a currency per US dollar: the fixed reference the
// built-in tables (and carrier answers in another currency than asked) are converted
// with (docs/decisions/0152). shipping.exchange_rates adds or replaces entries.
var referenceRates = map[string]string{
	"USD": "1", "EUR": "0.92", "GBP": "0.79", "CAD": "1.36", "AUD": "1.52", "NZD": "1.66", "JPY": "150",
	"CNY": "7.2", "HKD": "7.8", "SGD": "1.34", "CHF": "0.88", "SEK": "10.5", "NOK": "10.6", "DKK": "6.9",
	"PLN": "4.0", "CZK": "23", "MXN": "17", "BRL": "5.0", "INR": "83", "KRW": "1330", "ZAR": "18.5",
}

// Exchange converts amounts between currencies through US dollars.
type Exchange struct {
	perUSD map[string]decimal.Decimal
}

// NewExchange builds the converter from the reference rates and overrides (currency →
// units per USD; bad entries are ignored: config validation reports them).
func NewExchange(overrides map[string]string) *Exchange {
	e := &Exchange{perUSD: map[string]decimal.Decimal{}}
	for _, src := range []map[string]string{referenceRates, overrides} {
		for c, v := range src {
			if d, err := decimal.NewFromString(v); err == nil && d.IsPositive() {
				e.perUSD[c] = d
			}
		}
	}
	return e
}

// Supports reports a currency the converter knows.
func (e *Exchange) Supports(currency string) bool { _, ok := e.perUSD[currency]; return ok }

// Currencies lists the known currencies, sorted.
func (e *Exchange) Currencies() []string {
	out := make([]string, 0, len(e.perUSD))
	for c := range e.perUSD {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// Convert converts amount from one currency to another, rounded to the target's minor
// units; ok is false when either currency is unknown.
func (e *Exchange) Convert(amount decimal.Decimal, from, to string) (decimal.Decimal, bool) {
	if from == to {
		return money.Round(amount, to), true
	}
	f, okf := e.perUSD[from]
	t, okt := e.perUSD[to]
	if !okf || !okt {
		return decimal.Zero, false
	}
	return money.Round(amount.Mul(t).DivRound(f, 12), to), true
}
