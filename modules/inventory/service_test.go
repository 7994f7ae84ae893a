package inventory_test

import (
	"context"
	"errors"
	"testing"

	"github.com/gocommerce/commerce/modules/inventory/api"
	"github.com/gocommerce/commerce/modules/inventory/domain"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/ids"
)

// TestInventoryAPI exercises what other modules use (api.Inventory).
func TestInventoryAPI(t *testing.T) {
	forEngine(t, func(t *testing.T, s *stack) {
		ctx := context.Background()
		var inv api.Inventory = s.svc
		p := s.catalog.add("Shirt", 1, domain.PolicyDeny, 2)
		q := s.catalog.add("Socks", 1, domain.PolicyDeny, 1)

		adj, err := inv.Adjust(ctx, api.AdjustCommand{ProductID: p.ID, VariantID: p.variant(1), Adjustment: 8, Reason: "count", Actor: "seed"})
		if err != nil || adj.LocationID != api.DefaultLocationID || adj.QuantityAfter != 8 || adj.AdjustedBy != "seed" || adj.MovementType != "in" {
			t.Fatalf("Adjust = %+v, %v", adj, err)
		}
		if _, err := inv.Adjust(ctx, api.AdjustCommand{ProductID: q.ID, Adjustment: 3}); err != nil {
			t.Fatal(err)
		}
		if _, err := inv.Adjust(ctx, api.AdjustCommand{ProductID: q.ID, Adjustment: -4}); !errors.Is(err, api.ErrInventoryNegative) {
			t.Fatalf("negative: %v", err)
		}

		// an order reserves two lines; cancelling the order releases both.
		r1, err := inv.Reserve(ctx, api.ReserveCommand{ProductID: p.ID, VariantID: p.variant(1), OrderID: "ord-1", Quantity: 2})
		if err != nil || r1.Status != api.ReservationActive || r1.LocationID != api.DefaultLocationID {
			t.Fatalf("Reserve = %+v, %v", r1, err)
		}
		if _, err := inv.Reserve(ctx, api.ReserveCommand{ProductID: q.ID, OrderID: "ord-1", Quantity: 3}); err != nil {
			t.Fatal(err)
		}
		if _, err := inv.Reserve(ctx, api.ReserveCommand{ProductID: q.ID, OrderID: "ord-2", Quantity: 1}); !errors.Is(err, api.ErrInsufficientInventory) {
			t.Fatalf("insufficient: %v", err)
		}
		totals, err := inv.Totals(ctx, []string{p.variant(1), q.variant(0), p.variant(0), "junk"})
		if err != nil || len(totals) != 4 || totals[0].Available != 6 || totals[0].Reserved != 2 || totals[0].ProductID != p.ID ||
			totals[1].Available != 0 || totals[1].Reserved != 3 || totals[2].Available != 0 || totals[2].ProductID != "" || totals[3].VariantID != "junk" {
			t.Fatalf("Totals = %+v, %v", totals, err)
		}
		out, err := inv.ReleaseOrder(ctx, "ord-1", api.ReleaseOrderCancelled)
		if err != nil || len(out) != 2 || out[0].Status != api.ReservationReleased || out[0].ReleaseReason != api.ReleaseOrderCancelled || out[0].ReleasedAt == nil {
			t.Fatalf("ReleaseOrder = %+v, %v", out, err)
		}
		if out, err := inv.ReleaseOrder(ctx, "ord-1", api.ReleaseOrderCancelled); err != nil || len(out) != 0 {
			t.Fatalf("ReleaseOrder again = %+v, %v", out, err)
		}
		totals, _ = inv.Totals(ctx, []string{p.variant(1), q.variant(0)})
		if totals[0].Available != 8 || totals[0].Reserved != 0 || totals[1].Available != 3 {
			t.Fatalf("after cancel %+v", totals)
		}

		// an order that completes commits its stock.
		r2, err := inv.Reserve(ctx, api.ReserveCommand{ProductID: q.ID, OrderID: "ord-3", Quantity: 2})
		if err != nil {
			t.Fatal(err)
		}
		c, err := inv.Commit(ctx, r2.ID)
		if err != nil || c.ReleaseReason != api.ReleaseOrderCompleted || c.Status != api.ReservationReleased {
			t.Fatalf("Commit = %+v, %v", c, err)
		}
		if _, err := inv.Commit(ctx, r2.ID); !errors.Is(err, api.ErrReservationAlreadyReleased) {
			t.Fatalf("Commit again: %v", err)
		}
		totals, _ = inv.Totals(ctx, []string{q.variant(0)})
		if totals[0].Available != 1 || totals[0].Reserved != 0 {
			t.Fatalf("after commit %+v", totals)
		}
		if _, err := inv.Release(ctx, ids.New(), api.ReleaseManual); !errors.Is(err, api.ErrReservationNotFound) {
			t.Fatalf("unknown reservation: %v", err)
		}
		if _, err := inv.Release(ctx, r2.ID, "whatever"); err == nil {
			t.Fatal("bad reason accepted")
		}
		if _, err := inv.ReleaseOrder(ctx, "ord-3", "whatever"); err == nil {
			t.Fatal("bad reason accepted by ReleaseOrder")
		}
		if _, err := inv.Reserve(ctx, api.ReserveCommand{ProductID: q.ID, Quantity: 1}); err == nil {
			t.Fatal("reservation without an order accepted")
		} else if e, ok := apperr.As(err); !ok || e.Fields["order_id"] == "" {
			t.Fatalf("reservation without an order: %v", err)
		}
		if _, err := inv.Reserve(ctx, api.ReserveCommand{ProductID: p.ID, VariantID: "x", OrderID: "o", Quantity: 1}); !errors.Is(err, api.ErrVariantNotFound) {
			t.Fatalf("bad variant: %v", err)
		}

		// joined transaction: when the caller's transaction fails, the reservation, its
		// stock change, movement and event all roll back.
		boom := errors.New("boom")
		events := len(s.Payloads(api.EventReserved, ""))
		movements := len(s.movements(p.variant(1)))
		err = s.db.InTx(ctx, func(ctx context.Context) error {
			if _, err := inv.Reserve(ctx, api.ReserveCommand{ProductID: p.ID, VariantID: p.variant(1), OrderID: "ord-9", Quantity: 5}); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("tx: %v", err)
		}
		if a, r, _ := s.level(p.variant(1), api.DefaultLocationID); a != 8 || r != 0 || len(s.Payloads(api.EventReserved, "")) != events || len(s.movements(p.variant(1))) != movements {
			t.Fatalf("rolled back reservation left traces: available %d reserved %d", a, r)
		}
		s.checkLedger(p.variant(1))
		s.checkLedger(q.variant(0))

		// locations for seeding
		loc, err := inv.CreateLocation(ctx, api.CreateLocationCommand{Name: "Depot", Code: "DEP", Country: "nl"})
		if err != nil || !ids.Valid(loc.ID) || loc.Code != "DEP" || loc.Country != "NL" || !loc.IsActive || loc.IsDefault || loc.CreatedAt.IsZero() {
			t.Fatalf("CreateLocation = %+v, %v", loc, err)
		}
		if _, err := inv.CreateLocation(ctx, api.CreateLocationCommand{Name: "Depot 2", Code: "DEP"}); !errors.Is(err, api.ErrLocationCodeTaken) {
			t.Fatalf("duplicate code: %v", err)
		}
		moved, err := inv.Transfer(ctx, api.TransferCommand{ProductID: p.ID, VariantID: p.variant(1), ToLocationID: loc.ID, Quantity: 3})
		if err != nil || moved.FromLocationID != api.DefaultLocationID || moved.Status != "completed" {
			t.Fatalf("Transfer = %+v, %v", moved, err)
		}
		got, err := inv.Receive(ctx, api.ReceiveCommand{ProductID: p.ID, VariantID: p.variant(1), LocationID: loc.ID, Quantity: 2, CostPerUnit: "4"})
		if err != nil || got.QuantityBefore != 3 || got.QuantityAfter != 5 || got.CostPerUnit == nil || *got.CostPerUnit != "4.00" {
			t.Fatalf("Receive = %+v, %v", got, err)
		}
		totals, _ = inv.Totals(ctx, []string{p.variant(1)})
		if totals[0].Available != 10 {
			t.Fatalf("total after transfer and receipt %+v", totals)
		}
		s.checkLedger(p.variant(1))
	})
}
