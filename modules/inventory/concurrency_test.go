package inventory_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/gocommerce/commerce/modules/inventory/api"
	"github.com/gocommerce/commerce/modules/inventory/domain"
)

// parallel runs fn n times at once and returns the errors.
func parallel(n int, fn func(i int) error) []error {
	var (
		wg    sync.WaitGroup
		start = make(chan struct{})
		errs  = make([]error, n)
	)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs[i] = fn(i)
		}()
	}
	close(start)
	wg.Wait()
	return errs
}

// TestConcurrentReservations: 50 concurrent reservations of the last 10 units reserve
// exactly 10, and available never goes negative (issue 3), on PostgreSQL with real
// parallel transactions and on SQLite.
func TestConcurrentReservations(t *testing.T) {
	forEngine(t, func(t *testing.T, s *stack) {
		ctx := context.Background()
		p := s.stocked("Last units", 2, 1, 10)
		errs := parallel(50, func(i int) error {
			_, err := s.svc.Reserve(ctx, api.ReserveCommand{ProductID: p.ID, LocationID: defaultLoc, OrderID: fmt.Sprintf("order-%d", i), Quantity: 1})
			return err
		})
		ok, refused := 0, 0
		for _, err := range errs {
			switch {
			case err == nil:
				ok++
			case errors.Is(err, api.ErrInsufficientInventory):
				refused++
			default:
				t.Errorf("unexpected error: %v", err)
			}
		}
		if ok != 10 || refused != 40 {
			t.Fatalf("%d reserved, %d refused; want 10 and 40", ok, refused)
		}
		if a, r, _ := s.level(p.variant(0), defaultLoc); a != 0 || r != 10 {
			t.Fatalf("available %d reserved %d, want 0 and 10", a, r)
		}
		var negatives int64
		s.db.Gorm().Table("inventory_movements").Where("quantity_after < 0").Count(&negatives)
		if negatives != 0 {
			t.Fatalf("%d movements went below zero", negatives)
		}
		if n := len(s.Payloads(api.EventReserved, "")); n != 10 {
			t.Fatalf("%d reserved events, want 10", n)
		}
		s.checkLedger(p.variant(0))

		// the same reservation released by many at once: exactly one wins.
		var active []string
		s.db.Gorm().Table("inventory_reservations").Where("status = 'active'").Order("id").Limit(1).Pluck("id", &active)
		errs = parallel(10, func(int) error {
			_, err := s.svc.Release(ctx, active[0], api.ReleaseOrderCancelled)
			return err
		})
		won := 0
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case errors.Is(err, api.ErrReservationAlreadyReleased):
			default:
				t.Errorf("unexpected release error: %v", err)
			}
		}
		if a, r, _ := s.level(p.variant(0), defaultLoc); won != 1 || a != 1 || r != 9 {
			t.Fatalf("%d releases won; available %d reserved %d", won, a, r)
		}
		s.checkLedger(p.variant(0))
	})
}

// TestConcurrentChangesKeepTotals: concurrent adjustments of one variant at two
// locations are serialised per product, so the total the catalog was told last is
// the true sum.
func TestConcurrentChangesKeepTotals(t *testing.T) {
	forEngine(t, func(t *testing.T, s *stack) {
		ctx := context.Background()
		loc, err := s.svc.CreateLocation(ctx, api.CreateLocationCommand{Name: "Second"})
		if err != nil {
			t.Fatal(err)
		}
		p := s.catalog.add("Busy", 2, domain.PolicyDeny, 2)
		errs := parallel(30, func(i int) error {
			where := defaultLoc
			if i%2 == 1 {
				where = loc.ID
			}
			_, err := s.svc.Adjust(ctx, api.AdjustCommand{ProductID: p.ID, VariantID: p.variant(i % 2), LocationID: where, Adjustment: 2, Reason: "found"})
			if err != nil {
				return err
			}
			_, err = s.svc.Transfer(ctx, api.TransferCommand{ProductID: p.ID, VariantID: p.variant(i % 2), FromLocationID: where, ToLocationID: map[bool]string{true: loc.ID, false: defaultLoc}[where == defaultLoc], Quantity: 1})
			return err
		})
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		for i := range 2 {
			if got, _ := s.catalog.total(p.variant(i)); got != 30 {
				t.Fatalf("variant %d: catalog total %d, want 30", i, got)
			}
			s.checkLedger(p.variant(i))
		}
	})
}

// TestConcurrentReserveAll: 30 concurrent two-line reservations (1 lamp and 2 desks
// each, 10 lamps and 12 desks in stock) reserve exactly 6 carts, every one whole: no
// line of a refused cart stays reserved, nothing oversells; then their commits and the
// refused carts' nothing leave the ledger consistent.
func TestConcurrentReserveAll(t *testing.T) {
	forEngine(t, func(t *testing.T, s *stack) {
		ctx := context.Background()
		lamp, desk := s.stocked("Lamp", 0, 1, 10), s.stocked("Desk", 0, 1, 12)
		reserved := make([][]api.Reservation, 30)
		errs := parallel(30, func(i int) error {
			order := fmt.Sprintf("order-%d", i)
			var err error
			reserved[i], err = s.svc.ReserveAll(ctx, []api.ReserveCommand{
				{ProductID: lamp.ID, OrderID: order, Quantity: 1}, {ProductID: desk.ID, OrderID: order, Quantity: 2},
			})
			return err
		})
		var ok []int
		for i, err := range errs {
			switch {
			case err == nil:
				ok = append(ok, i)
			case !errors.Is(err, api.ErrInsufficientInventory):
				t.Errorf("unexpected error: %v", err)
			}
		}
		if len(ok) != 6 {
			t.Fatalf("%d carts reserved, want 6", len(ok))
		}
		if a, res, _ := s.level(desk.variant(0), defaultLoc); a != 0 || res != 12 {
			t.Fatalf("desks: available %d reserved %d", a, res)
		}
		if a, res, _ := s.level(lamp.variant(0), defaultLoc); a != 4 || res != 6 {
			t.Fatalf("lamps: available %d reserved %d", a, res)
		}
		errs = parallel(len(ok), func(i int) error {
			r := reserved[ok[i]]
			_, err := s.svc.CommitAll(ctx, []string{r[0].ID, r[1].ID})
			return err
		})
		for _, err := range errs {
			if err != nil {
				t.Errorf("commit: %v", err)
			}
		}
		if a, res, _ := s.level(lamp.variant(0), defaultLoc); a != 4 || res != 0 {
			t.Fatalf("lamps after commit: available %d reserved %d", a, res)
		}
		s.checkLedger(lamp.variant(0))
		s.checkLedger(desk.variant(0))
	})
}
