package identity_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/gocommerce/commerce/modules/identity"
	identityredis "github.com/gocommerce/commerce/modules/identity/adapters/redis"
	"github.com/gocommerce/commerce/modules/identity/api"
	"github.com/gocommerce/commerce/modules/identity/app"
	"github.com/gocommerce/commerce/modules/identity/domain"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/jobs/jobstest"
	"github.com/gocommerce/commerce/platform/testdb"
)

func apiKeyCmd(name string, scopes ...string) api.CreateAPIKeyCommand {
	return api.CreateAPIKeyCommand{Name: name, Scopes: scopes}
}

func TestAPIKeyManagement(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *stack) {
		ctx := context.Background()
		rec, key, err := s.identity.CreateAPIKey(ctx, api.CreateAPIKeyCommand{Name: " billing ", Scopes: []string{"orders:read", "payments:write"}, RateLimitMultiplier: "2.5"})
		if err != nil {
			t.Fatal(err)
		}
		prefix, secret, ok := strings.Cut(key, ".")
		if !ok || len(prefix) != 8 || len(secret) != 32 || prefix != rec.Prefix {
			t.Fatalf("key %q / record %+v", key, rec)
		}
		if rec.Name != "billing" || strings.Join(rec.Scopes, ",") != "orders:read,payments:write" || rec.RateLimitMultiplier != "2.5" ||
			rec.Revoked || rec.LastUsedAt != nil || rec.CreatedAt.IsZero() {
			t.Fatalf("record %+v", rec)
		}
		// The secret is not stored anywhere.
		var stored string
		if err := s.db.Gorm().Table("api_keys").Select("secret_hash").Where("prefix = ?", prefix).Scan(&stored).Error; err != nil {
			t.Fatal(err)
		}
		if stored != domain.HashSecret(secret) || strings.Contains(stored, secret) {
			t.Fatalf("stored secret hash %q", stored)
		}

		got, err := s.identity.GetAPIKey(ctx, prefix)
		if err != nil || got.ID != rec.ID || got.RateLimitMultiplier != "2.5" {
			t.Fatalf("GetAPIKey = %+v, %v", got, err)
		}
		_, key2, err := s.identity.CreateAPIKey(ctx, apiKeyCmd("second", "read"))
		if err != nil {
			t.Fatal(err)
		}
		list, err := s.identity.ListAPIKeys(ctx)
		if err != nil || len(list) != 2 {
			t.Fatalf("ListAPIKeys = %d, %v", len(list), err)
		}

		_, _, err = s.identity.CreateAPIKey(ctx, api.CreateAPIKeyCommand{Name: "", Scopes: []string{"bogus"}, RateLimitMultiplier: "0"})
		e, ok := apperr.As(err)
		if !ok || e.Kind != apperr.Invalid || e.Fields["name"] == "" || e.Fields["scopes"] == "" || e.Fields["rate_limit_multiplier"] == "" {
			t.Fatalf("invalid create: %v", err)
		}
		if _, _, err := s.identity.CreateAPIKey(ctx, apiKeyCmd("no scopes")); err == nil {
			t.Fatal("key without scopes accepted")
		}

		if _, err := s.identity.GetAPIKey(ctx, "missing1"); !errors.Is(err, domain.ErrAPIKeyNotFound) {
			t.Fatalf("GetAPIKey(missing): %v", err)
		}
		if _, err := s.identity.RevokeAPIKey(ctx, "missing1", "x"); !errors.Is(err, domain.ErrAPIKeyNotFound) {
			t.Fatalf("RevokeAPIKey(missing): %v", err)
		}
		if _, err := s.identity.RevokeAPIKey(ctx, prefix, " "); err == nil {
			t.Fatal("revoke without reason accepted")
		}

		// Works with and without "Bearer "; the principal carries the key's data.
		for _, h := range []string{"Bearer " + key, key, "bearer " + key} {
			r := s.do(http.MethodGet, "/api/v1/test/me", nil, h)
			if r.Code != 200 || r.Body["kind"] != "api_key" || r.Body["id"] != rec.ID || r.Body["key_prefix"] != prefix || r.Body["rate_limit_multiplier"] != 2.5 {
				t.Fatalf("%q: %d %s", h, r.Code, r.Raw)
			}
		}
		if r := s.do(http.MethodGet, "/api/v1/test/me", nil, key2); r.Code != 200 || r.Body["rate_limit_multiplier"] != float64(0) {
			t.Fatalf("key without multiplier: %d %s", r.Code, r.Raw)
		}
		for _, bad := range []string{prefix + "." + strings.Repeat("x", 32), "nokey", "Bearer " + prefix, "zzzzzzzz." + secret} {
			assertError(t, s.do(http.MethodGet, "/api/v1/test/me", nil, bad), 401, "Unauthorized: Invalid API key", 401, "auth")
		}

		// last_used_at / last_used_ip.
		if err := s.authn.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		used, err := s.identity.GetAPIKey(ctx, prefix)
		if err != nil || used.LastUsedAt == nil || used.LastUsedIP != "192.0.2.1" || time.Since(*used.LastUsedAt) > time.Minute {
			t.Fatalf("last used: %+v %v", used, err)
		}

		// Revocation takes effect at once, even though the key is cached.
		revoked, err := s.identity.RevokeAPIKey(ctx, prefix, "leaked in a log")
		if err != nil || !revoked.Revoked || revoked.RevocationReason != "leaked in a log" || revoked.RevokedAt == nil {
			t.Fatalf("revoke: %+v %v", revoked, err)
		}
		for _, h := range []string{"Bearer " + key, key} {
			assertError(t, s.do(http.MethodGet, "/api/v1/test/me", nil, h), 401, "Unauthorized: API key has been revoked", 401, "auth")
		}
		// A wrong secret for a revoked key does not reveal the revocation.
		assertError(t, s.do(http.MethodGet, "/api/v1/test/me", nil, prefix+"."+strings.Repeat("y", 32)), 401, "Unauthorized: Invalid API key", 401, "auth")
		if _, err := s.identity.RevokeAPIKey(ctx, prefix, "again"); !errors.Is(err, domain.ErrAPIKeyAlreadyRevoked) {
			t.Fatalf("second revoke: %v", err)
		}
		if e, _ := apperr.As(func() error { _, err := s.identity.RevokeAPIKey(ctx, prefix, "again"); return err }()); e == nil || e.Kind != apperr.Conflict || e.Code != "API_KEY_ALREADY_REVOKED" {
			t.Fatalf("already revoked error: %+v", e)
		}

		// Deletion too.
		if r := s.do(http.MethodGet, "/api/v1/test/me", nil, key2); r.Code != 200 {
			t.Fatalf("key2: %d", r.Code)
		}
		if err := s.identity.DeleteAPIKey(ctx, strings.SplitN(key2, ".", 2)[0]); err != nil {
			t.Fatal(err)
		}
		assertError(t, s.do(http.MethodGet, "/api/v1/test/me", nil, key2), 401, "Unauthorized: Invalid API key", 401, "auth")
		if err := s.identity.DeleteAPIKey(ctx, strings.SplitN(key2, ".", 2)[0]); !errors.Is(err, domain.ErrAPIKeyNotFound) {
			t.Fatalf("second delete: %v", err)
		}
	})
}

