package domain

import (
	"sort"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/money"
)

// MinorUnits returns the number of decimals of a currency (2 unless listed).
func MinorUnits(currency string) int32 { return money.MinorUnits(currency) }

// Round rounds an amount half-up (half away from zero) to the currency's minor unit.
func Round(d decimal.Decimal, currency string) decimal.Decimal { return money.Round(d, currency) }

// Format writes an amount with the currency's minor units ("19.90", JPY "1999").
func Format(d decimal.Decimal, currency string) string { return money.Format(d, currency) }

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
