// Package ordersapi implements shipping's ports.Orders on top of the orders module's
// api (its query side, which depends on no other module, so the wire graph stays
// acyclic). The orders api offers no call to record a fulfillment's tracking: the
// orders module can react to shipment.created instead (docs/decisions/0154).
package ordersapi

import (
	"context"

	orders "github.com/gocommerce/commerce/modules/orders/api"
	"github.com/gocommerce/commerce/modules/shipping/ports"
)

// Adapter is ports.Orders over orders/api.Queries.
type Adapter struct {
	orders orders.Queries
}

var _ ports.Orders = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(q orders.Queries) *Adapter { return &Adapter{orders: q} }

// Order returns the order (orders' ORDER_NOT_FOUND when unknown) with its resource.
func (a *Adapter) Order(ctx context.Context, id string) (ports.Order, error) {
	o, err := a.orders.GetOrder(ctx, id)
	if err != nil {
		return ports.Order{}, err
	}
	out := ports.Order{ID: o.ID, Resource: o}
	if o.CustomerID != nil {
		out.CustomerID = *o.CustomerID
	}
	return out, nil
}
