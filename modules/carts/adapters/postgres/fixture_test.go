package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/carts/adapters/postgres"
	"github.com/gocommerce/commerce/modules/carts/domain"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/testdb"
)

// shirt is an active product at 10.00 USD, with new ids.
func shirt() domain.Product {
	return domain.Product{ProductID: ids.New(), VariantID: ids.New(), Title: "Shirt", Status: domain.ProductActive, Currency: "USD", Price: decimal.RequireFromString("10.00")}
}

// storedCart opens the engine's database with the carts and outbox tables and stores
// a new USD cart with one line of each of lines new products, through the repository
// it answers (every write optimisation on).
func storedCart(tb testing.TB, engine string, lines int) (*testdb.Engine, *postgres.CartRepository, *domain.Cart) {
	tb.Helper()
	e := testdb.Open(tb, engine, events.Migrations(), postgres.Migrations())
	r := postgres.NewCartRepository(e.DB, events.NewOutbox(e.DB))
	now := testdb.Now()
	cart := domain.New(domain.CartID(ids.New()), "", "USD", now, time.Hour)
	for i := 0; i < lines; i++ {
		if _, err := cart.AddItem(domain.ItemID(ids.New()), shirt(), 1, nil, now); err != nil {
			tb.Fatal(err)
		}
	}
	if err := r.Create(context.Background(), cart); err != nil {
		tb.Fatal(err)
	}
	return e, r, cart
}