func TestAPIKeyCacheAvoidsDatabase(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *stack) {
		ctx := context.Background()
		rec, key, err := s.identity.CreateAPIKey(ctx, apiKeyCmd("cached", "read"))
		if err != nil {
			t.Fatal(err)
		}
		if r := s.do(http.MethodGet, "/api/v1/test/me", nil, key); r.Code != 200 {
			t.Fatalf("first use: %d", r.Code)
		}
		// Remove the row behind the cache's back (as another process would): cached
		// requests do not read the database...
		if err := s.db.Gorm().Exec("DELETE FROM api_keys WHERE id = ?", rec.ID).Error; err != nil {
			t.Fatal(err)
		}
		if r := s.do(http.MethodGet, "/api/v1/test/me", nil, key); r.Code != 200 {
			t.Fatalf("cached use: %d %s", r.Code, r.Raw)
		}
		// ...and the periodic re-check notices the deletion.
		if err := s.authn.Recheck(ctx); err != nil {
			t.Fatal(err)
		}
		assertError(t, s.do(http.MethodGet, "/api/v1/test/me", nil, key), 401, "Unauthorized: Invalid API key", 401, "auth")
	})
}

// TestAPIKeyRevocationAcrossProcesses runs two authenticators ("processes") on one
// database: a revocation in one reaches the other through the periodic re-check
// without Redis, and at once through Redis pub/sub.
func TestAPIKeyRevocationAcrossProcesses(t *testing.T) {
	for _, engine := range testdb.Engines() {
		t.Run(engine+"/recheck", func(t *testing.T) {
			t.Parallel()
			a := newStackWith(t, engine, stackOptions{settings: func(s *app.Settings) { s.KeyRecheckInterval = 50 * time.Millisecond }})
			b := newStackWith(t, engine, stackOptions{db: a.db, settings: func(s *app.Settings) { s.KeyRecheckInterval = 50 * time.Millisecond }})
			_, key, err := a.identity.CreateAPIKey(context.Background(), apiKeyCmd("shared", "read"))
			if err != nil {
				t.Fatal(err)
			}
			if r := b.do(http.MethodGet, "/api/v1/test/me", nil, key); r.Code != 200 {
				t.Fatalf("b: %d", r.Code)
			}
			if _, err := a.identity.RevokeAPIKey(context.Background(), strings.SplitN(key, ".", 2)[0], "rotated"); err != nil {
				t.Fatal(err)
			}
			jobstest.WaitFor(t, 5*time.Second, "the revoked key refused", func() bool { return b.do(http.MethodGet, "/api/v1/test/me", nil, key).Code == 401 })
			assertError(t, b.do(http.MethodGet, "/api/v1/test/me", nil, key), 401, "Unauthorized: API key has been revoked", 401, "auth")
		})
		// Not parallel: subscriber counts on the shared channel must be this test's own.
		t.Run(engine+"/redis", func(t *testing.T) {
			rdb := testRedis(t)
			noRecheck := func(s *app.Settings) { s.KeyRecheckInterval = 0 }
			d := testdb.Open(t, engine, events.Migrations(), identity.Migrations(), testTables).DB
			subsBefore := numSub(t, rdb)
			a := newStackWith(t, engine, stackOptions{db: d, redis: rdb, settings: noRecheck})
			b := newStackWith(t, engine, stackOptions{db: d, redis: rdb, settings: noRecheck})
			jobstest.WaitFor(t, 5*time.Second, "the subscribers", func() bool { return numSub(t, rdb) >= subsBefore+2 })
			_, key, err := a.identity.CreateAPIKey(context.Background(), apiKeyCmd("shared", "read"))
			if err != nil {
				t.Fatal(err)
			}
			if r := b.do(http.MethodGet, "/api/v1/test/me", nil, key); r.Code != 200 {
				t.Fatalf("b: %d", r.Code)
			}
			if b.cache.Len() != 1 {
				t.Fatalf("b cache: %d entries", b.cache.Len())
			}
			if err := a.identity.DeleteAPIKey(context.Background(), strings.SplitN(key, ".", 2)[0]); err != nil {
				t.Fatal(err)
			}
			jobstest.WaitFor(t, 5*time.Second, "the key cache emptied", func() bool { return b.cache.Len() == 0 })
			assertError(t, b.do(http.MethodGet, "/api/v1/test/me", nil, key), 401, "Unauthorized: Invalid API key", 401, "auth")
		})
	}
}

func numSub(t *testing.T, rdb *goredis.Client) int64 {
	t.Helper()
	m, err := rdb.PubSubNumSub(context.Background(), identityredis.Channel).Result()
	if err != nil {
		t.Fatal(err)
	}
	return m[identityredis.Channel]
}
