// Package cartsapi implements notifications' ports.IdleCarts on top of the carts
// module's api package (its read side, api.Queries).
package cartsapi

import (
	"context"
	"time"

	carts "github.com/gocommerce/commerce/modules/carts/api"
	"github.com/gocommerce/commerce/modules/notifications/ports"
)

// Adapter translates the carts module's idle carts into the sweep's candidates.
type Adapter struct{ queries carts.Queries }

var _ ports.IdleCarts = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(q carts.Queries) *Adapter { return &Adapter{queries: q} }

// IdleCustomerCarts implements ports.IdleCarts.
func (a *Adapter) IdleCustomerCarts(ctx context.Context, before time.Time, after ports.CartActivity, limit int) ([]ports.CartActivity, error) {
	cs, err := a.queries.IdleCustomerCarts(ctx, before, carts.IdleCart{ID: after.CartID, UpdatedAt: after.LastActiveAt}, limit)
	if err != nil {
		return nil, err
	}
	out := make([]ports.CartActivity, len(cs))
	for i, c := range cs {
		out[i] = ports.CartActivity{CartID: c.ID, CustomerID: c.CustomerID, Currency: c.Currency, Total: c.Total,
			ItemCount: c.ItemCount, LastActiveAt: c.UpdatedAt}
	}
	return out, nil
}
