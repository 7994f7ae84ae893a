package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/gocommerce/commerce/modules/carts/domain"
	"github.com/gocommerce/commerce/modules/carts/ports"
	"github.com/gocommerce/commerce/platform/testdb"
)

// The carts' plain-SQL paths, per engine: Get (db.Query, pgx on PostgreSQL), Update
// (row lock through db.QueryRow and db.Query, the changes through db.Exec, in a
// transaction) and Apply (the versioned write: the batch statement on PostgreSQL,
// db.ExecQuery). Each changes the quantity of one of three lines. Allocations are the
// measure (-benchmem); times on a shared machine are not.
func BenchmarkCartPaths(b *testing.B) {
	for _, engine := range testdb.Engines() {
		b.Run(engine, func(b *testing.B) {
			e, r, cart := storedCart(b, engine, 3)
			ctx := context.Background()
			change := func(n int) func(context.Context, *domain.Cart) error {
				return func(_ context.Context, c *domain.Cart) error {
					q := n%5 + 1
					_, _, err := c.UpdateItem(c.Items[n%3].ID, domain.ItemChange{Quantity: &q}, time.Now())
					return err
				}
			}
			// path runs op as the sub-benchmark name, the n-th run given n (from 1).
			path := func(name string, op func(n int) error) {
				b.Run(name, func(b *testing.B) {
					b.ReportAllocs()
					n := 0
					for b.Loop() {
						n++
						if err := op(n); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
			path("Get", func(int) error {
				_, err := r.Get(ctx, cart.ID)
				return err
			})
			path("Update", func(n int) error {
				return e.DB.InTx(ctx, func(ctx context.Context) error {
					_, err := r.Update(ctx, cart.ID, change(n))
					return err
				})
			})
			path("Apply", func(n int) error {
				_, err := r.Apply(ctx, cart.ID, func(ctx context.Context, c *domain.Cart) ([]ports.Event, error) {
					return nil, change(n)(ctx, c)
				})
				return err
			})
		})
	}
}
