package domain

import (
	"regexp"
	"strings"

	"github.com/shopspring/decimal"
)

// zeroDecimal and threeDecimal list the ISO 4217 currencies whose minor unit is not 2.
var (
	zeroDecimal  = set("BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF")
	threeDecimal = set("BHD IQD JOD KWD LYD OMR TND")
	// currencies are the active ISO 4217 codes accepted anywhere.
	currencies = set(`AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD
BTN BWP BYN BZD CAD CDF CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL
GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD
KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK
NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP
STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VES VND VUV WST XAF XCD XOF XPF
YER ZAR ZMW ZWG`)
	decimalString = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?$`)
)

func set(s string) map[string]bool {
	out := map[string]bool{}
	for _, c := range strings.Fields(s) {
		out[c] = true
	}
	return out
}

// Currency is an upper-case ISO 4217 code.
type Currency string

// ParseCurrency normalises and checks an ISO 4217 code (INVALID_CURRENCY otherwise).
func ParseCurrency(s string) (Currency, error) {
	c := strings.ToUpper(strings.TrimSpace(s))
	if !currencies[c] {
		return "", ErrInvalidCurrency
	}
	return Currency(c), nil
}

// KnownCurrency reports whether c is an ISO 4217 code this service knows.
func KnownCurrency(c string) bool { return currencies[c] }

// MinorUnits is the number of decimals of the currency (ISO 4217).
func (c Currency) MinorUnits() int32 {
	switch {
	case zeroDecimal[string(c)]:
		return 0
	case threeDecimal[string(c)]:
		return 3
	default:
		return 2
	}
}

// ParseAmount reads a decimal string amount of the currency: positive, digits with an
// optional fraction, and no more decimals than the currency has (INVALID_AMOUNT).
func ParseAmount(s string, c Currency) (decimal.Decimal, error) {
	s = strings.TrimSpace(s)
	if !decimalString.MatchString(s) {
		return decimal.Zero, ErrInvalidAmount
	}
	if whole, _, _ := strings.Cut(s, "."); len(strings.TrimLeft(whole, "0")) > 15 {
		return decimal.Zero, ErrInvalidAmount.WithMessage("Amount has more than 15 integer digits")
	}
	if _, frac, ok := strings.Cut(s, "."); ok && int32(len(strings.TrimRight(frac, "0"))) > c.MinorUnits() {
		return decimal.Zero, ErrInvalidAmount.WithMessage("Amount has more decimals than %s allows (%d)", c, c.MinorUnits())
	}
	d, err := decimal.NewFromString(s)
	if err != nil || !d.IsPositive() {
		return decimal.Zero, ErrInvalidAmount
	}
	return d, nil
}

// FormatAmount writes an amount with exactly the currency's minor units ("19.99", JPY "1999").
func FormatAmount(d decimal.Decimal, c Currency) string { return d.StringFixed(c.MinorUnits()) }

// ToMinor converts an amount to integer minor units (cents).
func ToMinor(d decimal.Decimal, c Currency) int64 { return d.Shift(c.MinorUnits()).Round(0).IntPart() }

// FromMinor converts integer minor units back to an amount.
func FromMinor(minor int64, c Currency) decimal.Decimal {
	return decimal.New(minor, -c.MinorUnits())
}

// Currencies lists every ISO 4217 code the service knows (unordered).
func Currencies() []string {
	out := make([]string, 0, len(currencies))
	for c := range currencies {
		out = append(out, c)
	}
	return out
}
