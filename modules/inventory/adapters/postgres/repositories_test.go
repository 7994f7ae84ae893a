package postgres_test

import (
	"context"
	"errors"
	"testing"
	"time"

	inventorypg "github.com/gocommerce/commerce/modules/inventory/adapters/postgres"
	"github.com/gocommerce/commerce/modules/inventory/domain"
	"github.com/gocommerce/commerce/modules/inventory/ports"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/testdb"
)

// TestRepositories runs the repositories' contract on every engine.
func TestRepositories(t *testing.T) {
	testdb.EachOpen(t, func(t *testing.T, e *testdb.Engine) {
		ctx := context.Background()
		now := time.Date(2026, 11, 22, 10, 0, 0, 123456000, time.UTC)
		locations := inventorypg.NewLocationRepository(e.DB)
		levels := inventorypg.NewLevelRepository(e.DB)
		reservations := inventorypg.NewReservationRepository(e.DB)
		processed := inventorypg.NewProcessedEvents(e.DB)

		// the migration's default location
		def, err := locations.Get(ctx, domain.DefaultLocationID)
		if err != nil || !def.IsDefault || !def.IsActive || def.Name != "Default location" || def.Code != "default" ||
			!def.CreatedAt.Equal(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)) {
			t.Fatalf("default location = %+v, %v", def, err)
		}
		l, _ := domain.NewLocation(ids.New(), domain.NewLocationInput{Name: "B", Code: "B"}, now)
		if err := locations.Create(ctx, l); err != nil {
			t.Fatal(err)
		}
		dup, _ := domain.NewLocation(ids.New(), domain.NewLocationInput{Name: "C", Code: "B"}, now)
		if err := locations.Create(ctx, dup); !errors.Is(err, domain.ErrLocationCodeTaken) {
			t.Fatalf("duplicate code: %v", err)
		}
		for range 2 { // several locations without a code
			nc, _ := domain.NewLocation(ids.New(), domain.NewLocationInput{Name: "No code"}, now)
			if err := locations.Create(ctx, nc); err != nil {
				t.Fatalf("location without code: %v", err)
			}
		}
		if _, err := locations.Get(ctx, ids.New()); !errors.Is(err, domain.ErrLocationNotFound) {
			t.Fatalf("unknown location: %v", err)
		}

		// levels: ensure is idempotent; apply honours its guards.
		productID := ids.New()
		k := ports.LevelKey{ProductID: productID, VariantID: ids.New(), LocationID: domain.DefaultLocationID}
		if err := levels.UpsertProduct(ctx, ports.ProductInfo{ID: productID, Name: "Mug", LowStockThreshold: 2}, now); err != nil {
			t.Fatal(err)
		}
		if err := levels.UpsertProduct(ctx, ports.ProductInfo{ID: productID, Name: "Mug 2", LowStockThreshold: 3}, now); err != nil {
			t.Fatal(err)
		}
		if ok, err := levels.LockProduct(ctx, productID, now); err != nil || !ok {
			t.Fatalf("LockProduct = %v, %v", ok, err)
		}
		if ok, err := levels.LockProduct(ctx, ids.New(), now); err != nil || ok {
			t.Fatalf("LockProduct unknown = %v, %v", ok, err)
		}
		for range 2 {
			if q, err := levels.Ensure(ctx, k, now); err != nil || q != (domain.Quantities{}) {
				t.Fatalf("Ensure = %+v, %v", q, err)
			}
		}
		if err := levels.Apply(ctx, k, domain.Quantities{Available: 3}, ports.Guard{NonNegativeAvailable: true}, now); err != nil {
			t.Fatal(err)
		}
		if err := levels.Apply(ctx, k, domain.Quantities{Available: -4}, ports.Guard{NonNegativeAvailable: true}, now); !errors.Is(err, ports.ErrGuard) {
			t.Fatalf("guarded decrease: %v", err)
		}
		if err := levels.Apply(ctx, k, domain.Quantities{Reserved: -1}, ports.Guard{}, now); !errors.Is(err, ports.ErrGuard) {
			t.Fatalf("negative reserved: %v", err)
		}
		if err := levels.Apply(ctx, k, domain.Quantities{Available: -4, Reserved: 4}, ports.Guard{}, now); err != nil {
			t.Fatalf("unguarded decrease: %v", err)
		}
		if q, found, err := levels.Find(ctx, k); err != nil || !found || q != (domain.Quantities{Available: -1, Reserved: 4}) {
			t.Fatalf("Find = %+v %v %v", q, found, err)
		}
		if err := levels.Apply(ctx, ports.LevelKey{VariantID: ids.New(), LocationID: domain.DefaultLocationID}, domain.Quantities{Available: 1}, ports.Guard{}, now); !errors.Is(err, ports.ErrGuard) {
			t.Fatalf("missing level: %v", err)
		}
		// ApplyAll: one statement for several levels, deltas of one key added up; a
		// level that fails its guard refuses all (the caller rolls back).
		p2 := ids.New()
		ka := ports.LevelKey{ProductID: p2, VariantID: ids.New(), LocationID: domain.DefaultLocationID}
		kb := ports.LevelKey{ProductID: p2, VariantID: ids.New(), LocationID: domain.DefaultLocationID}
		for _, k := range []ports.LevelKey{ka, kb} {
			if _, err := levels.Ensure(ctx, k, now); err != nil {
				t.Fatal(err)
			}
		}
		if err := levels.ApplyAll(ctx, []ports.LevelDelta{{Key: ka, Delta: domain.Quantities{Available: 5}}, {Key: kb, Delta: domain.Quantities{Available: 2}},
			{Key: ka, Delta: domain.Quantities{Available: 1, Incoming: 4}}}, now); err != nil {
			t.Fatal(err)
		}
		guarded := ports.Guard{NonNegativeAvailable: true}
		refused := e.DB.InTx(ctx, func(ctx context.Context) error {
			return levels.ApplyAll(ctx, []ports.LevelDelta{{Key: ka, Delta: domain.Quantities{Available: -1, Reserved: 1}, Guard: guarded},
				{Key: kb, Delta: domain.Quantities{Available: -3, Reserved: 3}, Guard: guarded}}, now)
		})
		if !errors.Is(refused, ports.ErrGuard) {
			t.Fatalf("ApplyAll past a guard: %v", refused)
		}
		qa, _, _ := levels.Find(ctx, ka)
		qb, _, _ := levels.Find(ctx, kb)
		if qa != (domain.Quantities{Available: 6, Incoming: 4}) || qb != (domain.Quantities{Available: 2}) {
			t.Fatalf("after ApplyAll: %+v %+v", qa, qb)
		}
		// FindAllAt: the levels that exist, with whether their locations are active
		missing := ports.LevelKey{ProductID: p2, VariantID: ids.New(), LocationID: domain.DefaultLocationID}
		at, active, err := levels.FindAllAt(ctx, []ports.LevelKey{ka, kb, missing})
		if err != nil || len(at) != 2 || at[ka] != qa || at[kb] != qb || len(active) != 1 || !active[domain.DefaultLocationID] {
			t.Fatalf("FindAllAt = %+v %v %v", at, active, err)
		}
		if err := e.DB.InTx(ctx, func(ctx context.Context) error {
			if err := levels.LockProducts(ctx, []string{p2, productID}); err != nil {
				return err
			}
			return levels.ApplyAll(ctx, []ports.LevelDelta{{Key: ka, Delta: domain.Quantities{Available: -6, Reserved: 6}, Guard: guarded},
				{Key: kb, Delta: domain.Quantities{Available: -2, Reserved: 2}, Guard: guarded}}, now)
		}); err != nil {
			t.Fatalf("ApplyAll within the guards: %v", err)
		}
		if qa, _, _ = levels.Find(ctx, ka); qa != (domain.Quantities{Reserved: 6, Incoming: 4}) {
			t.Fatalf("after ApplyAll: %+v", qa)
		}

		pl, found, err := levels.ProductLevel(ctx, productID)
		if err != nil || !found || pl.ProductName != "Mug 2" || pl.LowStockThreshold != 3 || pl.Totals.Available != -1 ||
			len(pl.Locations) != 1 || pl.Locations[0].LocationName != "Default location" || !pl.UpdatedAt.Equal(now) {
			t.Fatalf("ProductLevel = %+v %v %v", pl, found, err)
		}
		if err := levels.DeleteProduct(ctx, productID); err != nil {
			t.Fatal(err)
		}
		if _, found, _ := levels.Find(ctx, k); found {
			t.Fatal("level survived DeleteProduct")
		}

		// reservations: released once; due in expiry order.
		for i, exp := range []time.Duration{3 * time.Minute, time.Minute, 2 * time.Minute, time.Hour} {
			r := &domain.Reservation{ID: ids.New(), ProductID: productID, VariantID: k.VariantID, LocationID: k.LocationID,
				OrderID: "o", Quantity: i + 1, Status: domain.ReservationActive, ExpiresAt: now.Add(exp), CreatedAt: now}
			if err := reservations.Create(ctx, r); err != nil {
				t.Fatal(err)
			}
		}
		due, err := reservations.Due(ctx, now.Add(3*time.Minute), 2)
		if err != nil || len(due) != 2 {
			t.Fatalf("Due = %v, %v", due, err)
		}
		first, _ := reservations.Get(ctx, due[0])
		second, _ := reservations.Get(ctx, due[1])
		if first.Quantity != 2 || second.Quantity != 3 || !first.ExpiresAt.Equal(now.Add(time.Minute)) {
			t.Fatalf("due order %+v %+v", first, second)
		}
		if ok, err := reservations.MarkReleased(ctx, first.ID, domain.ReleaseOrderExpired, now); err != nil || !ok {
			t.Fatalf("MarkReleased = %v, %v", ok, err)
		}
		if ok, err := reservations.MarkReleased(ctx, first.ID, domain.ReleaseManual, now); err != nil || ok {
			t.Fatalf("MarkReleased twice = %v, %v", ok, err)
		}
		got, _ := reservations.Get(ctx, first.ID)
		if got.Status != domain.ReservationReleased || got.ReleaseReason != domain.ReleaseOrderExpired || got.ReleasedAt == nil || !got.ReleasedAt.Equal(now) {
			t.Fatalf("released = %+v", got)
		}
		if due, _ := reservations.Due(ctx, now.Add(3*time.Minute), 10); len(due) != 2 {
			t.Fatalf("due after release = %v", due)
		}
		if active, err := reservations.Active(ctx, productID); err != nil || len(active) != 3 || active[0].LocationName != "Default location" {
			t.Fatalf("Active = %+v, %v", active, err)
		}
		if _, err := reservations.Get(ctx, ids.New()); !errors.Is(err, domain.ErrReservationNotFound) {
			t.Fatalf("unknown reservation: %v", err)
		}

		// processed events
		if ok, err := processed.MarkProcessed(ctx, "evt_1", "h", now); err != nil || !ok {
			t.Fatalf("first mark = %v, %v", ok, err)
		}
		if ok, err := processed.MarkProcessed(ctx, "evt_1", "h", now); err != nil || ok {
			t.Fatalf("second mark = %v, %v", ok, err)
		}
		if ok, err := processed.MarkProcessed(ctx, "evt_1", "other", now); err != nil || !ok {
			t.Fatalf("other handler = %v, %v", ok, err)
		}
	}, inventorypg.Migrations())
}
