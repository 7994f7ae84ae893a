// Package noorders is the default ports.Orders until the orders module exists: no
// product has orders.
package noorders

import (
	"context"

	"github.com/gocommerce/commerce/modules/catalog/ports"
)

// Orders answers that no order references any product.
type Orders struct{}

var _ ports.Orders = Orders{}

// New returns the adapter.
func New() Orders { return Orders{} }

// ProductHasOrders always answers false.
func (Orders) ProductHasOrders(context.Context, string) (bool, error) { return false, nil }
