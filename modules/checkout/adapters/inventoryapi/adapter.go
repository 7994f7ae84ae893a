// Package inventoryapi implements checkout's ports.Inventory on the inventory
// module's api.
package inventoryapi

import (
	"context"

	"github.com/gocommerce/commerce/modules/checkout/ports"
	inventory "github.com/gocommerce/commerce/modules/inventory/api"
)

// Adapter is ports.Inventory over inventory.Inventory.
type Adapter struct{ inv inventory.Inventory }

var _ ports.Inventory = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(inv inventory.Inventory) *Adapter { return &Adapter{inv: inv} }

// Reserve holds stock for every line at the default location, in one call.
func (a *Adapter) Reserve(ctx context.Context, hs []ports.Hold) ([]ports.Reservation, error) {
	cmds := make([]inventory.ReserveCommand, len(hs))
	for i, h := range hs {
		cmds[i] = inventory.ReserveCommand{ProductID: h.ProductID, VariantID: h.VariantID, OrderID: h.OrderID, Quantity: h.Quantity, TTL: h.TTL}
		if v := h.Variant; v != nil {
			cmds[i].Variant = &inventory.VariantFacts{ProductName: v.ProductTitle, LowStockThreshold: v.LowStockThreshold, Currency: v.Currency,
				Title: v.Title, SKU: v.SKU, Policy: v.Policy, IsDefault: v.IsDefault}
		}
	}
	rs, err := a.inv.ReserveAll(ctx, cmds)
	if err != nil {
		return nil, err
	}
	out := make([]ports.Reservation, len(rs))
	for i, r := range rs {
		out[i] = ports.Reservation{ID: r.ID, ExpiresAt: r.ExpiresAt}
	}
	return out, nil
}

// Commit turns the reservations still active into sold stock, in one call.
func (a *Adapter) Commit(ctx context.Context, reservationIDs []string) ([]string, error) {
	rs, err := a.inv.CommitAll(ctx, reservationIDs)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.ID
	}
	return out, nil
}

// ReleaseOrder returns the order's active reservations to stock.
func (a *Adapter) ReleaseOrder(ctx context.Context, orderID string, expired bool) error {
	reason := inventory.ReleaseOrderCancelled
	if expired {
		reason = inventory.ReleaseOrderExpired
	}
	_, err := a.inv.ReleaseOrder(ctx, orderID, reason)
	return err
}
