package postgres_test

import (
	"context"
	"errors"
	"testing"
	"time"

	customerspg "github.com/gocommerce/commerce/modules/customers/adapters/postgres"
	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/testdb"
)

// TestCustomerRepository runs the repository contract on every engine.
func TestCustomerRepository(t *testing.T) {
	testdb.EachOpen(t, func(t *testing.T, e *testdb.Engine) {
		repo := customerspg.NewCustomerRepository(e.DB)
		ctx := context.Background()
		now := testdb.Now()

		c, err := domain.NewCustomer(domain.CustomerID(ids.New()), "ada@example.com", "Ada", "Lovelace", "", now)
		if err != nil {
			t.Fatal(err)
		}
		if err := repo.Create(ctx, c); err != nil {
			t.Fatal(err)
		}
		got, err := repo.Get(ctx, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Email != c.Email || got.FirstName != "Ada" || got.LastName != "Lovelace" || got.State != domain.StateEnabled ||
			!got.CreatedAt.Equal(now) || !got.UpdatedAt.Equal(now) || got.CreatedAt.Location() != time.UTC {
			t.Fatalf("Get = %+v, want %+v", got, c)
		}
		byEmail, err := repo.FindByEmail(ctx, "ada@example.com")
		if err != nil || byEmail.ID != c.ID {
			t.Fatalf("FindByEmail = %+v, %v", byEmail, err)
		}
		dup, _ := domain.NewCustomer(domain.CustomerID(ids.New()), "ADA@example.com", "", "", "", now)
		if err := repo.Create(ctx, dup); !errors.Is(err, domain.ErrEmailTaken) {
			t.Fatalf("duplicate email: %v", err)
		}
		if _, err := repo.Get(ctx, domain.CustomerID(ids.New())); !errors.Is(err, domain.ErrCustomerNotFound) {
			t.Fatalf("missing id: %v", err)
		}
		if _, err := repo.FindByEmail(ctx, "nobody@example.com"); !errors.Is(err, domain.ErrCustomerNotFound) {
			t.Fatalf("missing email: %v", err)
		}
	}, customerspg.Migrations())
}
