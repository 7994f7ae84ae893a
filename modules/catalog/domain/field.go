package domain

import (
	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/patch"
)

// Field groups a product and its variants share (the default variant mirrors them).

var weightUnits = []string{"kg", "g", "lb", "oz"}

// applyWeight applies weight (a non-negative decimal, at most 4 decimals) and weight_unit.
func applyWeight(bad patch.Problems, weight, unit patch.Field[string], w *decimal.Decimal, u *string) {
	patch.Apply(bad, "weight", weight, w, func(s string) (decimal.Decimal, string) {
		d, ok := ParseWeight(s)
		if !ok {
			return d, "must be a non-negative decimal such as \"1.25\" (at most 4 decimals)"
		}
		return d, ""
	})
	patch.OneOf(bad, "weight_unit", unit, u, weightUnits...)
}

// applyStock applies inventory_quantity (0 to MaxInventoryQuantity) and inventory_policy.
func applyStock(bad patch.Problems, quantity patch.Field[int], policy patch.Field[string], q *int, p *string) {
	patch.Apply(bad, "inventory_quantity", quantity, q, checkCount)
	patch.OneOf(bad, "inventory_policy", policy, p, PolicyDeny, PolicyContinue)
}

// checkCount bounds a quantity or threshold to 0..MaxInventoryQuantity.
func checkCount(n int) (int, string) {
	if n < 0 || n > MaxInventoryQuantity {
		return n, "must be from 0 to 1000000000"
	}
	return n, ""
}
