// Package none holds the default adapters of ports whose modules do not exist yet:
// shipping prices every method at zero, and there are no automatic discounts. Replace each binding in module.go with an
// adapter on the module's api when it exists.
package none

import (
	"context"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/carts/domain"
	"github.com/gocommerce/commerce/modules/carts/ports"
)

// Shipping prices every method at zero.
type Shipping struct{}

var _ ports.Shipping = Shipping{}

// NewShipping builds the adapter.
func NewShipping() Shipping { return Shipping{} }

// Price answers zero.
func (Shipping) Price(context.Context, ports.ShippingQuery) (decimal.Decimal, error) {
	return decimal.Zero, nil
}

// AutomaticDiscounts reports none.
type AutomaticDiscounts struct{}

var _ ports.AutomaticDiscounts = AutomaticDiscounts{}

// NewAutomaticDiscounts builds the adapter.
func NewAutomaticDiscounts() AutomaticDiscounts { return AutomaticDiscounts{} }

// Has answers false.
func (AutomaticDiscounts) Has(context.Context, *domain.Cart) (bool, error) { return false, nil }
