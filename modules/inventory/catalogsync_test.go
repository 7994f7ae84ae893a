package inventory_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gocommerce/commerce/modules/inventory/api"
	"github.com/gocommerce/commerce/modules/inventory/domain"
	"github.com/gocommerce/commerce/platform/jobs"
)

// A reservation reports the variants' totals to the catalog once it has committed, in
// the background; a reservation whose caller passes the variants' facts does not read
// the catalog; the periodic sweep reports again the totals of the variants reserved
// since its last run, so a lost sync is made good (docs/decisions/0229).
func TestReservationCatalogSync(t *testing.T) {
	forEngine(t, func(t *testing.T, s *stack) {
		ctx := context.Background()
		p := s.stocked("Sync", 0, 2, 10)
		s.set(p, 1, defaultLoc, 4)
		v0, v1 := p.variant(0), p.variant(1)

		reads := s.catalog.reads
		facts := func(i int) *api.VariantFacts {
			v := p.variants[i]
			return &api.VariantFacts{ProductName: v.ProductName, LowStockThreshold: v.LowStockThreshold, Currency: v.Currency,
				Title: v.Title, SKU: v.SKU, Policy: string(v.Policy), IsDefault: v.IsDefault}
		}
		_, err := s.svc.ReserveAll(ctx, []api.ReserveCommand{
			{ProductID: p.ID, VariantID: v0, OrderID: "o-1", Quantity: 3, Variant: facts(0)},
			{ProductID: p.ID, VariantID: v1, OrderID: "o-1", Quantity: 1, Variant: facts(1)},
		})
		if err != nil {
			t.Fatal(err)
		}
		if s.catalog.reads != reads {
			t.Fatalf("a reservation with the variants' facts read the catalog %d times", s.catalog.reads-reads)
		}
		if a, r, _ := s.level(v0, defaultLoc); a != 7 || r != 3 {
			t.Fatalf("level: available %d reserved %d", a, r)
		}
		// the background sync (total waits for it)
		if got, _ := s.catalog.total(v0); got != 7 {
			t.Fatalf("catalog total of v0 %d, want 7", got)
		}
		if got, _ := s.catalog.total(v1); got != 3 {
			t.Fatalf("catalog total of v1 %d, want 3", got)
		}
		// A command without facts: the catalog is read.
		if _, err := s.svc.Reserve(ctx, api.ReserveCommand{ProductID: p.ID, VariantID: v1, OrderID: "o-2", Quantity: 1}); err != nil {
			t.Fatal(err)
		}
		if s.catalog.reads == reads {
			t.Fatal("a reservation without facts did not read the catalog")
		}
		if got, _ := s.catalog.total(v1); got != 2 {
			t.Fatalf("catalog total of v1 %d, want 2", got)
		}

		// A lost sync: the catalog's total is wrong until the sweep runs.
		lose := func(variantID string) {
			if err := s.db.Gorm().Exec("UPDATE test_catalog_totals SET quantity = 99 WHERE variant_id = ?", variantID).Error; err != nil {
				t.Fatal(err)
			}
		}
		lose(v0)
		reg := &fakeRegistry{handlers: map[string]jobs.Handler{}, every: map[string]time.Duration{}}
		s.module.RegisterJobs(reg)
		sweep := reg.handlers["inventory:catalog_sync"]
		if sweep == nil || reg.every["inventory:catalog_sync"] != time.Minute {
			t.Fatalf("jobs registered: %v %v", reg.handlers, reg.every)
		}
		if err := sweep(ctx, nil); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.catalog.total(v0); got != 7 {
			t.Fatalf("catalog total of v0 after the sweep %d, want 7", got)
		}
		// A run looks back to its previous run's start (less a minute) only.
		s.clock.Advance(5 * time.Minute)
		if n, err := s.svc.ReconcileCatalog(ctx); err != nil || n != 2 {
			t.Fatalf("ReconcileCatalog = %d, %v (both variants reserved since the previous run)", n, err)
		}
		s.clock.Advance(5 * time.Minute)
		lose(v0)
		if n, err := s.svc.ReconcileCatalog(ctx); err != nil || n != 0 {
			t.Fatalf("ReconcileCatalog = %d, %v (nothing reserved since)", n, err)
		}
		if _, err := s.svc.Reserve(ctx, api.ReserveCommand{ProductID: p.ID, VariantID: v0, OrderID: "o-3", Quantity: 1}); err != nil {
			t.Fatal(err)
		}
		lose(v0)
		if n, err := s.svc.ReconcileCatalog(ctx); err != nil || n != 1 {
			t.Fatalf("ReconcileCatalog = %d, %v (one variant reserved since)", n, err)
		}
		if got, _ := s.catalog.total(v0); got != 6 {
			t.Fatalf("catalog total of v0 after the second sweep %d, want 6", got)
		}
		s.checkLedger(v0)
		s.checkLedger(v1)
	})
}

// A round of the background sync reports everything gathered during its delay, in
// batches (of 25 variants) one after the other: reservations of 60 variants at once
// all reach the catalog (docs/decisions/0239).
func TestCatalogSyncRoundOfSeveralBatches(t *testing.T) {
	forEngine(t, func(t *testing.T, s *stack) {
		ctx := context.Background()
		var cmds []api.ReserveCommand
		want := map[string]int{} // variant: its total after the reservations
		for i := range 3 {
			p := s.catalog.add(fmt.Sprintf("Round %d", i), 0, domain.PolicyDeny, 20)
			for v := range 20 {
				s.set(p, v, defaultLoc, 10+v)
				cmds = append(cmds, api.ReserveCommand{ProductID: p.ID, VariantID: p.variant(v), OrderID: "round", Quantity: 1 + v%3})
				want[p.variant(v)] = 10 + v - (1 + v%3)
			}
		}
		if _, err := s.svc.ReserveAll(ctx, cmds); err != nil {
			t.Fatal(err)
		}
		for variant, total := range want {
			if got, _ := s.catalog.total(variant); got != total {
				t.Fatalf("catalog total of %s = %d, want %d", variant, got, total)
			}
		}
	})
}
