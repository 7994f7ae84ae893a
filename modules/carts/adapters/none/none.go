// Package none holds the default adapter of a port whose module does not exist yet:
// there are no automatic discounts. Replace the binding in module.go with an adapter
// on the module's api when it exists.
package none

import (
	"context"

	"github.com/gocommerce/commerce/modules/carts/domain"
	"github.com/gocommerce/commerce/modules/carts/ports"
)

// AutomaticDiscounts reports none.
type AutomaticDiscounts struct{}

var _ ports.AutomaticDiscounts = AutomaticDiscounts{}

// NewAutomaticDiscounts builds the adapter.
func NewAutomaticDiscounts() AutomaticDiscounts { return AutomaticDiscounts{} }

// Has answers false.
func (AutomaticDiscounts) Has(context.Context, *domain.Cart) (bool, error) { return false, nil }
