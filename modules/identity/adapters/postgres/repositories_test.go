package postgres_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	identitypg "github.com/gocommerce/commerce/modules/identity/adapters/postgres"
	"github.com/gocommerce/commerce/modules/identity/domain"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/testdb"
)

// TestRepositories runs the repository contracts on every engine.
func TestRepositories(t *testing.T) {
	testdb.EachOpen(t, func(t *testing.T, e *testdb.Engine) {
		ctx := context.Background()
		now := testdb.Now()

		t.Run("credentials", func(t *testing.T) {
			r := identitypg.NewCredentialRepository(e.DB)
			c := domain.Credential{CustomerID: ids.New(), Email: "a@example.com", PasswordHash: "h", CreatedAt: now, UpdatedAt: now}
			if err := r.Create(ctx, c); err != nil {
				t.Fatal(err)
			}
			got, err := r.FindByEmail(ctx, "a@example.com")
			if err != nil || got.CustomerID != c.CustomerID || got.PasswordHash != "h" || !got.CreatedAt.Equal(now) {
				t.Fatalf("FindByEmail = %+v, %v", got, err)
			}
			c.CustomerID = ids.New()
			wantErr(t, "duplicate", r.Create(ctx, c), domain.ErrEmailTaken)
			wantErr(t, "missing", second(r.FindByEmail(ctx, "b@example.com")), domain.ErrCredentialNotFound)

			// Upsert replaces the existing credential of a customer and inserts new ones.
			orig, err := r.FindByEmail(ctx, "a@example.com")
			if err != nil {
				t.Fatal(err)
			}
			first := orig.CustomerID
			c.CustomerID = ids.New()
			c.Email = "u@example.com"
			if err := r.Upsert(ctx, c); err != nil {
				t.Fatal(err)
			}
			c.PasswordHash = "h2"
			c.Email = "u2@example.com"
			if err := r.Upsert(ctx, c); err != nil {
				t.Fatal(err)
			}
			if got, err := r.FindByEmail(ctx, "u2@example.com"); err != nil || got.CustomerID != c.CustomerID || got.PasswordHash != "h2" {
				t.Fatalf("after upsert: %+v, %v", got, err)
			}
			wantErr(t, "old email after upsert", second(r.FindByEmail(ctx, "u@example.com")), domain.ErrCredentialNotFound)
			c.Email = "a@example.com" // another customer's
			wantErr(t, "upsert onto a taken email", r.Upsert(ctx, c), domain.ErrEmailTaken)
			wantErr(t, "update onto a taken email", r.UpdateEmail(ctx, c.CustomerID, "a@example.com", now), domain.ErrEmailTaken)
			if err := r.UpdateEmail(ctx, c.CustomerID, "u3@example.com", now); err != nil {
				t.Fatal(err)
			}
			if got, err := r.FindByEmail(ctx, "u3@example.com"); err != nil || got.CustomerID != c.CustomerID {
				t.Fatalf("after UpdateEmail: %+v, %v", got, err)
			}
			if err := r.DeleteByCustomer(ctx, c.CustomerID); err != nil {
				t.Fatal(err)
			}
			wantErr(t, "after delete", second(r.FindByEmail(ctx, "u3@example.com")), domain.ErrCredentialNotFound)
			if got, err := r.FindByEmail(ctx, "a@example.com"); err != nil || got.CustomerID != first {
				t.Fatalf("other credential disturbed: %+v, %v", got, err)
			}
		})

		t.Run("staff", func(t *testing.T) {
			r := identitypg.NewStaffRepository(e.DB)
			u := domain.StaffUser{ID: ids.New(), Email: "root@example.com", PasswordHash: "h", Role: domain.RoleAdmin, CreatedAt: now, UpdatedAt: now}
			if err := r.Create(ctx, u); err != nil {
				t.Fatal(err)
			}
			if got, err := r.Get(ctx, u.ID); err != nil || got.Email != u.Email || got.Role != "admin" {
				t.Fatalf("Get = %+v, %v", got, err)
			}
			if got, err := r.FindByEmail(ctx, u.Email); err != nil || got.ID != u.ID {
				t.Fatalf("FindByEmail = %+v, %v", got, err)
			}
			u.ID = ids.New()
			wantErr(t, "duplicate", r.Create(ctx, u), domain.ErrEmailTaken)
			wantErr(t, "bad id", second(r.Get(ctx, "not-a-uuid")), domain.ErrStaffUserNotFound)
		})

		t.Run("api keys", func(t *testing.T) {
			r := identitypg.NewAPIKeyRepository(e.DB)
			m := decimal.RequireFromString("2.50")
			k := domain.APIKey{ID: ids.New(), Name: "k", Prefix: "AbCd1234", SecretHash: domain.HashSecret("s"), Scopes: []string{"orders:read", "read"}, RateLimitMultiplier: &m, CreatedAt: now}
			if err := r.Create(ctx, k); err != nil {
				t.Fatal(err)
			}
			other := domain.APIKey{ID: ids.New(), Name: "o", Prefix: "ZzZz9999", SecretHash: domain.HashSecret("t"), Scopes: []string{"admin"}, CreatedAt: now.Add(time.Second)}
			if err := r.Create(ctx, other); err != nil {
				t.Fatal(err)
			}
			dup := other
			dup.ID = ids.New()
			wantErr(t, "duplicate prefix", r.Create(ctx, dup), domain.ErrAPIKeyPrefixTaken)
			got, err := r.GetByPrefix(ctx, "AbCd1234")
			if err != nil || got.ID != k.ID || len(got.Scopes) != 2 || got.RateLimitMultiplier == nil || got.RateLimitMultiplier.String() != "2.5" || got.RevokedAt != nil {
				t.Fatalf("GetByPrefix = %+v, %v", got, err)
			}
			wantErr(t, "prefixes are case-sensitive", second(r.GetByPrefix(ctx, "abcd1234")), domain.ErrAPIKeyNotFound)
			list, err := r.List(ctx)
			if err != nil || len(list) != 2 || list[0].ID != other.ID {
				t.Fatalf("List = %+v, %v", list, err)
			}

			// last used: conditional on the interval.
			if err := r.TouchLastUsed(ctx, k.ID, now, "10.0.0.1", now.Add(-time.Minute)); err != nil {
				t.Fatal(err)
			}
			if err := r.TouchLastUsed(ctx, k.ID, now.Add(10*time.Second), "10.0.0.2", now.Add(10*time.Second-time.Minute)); err != nil {
				t.Fatal(err)
			}
			got, _ = r.GetByPrefix(ctx, k.Prefix)
			if got.LastUsedAt == nil || !got.LastUsedAt.Equal(now) || got.LastUsedIP != "10.0.0.1" {
				t.Fatalf("last used within the interval: %+v", got)
			}
			later := now.Add(61 * time.Second)
			if err := r.TouchLastUsed(ctx, k.ID, later, "10.0.0.3", later.Add(-time.Minute)); err != nil {
				t.Fatal(err)
			}
			got, _ = r.GetByPrefix(ctx, k.Prefix)
			if !got.LastUsedAt.Equal(later) || got.LastUsedIP != "10.0.0.3" {
				t.Fatalf("last used after the interval: %+v", got)
			}

			// Update + revocation checks.
			stale, err := r.RevokedOrMissing(ctx, []string{k.Prefix, other.Prefix, "gone0000"})
			if err != nil || len(stale) != 1 || stale[0] != "gone0000" {
				t.Fatalf("RevokedOrMissing = %v, %v", stale, err)
			}
			err = e.DB.InTx(ctx, func(ctx context.Context) error {
				_, err := r.Update(ctx, k.Prefix, func(k *domain.APIKey) error { return k.Revoke("rotated", now) })
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			got, _ = r.GetByPrefix(ctx, k.Prefix)
			if got.RevokedAt == nil || !got.RevokedAt.Equal(now) || got.RevocationReason != "rotated" || got.RateLimitMultiplier.String() != "2.5" {
				t.Fatalf("revoked: %+v", got)
			}
			stale, _ = r.RevokedOrMissing(ctx, []string{k.Prefix, other.Prefix})
			if len(stale) != 1 || stale[0] != k.Prefix {
				t.Fatalf("RevokedOrMissing after revoke = %v", stale)
			}
			wantErr(t, "update missing", second(r.Update(ctx, "missing0", func(*domain.APIKey) error { return nil })), domain.ErrAPIKeyNotFound)
			if err := r.Delete(ctx, other.Prefix); err != nil {
				t.Fatal(err)
			}
			wantErr(t, "second delete", r.Delete(ctx, other.Prefix), domain.ErrAPIKeyNotFound)
		})
	}, identitypg.Migrations())
}

// wantErr fails the test unless err is target.
func wantErr(t *testing.T, what string, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("%s: %v", what, err)
	}
}

// second is the error of a call that answers a value and an error.
func second[T any](_ T, err error) error { return err }
