package identity_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/identity/adapters/customersapi"
	identityjwt "github.com/gocommerce/commerce/modules/identity/adapters/jwt"
	identitypg "github.com/gocommerce/commerce/modules/identity/adapters/postgres"
	identityredis "github.com/gocommerce/commerce/modules/identity/adapters/redis"
	"github.com/gocommerce/commerce/modules/identity/api"
	"github.com/gocommerce/commerce/modules/identity/app"
	"github.com/gocommerce/commerce/modules/identity/domain"
	"github.com/gocommerce/commerce/modules/identity/ports"
	"github.com/gocommerce/commerce/platform/auth"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/testdb"
)

// countingKeys counts the database calls the authenticator makes.
type countingKeys struct {
	ports.APIKeyRepository
	gets, touches atomic.Int64
}

func (c *countingKeys) GetByPrefix(ctx context.Context, prefix string) (domain.APIKey, error) {
	c.gets.Add(1)
	return c.APIKeyRepository.GetByPrefix(ctx, prefix)
}

func (c *countingKeys) TouchLastUsed(ctx context.Context, id string, at time.Time, ip string, notBefore time.Time) error {
	c.touches.Add(1)
	return c.APIKeyRepository.TouchLastUsed(ctx, id, at, ip, notBefore)
}

type fixture struct {
	svc      *app.Service
	authn    *app.Authenticator
	keys     *countingKeys
	clock    *clock.Fake
	db       *db.DB
	settings app.Settings
	revs     *app.Revocations
}

func newFixture(tb testing.TB, engine string) *fixture {
	tb.Helper()
	e := testdb.Open(tb, engine, events.Migrations(), identitypg.Migrations(), testTables)
	cfg := config.Default()
	cfg.Security.JWT.Secret = "fixture-secret-0123456789-abcdefghijk"
	cfg.Security.BcryptCost = 4
	clk := clock.NewFake(time.Now().Truncate(time.Microsecond))
	settings := app.SettingsFrom(&cfg)
	settings.KeyRecheckInterval = 0
	keys := &countingKeys{APIKeyRepository: identitypg.NewAPIKeyRepository(e.DB)}
	tokens, err := identityjwt.NewTokens(&cfg, clk)
	if err != nil {
		tb.Fatal(err)
	}
	cache := app.NewKeyCache(settings, clk)
	inv := identityredis.NewInvalidations(nil, zap.NewNop())
	cust := newFakeCustomers(tb, e.DB)
	revs := app.NewRevocations(settings, identitypg.NewTokenRevocationRepository(e.DB), e.DB, inv, clk, zap.NewNop())
	svc := app.NewService(settings, e.DB, identitypg.NewCredentialRepository(e.DB), identitypg.NewStaffRepository(e.DB), keys,
		customersapi.NewAdapter(cust), tokens, cache, revs, inv, clk, zap.NewNop())
	authn, cleanup, err := app.NewAuthenticator(settings, tokens, keys, cache, revs, inv, clk, zap.NewNop())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(cleanup)
	return &fixture{svc: svc, authn: authn, keys: keys, clock: clk, db: e.DB, settings: settings, revs: revs}
}

// admin creates an admin with email and logs in as login (the email as typed).
func (f *fixture) admin(tb testing.TB, email, login string) app.StaffLogin {
	tb.Helper()
	ctx := context.Background()
	if _, err := f.svc.CreateAdmin(ctx, email, "admin-pass-1"); err != nil {
		tb.Fatal(err)
	}
	l, err := f.svc.AdminLogin(ctx, app.LoginCommand{Email: login, Password: "admin-pass-1"})
	if err != nil {
		tb.Fatal(err)
	}
	return l
}

func TestAuthenticatorCachesVerifiedKeys(t *testing.T) {
	testdb.EachEngine(t, func(t *testing.T, engine string) {
		f := newFixture(t, engine)
		ctx := context.Background()
		rec, key, err := f.svc.CreateAPIKey(ctx, api.CreateAPIKeyCommand{Name: "svc", Scopes: []string{"orders:write"}, RateLimitMultiplier: "1.5"})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 100; i++ {
			p, err := f.authn.Authenticate(ctx, key, "10.0.0.1")
			if err != nil {
				t.Fatal(err)
			}
			if p.Kind != auth.APIKey || p.ID != rec.ID || p.KeyPrefix != rec.Prefix || p.RateLimitMultiplier != 1.5 || !p.Can("orders:read") {
				t.Fatalf("principal %+v", p)
			}
			p.Scopes = nil // callers cannot corrupt the cache
		}
		if n := f.keys.gets.Load(); n != 1 {
			t.Fatalf("database lookups for 100 requests: %d, want 1", n)
		}
		// A wrong secret never rides on the cached entry.
		if _, err := f.authn.Authenticate(ctx, rec.Prefix+".wrongwrongwrongwrongwrongwrongwr", ""); !errors.Is(err, domain.ErrInvalidAPIKey) {
			t.Fatalf("wrong secret: %v", err)
		}
		// The TTL bounds the cache.
		f.clock.Advance(31 * time.Second)
		if _, err := f.authn.Authenticate(ctx, key, "10.0.0.1"); err != nil {
			t.Fatal(err)
		}
		if n := f.keys.gets.Load(); n != 3 {
			t.Fatalf("lookups after TTL: %d, want 3", n)
		}
	})
}

