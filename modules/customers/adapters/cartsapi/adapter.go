// Package cartsapi implements the customers module's ports.Carts on top of the carts
// module's api (its query side, which depends on no other module, so the wire graph
// stays acyclic: docs/decisions/0108).
package cartsapi

import (
	"context"

	carts "github.com/gocommerce/commerce/modules/carts/api"
	"github.com/gocommerce/commerce/modules/customers/adapters/internal/export"
	"github.com/gocommerce/commerce/modules/customers/ports"
)

// Adapter is ports.Carts over carts/api.Queries.
type Adapter struct {
	carts carts.Queries
}

var _ ports.Carts = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(q carts.Queries) *Adapter { return &Adapter{carts: q} }

// ExportCarts returns every cart of the customer as the carts API shows it (with its
// items), plus its status and the order it became.
func (a *Adapter) ExportCarts(ctx context.Context, customerID string) ([]ports.Record, error) {
	list, err := a.carts.ExportCarts(ctx, customerID)
	if err != nil {
		return nil, err
	}
	return export.Records(list, "cart", func(v carts.ExportedCart) string { return v.ID })
}
