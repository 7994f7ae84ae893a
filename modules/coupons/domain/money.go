package domain

import (
	"sort"

	"github.com/shopspring/decimal"
)

// minorUnits maps ISO 4217 codes whose minor unit is not 2 to their number of
// decimals; every other currency has 2.
var minorUnits = map[string]int32{
	"BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0, "PYG": 0,
	"RWF": 0, "UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
	"BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
	"CLF": 4, "UYW": 4,
}

// MinorUnits returns the number of decimals of a currency (2 unless listed).
func MinorUnits(currency string) int32 {
	if n, ok := minorUnits[currency]; ok {
		return n
	}
	return 2
}

// Round rounds an amount half-up (half away from zero) to the currency's minor unit.
func Round(d decimal.Decimal, currency string) decimal.Decimal {
	return d.Round(MinorUnits(currency))
}

// Format writes an amount with the currency's minor units ("19.90", JPY "1999").
func Format(d decimal.Decimal, currency string) string {
	return d.StringFixed(MinorUnits(currency))
}

// Allocate splits total (already rounded to the currency's minor unit, 0 <= total <=
// sum of weights) across the weights in proportion (docs/decisions/0062): each share is
// total x weight / sum rounded half-up to the minor unit; the difference between total
// and the sum of the shares is then put on the largest weight (ties: the later one),
// spilling to the next largest only if a share would leave [0, weight]. The shares
// always add up to total exactly and no share exceeds its weight.
func Allocate(total decimal.Decimal, weights []decimal.Decimal, currency string) []decimal.Decimal {
	shares := make([]decimal.Decimal, len(weights))
	sum := decimal.Zero
	for _, w := range weights {
		sum = sum.Add(w)
	}
	for i := range shares {
		shares[i] = decimal.Zero
	}
	if !total.IsPositive() || !sum.IsPositive() {
		return shares
	}
	if total.GreaterThan(sum) {
		total = sum
	}
	allocated := decimal.Zero
	for i, w := range weights {
		shares[i] = Round(total.Mul(w).Div(sum), currency)
		allocated = allocated.Add(shares[i])
	}
	diff := total.Sub(allocated)
	if diff.IsZero() {
		return shares
	}
	order := make([]int, len(weights))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		wa, wb := weights[order[a]], weights[order[b]]
		if !wa.Equal(wb) {
			return wa.GreaterThan(wb)
		}
		return order[a] > order[b]
	})
	for _, i := range order {
		if diff.IsZero() {
			break
		}
		next := shares[i].Add(diff)
		switch {
		case next.GreaterThan(weights[i]):
			diff = next.Sub(weights[i])
			shares[i] = weights[i]
		case next.IsNegative():
			diff = next
			shares[i] = decimal.Zero
		default:
			shares[i] = next
			diff = decimal.Zero
		}
	}
	return shares
}

// FormatAmount writes a coupon amount, which has no currency of its own: at least two
// decimals and at most four ("10.00", "12.5" -> "12.50", "0.125" -> "0.125").
func FormatAmount(d decimal.Decimal) string {
	s := d.StringFixed(maxDecimals)
	for i := 0; i < maxDecimals-2 && s[len(s)-1] == '0'; i++ {
		s = s[:len(s)-1]
	}
	return s
}
