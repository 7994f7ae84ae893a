// Package ordersapi implements the catalog's ports.Orders on top of the orders module's
// api (its query side, which depends on no other module, so the wire graph stays
// acyclic).
package ordersapi

import (
	"context"

	"github.com/gocommerce/commerce/modules/catalog/ports"
	orders "github.com/gocommerce/commerce/modules/orders/api"
)

// Adapter is ports.Orders over orders/api.Queries.
type Adapter struct {
	orders orders.Queries
}

var _ ports.Orders = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(q orders.Queries) *Adapter { return &Adapter{orders: q} }

// ProductHasOrders reports whether any order has a line of the product (it joins the
// deleting transaction carried by ctx).
func (a *Adapter) ProductHasOrders(ctx context.Context, productID string) (bool, error) {
	return a.orders.ProductHasOrders(ctx, productID)
}
