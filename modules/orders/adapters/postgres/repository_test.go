package postgres_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	orderspg "github.com/gocommerce/commerce/modules/orders/adapters/postgres"
	"github.com/gocommerce/commerce/modules/orders/domain"
	"github.com/gocommerce/commerce/modules/orders/ports"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/testdb"
)

var t0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

func newOrder(id string, number int64) *domain.Order {
	o := &domain.Order{
		ID: id, Number: number, Status: domain.StatusOpen, Currency: "USD", Email: "a@example.com", InventoryBehaviour: domain.InventoryBypass,
		LineItems: []*domain.LineItem{{ID: id[:35] + "1", ProductID: "00000000-0000-4000-8000-00000000a001", VariantID: "00000000-0000-4000-8000-00000000b001",
			Quantity: 2, Price: decimal.RequireFromString("9.99"), Grams: decimal.RequireFromString("28.3495"), CreatedAt: t0}},
		ShippingAddress: &domain.Address{City: "Berlin", Country: "DE"}, Tags: []string{"a"},
		CreatedAt: t0, UpdatedAt: t0, ProcessedAt: t0, Version: 1,
	}
	o.Recalculate()
	return o
}

// TestOrderRepository is the repository contract on every engine: numbers, round trip,
// optimistic updates, children, payments lookup.
func TestOrderRepository(t *testing.T) {
	testdb.EachOpen(t, func(t *testing.T, e *testdb.Engine) {
		repo := orderspg.NewOrderRepository(e.DB)
		ctx := context.Background()
		// Create numbers an order without one. A number taken in a rolled-back
		// transaction is given back on SQLite (the counter row); PostgreSQL's sequence
		// (the column's default, returned by the insert) skips it (decision 0232).
		errRollback := errors.New("rollback")
		_ = e.DB.InTx(ctx, func(ctx context.Context) error {
			first := newOrder("00000000-0000-4000-8000-0000000000d0", 0)
			if err := repo.Create(ctx, first); err != nil || first.Number != 1001 {
				t.Fatalf("first number %d %v", first.Number, err)
			}
			return errRollback
		})
		want := int64(1001)
		if e.DB.Dialect() == db.Postgres {
			want = 1002
		}
		id := "00000000-0000-4000-8000-0000000000d1"
		o := newOrder(id, 0)
		if err := e.DB.InTx(ctx, func(ctx context.Context) error { return repo.Create(ctx, o) }); err != nil || o.Number != want {
			t.Fatalf("number after rollback %d %v, want %d", o.Number, err, want)
		}
		if n, err := repo.NextNumber(ctx); err != nil || n != want+1 {
			t.Fatalf("next number %d %v, want %d", n, err, want+1)
		}
		n := o.Number
		dup := newOrder("00000000-0000-4000-8000-0000000000d2", n)
		if err := repo.Create(ctx, dup); err == nil {
			t.Fatal("duplicate order number accepted")
		}
		got, err := repo.GetByNumber(ctx, want)
		if err != nil || got.ID != id || got.ShippingAddress.City != "Berlin" || len(got.LineItems) != 1 || !got.LineItems[0].Grams.Equal(decimal.RequireFromString("28.3495")) ||
			!got.TotalPrice.Equal(decimal.RequireFromString("19.98")) || !got.CreatedAt.Equal(t0) || got.Tags[0] != "a" {
			t.Fatalf("round trip %v %+v", err, got)
		}
		if _, err := repo.Get(ctx, "nope"); !errors.Is(err, domain.ErrOrderNotFound) {
			t.Fatalf("bad id: %v", err)
		}
		// Update saves children and bumps the version; a stale writer is refused.
		_, err = repo.Update(ctx, id, func(o *domain.Order) error {
			o.RecordPayment(domain.PaymentEvent{PaymentID: "pay_1", Kind: domain.KindSale, Amount: o.TotalPrice, Currency: "USD"}, func() string { return "00000000-0000-4000-8000-0000000000e1" }, t0)
			_, err := o.Fulfill("00000000-0000-4000-8000-0000000000f1", "", nil, domain.Tracking{}, t0)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		got, _ = repo.Get(ctx, id)
		if got.Version != 2 || got.Financial != domain.FinancialPaid || got.Fulfillment != domain.FulfillmentFulfilled || len(got.Transactions) != 1 || len(got.Fulfillments) != 1 {
			t.Fatalf("after update %+v", got)
		}
		if oid, err := repo.OrderIDForPayment(ctx, "pay_1"); err != nil || oid != id {
			t.Fatalf("by payment %s %v", oid, err)
		}
		stale := 0
		_, err = repo.Update(ctx, id, func(o *domain.Order) error {
			if stale == 0 {
				// another writer wins between the read and the write
				if err := e.DB.Gorm().Exec("UPDATE orders SET version = version + 1 WHERE id = ?", id).Error; err != nil {
					return err
				}
			}
			stale++
			return nil
		})
		if !errors.Is(err, domain.ErrStale) {
			t.Fatalf("stale update: %v", err)
		}
		list, total, err := repo.List(ctx, ports.ListFilter{Limit: 10, Sort: ports.SortTotalPrice, MinTotal: func() *decimal.Decimal { x := decimal.RequireFromString("19.98"); return &x }()})
		if err != nil || total != 1 || len(list) != 1 {
			t.Fatalf("list %v %d", err, total)
		}
		avg, count, err := repo.AverageTotal(ctx, "USD", "")
		if err != nil || count != 1 || !avg.Equal(decimal.RequireFromString("19.98")) {
			t.Fatalf("average %s %d %v", avg, count, err)
		}
	}, orderspg.Migrations())
}
