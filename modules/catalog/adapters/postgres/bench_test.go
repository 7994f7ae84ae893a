package postgres_test

import (
	"context"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/catalog/adapters/postgres"
	"github.com/gocommerce/commerce/modules/catalog/domain"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/testdb"
)

// The product reads of docs/performance.md findings 6 and 11 (db.QueryRow and db.Query,
// pgx on PostgreSQL): a product by id, and products by ids with their variants (the
// carts' read). Allocations are the measure (-benchmem); times on a shared machine are
// not.
func BenchmarkProductReads(b *testing.B) {
	for _, engine := range testdb.Engines() {
		b.Run(engine, func(b *testing.B) {
			e := testdb.Open(b, engine, postgres.Migrations())
			ctx := context.Background()
			r := postgres.NewProductRepository(e.DB)
			now := testdb.Now()
			id := ids.New()
			p := &domain.Product{ID: id, Title: "Shirt", Slug: "shirt", Tags: []string{"a"}, Status: "active",
				Shared:   domain.Shared{Price: decimal.RequireFromString("19.90"), Weight: decimal.Zero, WeightUnit: "kg", InventoryPolicy: "deny"},
				Currency: "USD", MetaFields: map[string]any{}, CreatedAt: now, UpdatedAt: now}
			if err := r.Create(ctx, p); err != nil {
				b.Fatal(err)
			}
			b.Run("Get", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := r.Get(ctx, id); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("GetWithVariants", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := r.GetWithVariants(ctx, []string{id}); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}