func TestLastUsedWrittenAtMostOncePerMinute(t *testing.T) {
	testdb.EachEngine(t, func(t *testing.T, engine string) {
		f := newFixture(t, engine)
		ctx := context.Background()
		rec, key, err := f.svc.CreateAPIKey(ctx, api.CreateAPIKeyCommand{Name: "svc", Scopes: []string{"read"}})
		if err != nil {
			t.Fatal(err)
		}
		use := func(ip string) {
			t.Helper()
			if _, err := f.authn.Authenticate(ctx, key, ip); err != nil {
				t.Fatal(err)
			}
			if err := f.authn.Flush(ctx); err != nil {
				t.Fatal(err)
			}
		}
		use("10.0.0.1")
		first := f.clock.Now()
		f.clock.Advance(30 * time.Second)
		use("10.0.0.2")
		got, err := f.svc.GetAPIKey(ctx, rec.Prefix)
		if err != nil || got.LastUsedAt == nil || !got.LastUsedAt.Equal(first) || got.LastUsedIP != "10.0.0.1" {
			t.Fatalf("after two uses within a minute: %+v %v", got, err)
		}
		if n := f.keys.touches.Load(); n != 1 {
			t.Fatalf("writes: %d, want 1", n)
		}
		f.clock.Advance(31 * time.Second)
		use("10.0.0.3")
		got, _ = f.svc.GetAPIKey(ctx, rec.Prefix)
		if got.LastUsedAt == nil || !got.LastUsedAt.Equal(f.clock.Now()) || got.LastUsedIP != "10.0.0.3" {
			t.Fatalf("after a minute: %+v", got)
		}
	})
}

func TestJWTPrincipal(t *testing.T) {
	if testing.Short() {
		t.Skip("database test skipped under -short")
	}
	f := newFixture(t, "sqlite")
	ctx := context.Background()
	l := f.admin(t, "boss@example.com", "BOSS@example.com")
	p, err := f.authn.Authenticate(ctx, l.Tokens.AccessToken, "")
	if err != nil || p.Kind != auth.Staff || p.ID != l.User.ID || p.Email != "boss@example.com" || !p.IsAdmin() {
		t.Fatalf("staff principal %+v %v", p, err)
	}
	if _, err := f.authn.Authenticate(ctx, l.Tokens.RefreshToken, ""); !errors.Is(err, domain.ErrInvalidToken) {
		t.Fatalf("refresh token as access: %v", err)
	}
	f.clock.Advance(25 * time.Hour)
	if _, err := f.authn.Authenticate(ctx, l.Tokens.AccessToken, ""); !errors.Is(err, domain.ErrTokenExpired) {
		t.Fatalf("expired: %v", err)
	}
	// The refresh token lives 7 days.
	if _, err := f.svc.Refresh(ctx, l.Tokens.RefreshToken); err != nil {
		t.Fatalf("refresh after a day: %v", err)
	}
	f.clock.Advance(7 * 24 * time.Hour)
	if _, err := f.svc.Refresh(ctx, l.Tokens.RefreshToken); !errors.Is(err, domain.ErrTokenExpired) {
		t.Fatalf("refresh after 8 days: %v", err)
	}
}

// benchAuthenticate measures Authenticate of credential from ip, in parallel.
func (f *fixture) benchAuthenticate(b *testing.B, credential, ip string) {
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := f.authn.Authenticate(ctx, credential, ip); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkAuthenticateAPIKey measures the cached API key path (no database round trip).
func BenchmarkAuthenticateAPIKey(b *testing.B) {
	f := newFixture(b, "sqlite")
	ctx := context.Background()
	_, key, err := f.svc.CreateAPIKey(ctx, api.CreateAPIKeyCommand{Name: "bench", Scopes: []string{"read"}})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := f.authn.Authenticate(ctx, key, "10.0.0.1"); err != nil {
		b.Fatal(err)
	}
	f.benchAuthenticate(b, key, "10.0.0.1")
	b.StopTimer()
	if n := f.keys.gets.Load(); n != 1 {
		b.Fatalf("database lookups: %d, want 1", n)
	}
}

// BenchmarkAuthenticateJWT measures access-token verification.
func BenchmarkAuthenticateJWT(b *testing.B) {
	f := newFixture(b, "sqlite")
	l := f.admin(b, "bench@example.com", "bench@example.com")
	f.benchAuthenticate(b, l.Tokens.AccessToken, "")
}

// BenchmarkAuthenticateCustomerJWT measures a customer access token, whose check also
// consults the in-memory token revocations: empty, and holding 10,000 other customers.
func BenchmarkAuthenticateCustomerJWT(b *testing.B) {
	for _, revoked := range []int{0, 10_000} {
		b.Run(fmt.Sprintf("revoked=%d", revoked), func(b *testing.B) {
			f := newFixture(b, "sqlite")
			ctx := context.Background()
			reg, err := f.svc.Register(ctx, app.RegisterCommand{Email: "bench@example.com", Password: "bench-pass-1"})
			if err != nil {
				b.Fatal(err)
			}
			for i := 0; i < revoked; i++ {
				f.revs.Apply(domain.TokenRevocation{CustomerID: ids.New(), Generation: 1, RevokedAt: f.clock.Now()})
			}
			token := reg.Tokens.AccessToken
			f.benchAuthenticate(b, token, "")
		})
	}
}
