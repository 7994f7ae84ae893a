// Package inventoryapi implements the orders module's ports.Inventory on top of the
// inventory module's api: stock is claimed and given back at the default location as
// adjustments (movements "out" with reason "order", "return" with reason "return").
package inventoryapi

import (
	"context"
	"errors"

	inventory "github.com/gocommerce/commerce/modules/inventory/api"
	"github.com/gocommerce/commerce/modules/orders/domain"
	"github.com/gocommerce/commerce/modules/orders/ports"
)

// Adapter is ports.Inventory over inventory/api.Inventory.
type Adapter struct {
	inventory inventory.Inventory
}

var _ ports.Inventory = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(i inventory.Inventory) *Adapter { return &Adapter{inventory: i} }

// Actor is how order movements are recorded (adjusted_by).
const Actor = "orders"

// Claim takes units from available stock. Obeying the policy, a shortfall under policy
// deny is INSUFFICIENT_INVENTORY (policy continue lets stock go negative, as the
// inventory module does). Ignoring the policy, the inventory module still never lets a
// deny variant go below zero, so what is there is taken (docs/decisions/0071).
func (a *Adapter) Claim(ctx context.Context, c ports.StockChange, obeyPolicy bool) (int, error) {
	_, err := a.inventory.Adjust(ctx, inventory.AdjustCommand{
		ProductID: c.ProductID, VariantID: c.VariantID, Adjustment: -c.Quantity, Reason: "order", Reference: c.Reference, Actor: Actor,
	})
	if err == nil {
		return c.Quantity, nil
	}
	if !errors.Is(err, inventory.ErrInventoryNegative) && !errors.Is(err, inventory.ErrInsufficientInventory) {
		return 0, err
	}
	if obeyPolicy {
		return 0, domain.ErrInsufficientInventory.WithMessage("Not enough stock of variant %s for %d units", c.VariantID, c.Quantity)
	}
	adj, err := a.inventory.Set(ctx, inventory.SetCommand{
		ProductID: c.ProductID, VariantID: c.VariantID, Quantity: 0, Reason: "order", Reference: c.Reference, Actor: Actor,
		Notes: "claimed ignoring the inventory policy",
	})
	if err != nil {
		return 0, err
	}
	return max(0, adj.QuantityBefore), nil
}

// Restock gives units back to available stock.
func (a *Adapter) Restock(ctx context.Context, c ports.StockChange) error {
	if c.Quantity <= 0 {
		return nil
	}
	_, err := a.inventory.Adjust(ctx, inventory.AdjustCommand{
		ProductID: c.ProductID, VariantID: c.VariantID, Adjustment: c.Quantity, Reason: "return", Reference: c.Reference, Actor: Actor,
	})
	if errors.Is(err, inventory.ErrProductNotFound) || errors.Is(err, inventory.ErrVariantNotFound) {
		// The product or variant was deleted since the order took it (DELETE with
		// force=true, decision 0025): there is no stock left to give the units back to.
		return nil
	}
	return err
}
