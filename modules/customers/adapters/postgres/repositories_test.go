package postgres_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	customerspg "github.com/gocommerce/commerce/modules/customers/adapters/postgres"
	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/modules/customers/ports"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/patch"
	"github.com/gocommerce/commerce/platform/testdb"
)

func newCustomer(t *testing.T, repo *customerspg.CustomerRepository, email string, tags []string, now time.Time) *domain.Customer {
	t.Helper()
	c, err := domain.Create(domain.CustomerID(ids.New()), domain.Draft{Email: email, Tags: tags}, now)
	if err != nil {
		t.Fatal(err)
	}
	if err := repo.Create(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestRepositoryContracts runs the stores' contracts on every engine.
func TestRepositoryContracts(t *testing.T) {
	testdb.EachOpen(t, func(t *testing.T, e *testdb.Engine) {
		ctx := context.Background()
		now := testdb.Now()
		repo := customerspg.NewCustomerRepository(e.DB)

		t.Run("customer update and tags", func(t *testing.T) {
			c := newCustomer(t, repo, "u@example.com", []string{"A", "b"}, now)
			newCustomer(t, repo, "taken@example.com", nil, now)
			got, err := repo.Update(ctx, c.ID, func(c *domain.Customer) error {
				_, err := c.Apply(domain.Patch{Tags: patch.Val([]string{"B", "c"}), Note: patch.Val("n"), Metafields: patch.Val(map[string]any{"x": 1.5})}, now.Add(time.Second))
				return err
			})
			if err != nil || got.Note != "n" {
				t.Fatalf("Update = %+v, %v", got, err)
			}
			back, err := repo.Get(ctx, c.ID)
			if err != nil || back.Note != "n" || len(back.Tags) != 2 || back.Tags[1] != "c" || back.Metafields["x"] == nil || !back.UpdatedAt.Equal(now.Add(time.Second)) || !back.CreatedAt.Equal(now) {
				t.Fatalf("reloaded %+v, %v", back, err)
			}
			var tags []string
			if err := e.DB.Gorm().Table("customer_tags").Where("customer_id = ?", string(c.ID)).Order("tag").Pluck("tag", &tags).Error; err != nil || len(tags) != 2 || tags[0] != "b" || tags[1] != "c" {
				t.Fatalf("tag rows %v %v", tags, err)
			}
			_, err = repo.Update(ctx, c.ID, func(c *domain.Customer) error { c.Email = "taken@example.com"; return nil })
			if !errors.Is(err, domain.ErrEmailTaken) {
				t.Fatalf("duplicate email on update: %v", err)
			}
			boom := errors.New("boom")
			if _, err := repo.Update(ctx, c.ID, func(*domain.Customer) error { return boom }); !errors.Is(err, boom) {
				t.Fatalf("change error: %v", err)
			}
			if _, err := repo.Update(ctx, domain.CustomerID(ids.New()), func(*domain.Customer) error { return nil }); !errors.Is(err, domain.ErrCustomerNotFound) {
				t.Fatalf("missing: %v", err)
			}
			if err := repo.Lock(ctx, domain.CustomerID(ids.New())); !errors.Is(err, domain.ErrCustomerNotFound) {
				t.Fatalf("lock missing: %v", err)
			}
		})

		t.Run("stats and money filters", func(t *testing.T) {
			c := newCustomer(t, repo, "s@example.com", nil, now)
			last := now.Add(-time.Hour)
			s := domain.OrderStats{OrdersCount: 3, PaidOrders: 2, TotalSpent: decimal.RequireFromString("1234.5678"), Currency: "USD", LastOrderID: "o9", LastOrderName: "#1009", LastOrderAt: &last}
			if err := repo.SetStats(ctx, c.ID, s); err != nil {
				t.Fatal(err)
			}
			back, _ := repo.Get(ctx, c.ID)
			if back.Stats.OrdersCount != 3 || !back.Stats.TotalSpent.Equal(s.TotalSpent) || back.Stats.LastOrderID != "o9" || !back.Stats.LastOrderAt.Equal(last) || !back.UpdatedAt.Equal(now) {
				t.Fatalf("stats %+v (updated_at %v)", back.Stats, back.UpdatedAt)
			}
			for amount, want := range map[string]bool{"1234.5678": true, "1234.5679": false, "999": true} {
				d := decimal.RequireFromString(amount)
				ok, err := repo.Matches(ctx, c.ID, ports.CustomerFilter{MinTotalSpent: &d})
				if err != nil || ok != want {
					t.Errorf("min_total_spent %s: %v %v", amount, ok, err)
				}
			}
			if err := repo.SetStats(ctx, domain.CustomerID(ids.New()), s); err != nil {
				t.Fatalf("stats of a gone customer: %v", err)
			}
		})

		t.Run("tokens", func(t *testing.T) {
			tokens := customerspg.NewTokenRepository(e.DB)
			c := newCustomer(t, repo, "t@example.com", nil, now)
			key := []byte("k")
			t1, raw1 := domain.NewAccountToken(key, ids.New(), c.ID, domain.PurposeActivation, time.Hour, now)
			t2, raw2 := domain.NewAccountToken(key, ids.New(), c.ID, domain.PurposeActivation, time.Hour, now)
			reset, rawReset := domain.NewAccountToken(key, ids.New(), c.ID, domain.PurposePasswordReset, time.Hour, now)
			for _, tok := range []domain.AccountToken{t1, t2, reset} {
				if err := tokens.Replace(ctx, tok); err != nil {
					t.Fatal(err)
				}
			}
			if got, err := tokens.Find(ctx, c.ID, domain.PurposeActivation); err != nil || got.ID != t2.ID || !got.ExpiresAt.Equal(now.Add(time.Hour)) {
				t.Fatalf("Find = %+v, %v", got, err)
			}
			consume := func(purpose domain.TokenPurpose, raw string, at time.Time) bool {
				ok, err := tokens.Consume(ctx, c.ID, purpose, domain.HashToken(raw), at)
				if err != nil {
					t.Fatal(err)
				}
				return ok
			}
			if consume(domain.PurposeActivation, raw1, now) {
				t.Fatal("replaced token consumed")
			}
			if consume(domain.PurposeActivation, rawReset, now) {
				t.Fatal("token consumed for another purpose")
			}
			if consume(domain.PurposeActivation, raw2, now.Add(time.Hour)) {
				t.Fatal("expired token consumed")
			}
			if !consume(domain.PurposeActivation, raw2, now) || consume(domain.PurposeActivation, raw2, now) {
				t.Fatal("token not single use")
			}
			if list, err := tokens.ForCustomer(ctx, c.ID); err != nil || len(list) != 1 || list[0].Purpose != domain.PurposePasswordReset {
				t.Fatalf("ForCustomer = %+v, %v", list, err)
			}
			if n, err := tokens.PurgeExpired(ctx, now.Add(time.Hour)); err != nil || n != 1 {
				t.Fatalf("PurgeExpired = %d, %v", n, err)
			}
			if _, err := tokens.Find(ctx, c.ID, domain.PurposePasswordReset); !errors.Is(err, domain.ErrActivationTokenInvalid) {
				t.Fatalf("after purge: %v", err)
			}
		})

		t.Run("order stats", func(t *testing.T) {
			stats := customerspg.NewOrderStatsRepository(e.DB)
			a, b := domain.CustomerID(ids.New()), domain.CustomerID(ids.New())
			f := domain.OrderFact{OrderID: "o1", CustomerID: a, OrderNumber: "1001", TotalPrice: decimal.RequireFromString("10.5"), Currency: "EUR", Status: "open", FinancialStatus: "paid", CreatedAt: now, UpdatedAt: now}
			if applied, prev, err := stats.Record(ctx, f); err != nil || !applied || prev != "" {
				t.Fatalf("first: %v %q %v", applied, prev, err)
			}
			stale := f
			stale.UpdatedAt, stale.Status = now.Add(-time.Second), "cancelled"
			if applied, _, err := stats.Record(ctx, stale); err != nil || applied {
				t.Fatalf("stale applied: %v %v", applied, err)
			}
			moved := f
			moved.CustomerID, moved.UpdatedAt = b, now.Add(time.Second)
			if applied, prev, err := stats.Record(ctx, moved); err != nil || !applied || prev != a {
				t.Fatalf("moved: %v %q %v", applied, prev, err)
			}
			if list, _ := stats.ForCustomer(ctx, a); len(list) != 0 {
				t.Fatalf("old customer keeps the order: %+v", list)
			}
			list, err := stats.ForCustomer(ctx, b)
			if err != nil || len(list) != 1 || !list[0].TotalPrice.Equal(f.TotalPrice) || list[0].Status != "open" || !list[0].CreatedAt.Equal(now) {
				t.Fatalf("ForCustomer = %+v, %v", list, err)
			}
			if err := stats.DeleteForCustomer(ctx, b); err != nil {
				t.Fatal(err)
			}
			if list, _ := stats.ForCustomer(ctx, b); len(list) != 0 {
				t.Fatal("not deleted")
			}
		})
	}, customerspg.Migrations())
}

// TestMigrationsDown rolls every customers migration back and forth on both engines.
func TestMigrationsDown(t *testing.T) {
	testdb.EachOpen(t, func(t *testing.T, e *testdb.Engine) {
		ctx := context.Background()
		m := db.NewMigrator(e.DB, []db.MigrationSource{customerspg.Migrations()})
		for i := 0; i < 7; i++ {
			if _, err := m.Down(ctx); err != nil {
				t.Fatalf("down %d: %v", i, err)
			}
		}
		if e.DB.Gorm().Migrator().HasTable("customers") {
			t.Fatal("customers table left after rolling everything back")
		}
		if _, err := m.Up(ctx); err != nil {
			t.Fatalf("up again: %v", err)
		}
		if !e.DB.Gorm().Migrator().HasTable("customers_privacy_audit") {
			t.Fatal("tables missing after up")
		}
	}, customerspg.Migrations())
}
