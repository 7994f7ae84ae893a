package postgres_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/carts/adapters/postgres"
	"github.com/gocommerce/commerce/modules/carts/domain"
	"github.com/gocommerce/commerce/modules/carts/ports"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/testdb"
)

// TestApplyWithAStaleCopy: two repositories (two processes) change one cart. The one
// whose copy of the cart is stale must not overwrite the other's change, and must
// answer from the stored cart, not from its copy (docs/decisions/0089).
func TestApplyWithAStaleCopy(t *testing.T) {
	testdb.EachEngine(t, func(t *testing.T, engine string) {
		e, a, cart := storedCart(t, engine, 0)
		ctx := context.Background()
		b := postgres.NewCartRepository(e.DB, events.NewOutbox(e.DB))
		product := shirt()
		add := func(r *postgres.CartRepository, qty int) (*domain.Cart, error) {
			return r.Apply(ctx, cart.ID, func(_ context.Context, c *domain.Cart) ([]ports.Event, error) {
				if err := c.CheckActive(time.Now()); err != nil {
					return nil, err
				}
				if _, err := c.AddItem(domain.ItemID(ids.New()), product, qty, nil, time.Now()); err != nil {
					return nil, err
				}
				c.Recalculate(domain.Discounts{Items: map[domain.ItemID]decimal.Decimal{}, Shipping: decimal.Zero})
				return []ports.Event{{Type: "cart.item_added", AggregateID: string(c.ID), Data: map[string]int{"quantity": qty}}}, nil
			})
		}
		for _, step := range []struct {
			r   *postgres.CartRepository
			qty int
		}{{a, 1}, {b, 2}, {a, 4}} { // a's copy is stale at its second add
			if _, err := add(step.r, step.qty); err != nil {
				t.Fatal(err)
			}
		}
		got, err := b.Get(ctx, cart.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Items) != 1 || got.Items[0].Quantity != 7 || got.Version != 3 || !got.Subtotal.Equal(decimal.RequireFromString("70")) {
			t.Fatalf("after three adds from two processes: %d items, version %d, subtotal %s", len(got.Items), got.Version, got.Subtotal)
		}
		if engine == "postgres" {
			// The batched write sends JSON columns as text: they must be stored as JSON
			// values, not as JSON strings.
			var kinds string
			if err := e.DB.Gorm().Raw("SELECT jsonb_typeof(c.coupons) || ',' || jsonb_typeof(i.custom_attributes) FROM carts c JOIN cart_items i ON i.cart_id = c.id WHERE c.id = ?", string(cart.ID)).Scan(&kinds).Error; err != nil || kinds != "array,object" {
				t.Fatalf("stored JSON kinds: %q (%v), want array,object", kinds, err)
			}
		}
		var n int64
		if err := e.DB.Gorm().Table("outbox_events").Where("aggregate_id = ?", string(cart.ID)).Count(&n).Error; err != nil || n != 3 {
			t.Fatalf("events: %d (%v), want 3", n, err)
		}

		// b converts the cart under the row lock; a's copy still says active.
		if _, err := b.Update(ctx, cart.ID, func(_ context.Context, c *domain.Cart) error { c.Status = domain.StatusConverted; return nil }); err != nil {
			t.Fatal(err)
		}
		if _, err := add(a, 1); !errors.Is(err, domain.ErrCartConverted) {
			t.Fatalf("add to a converted cart through a stale copy: %v, want CART_CONVERTED", err)
		}
		if got, _ := b.Get(ctx, cart.ID); got.Items[0].Quantity != 7 || got.Version != 4 {
			t.Fatalf("converted cart changed: quantity %d, version %d", got.Items[0].Quantity, got.Version)
		}
	})
}
