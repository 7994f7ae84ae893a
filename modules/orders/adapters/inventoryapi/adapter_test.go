package inventoryapi_test

import (
	"context"
	"errors"
	"testing"

	inventory "github.com/gocommerce/commerce/modules/inventory/api"
	"github.com/gocommerce/commerce/modules/orders/adapters/inventoryapi"
	"github.com/gocommerce/commerce/modules/orders/ports"
)

// fakeInventory answers every adjustment with err and records the commands.
type fakeInventory struct {
	inventory.Inventory
	err  error
	cmds []inventory.AdjustCommand
}

func (f *fakeInventory) Adjust(_ context.Context, cmd inventory.AdjustCommand) (inventory.Adjustment, error) {
	f.cmds = append(f.cmds, cmd)
	return inventory.Adjustment{}, f.err
}

// Giving units back to a product or variant deleted since (DELETE ?force=true) has
// nothing to give them to: it succeeds without a movement; other errors are answered.
func TestRestock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	change := ports.StockChange{ProductID: "p1", VariantID: "v1", Quantity: 2, Reference: "order o1"}
	down := errors.New("database down")
	for _, c := range []struct {
		err, want error
	}{
		{nil, nil},
		{inventory.ErrProductNotFound, nil},
		{inventory.ErrVariantNotFound.WithMessage("Variant not found"), nil},
		{inventory.ErrInvalidQuantity, inventory.ErrInvalidQuantity},
		{down, down},
	} {
		f := &fakeInventory{err: c.err}
		err := inventoryapi.NewAdapter(f).Restock(ctx, change)
		if (c.want == nil) != (err == nil) || (c.want != nil && !errors.Is(err, c.want)) {
			t.Errorf("%v: Restock = %v, want %v", c.err, err, c.want)
		}
		if len(f.cmds) != 1 || f.cmds[0].Adjustment != 2 || f.cmds[0].Reason != "return" || f.cmds[0].VariantID != "v1" {
			t.Errorf("%v: commands %+v", c.err, f.cmds)
		}
	}
	// Nothing to give back: no call.
	f := &fakeInventory{}
	if err := inventoryapi.NewAdapter(f).Restock(ctx, ports.StockChange{ProductID: "p1", Quantity: 0}); err != nil || len(f.cmds) != 0 {
		t.Errorf("zero quantity: %v, %d calls", err, len(f.cmds))
	}
}
