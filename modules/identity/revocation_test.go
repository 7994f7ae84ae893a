package identity_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/identity"
	identitypg "github.com/gocommerce/commerce/modules/identity/adapters/postgres"
	identityredis "github.com/gocommerce/commerce/modules/identity/adapters/redis"
	"github.com/gocommerce/commerce/modules/identity/app"
	"github.com/gocommerce/commerce/modules/identity/domain"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/jobs/jobstest"
	"github.com/gocommerce/commerce/platform/testdb"
)

// revoke revokes the customer's tokens the way the customers module does: inside its
// use case's transaction.
func (s *stack) revoke(id string) {
	s.t.Helper()
	if err := s.db.InTx(context.Background(), func(ctx context.Context) error { return s.creds.RevokeTokens(ctx, id) }); err != nil {
		s.t.Fatal(err)
	}
}

func (s *stack) login(email string) (access, refresh string) {
	s.t.Helper()
	r := s.do(http.MethodPost, "/api/v1/auth/login", map[string]string{"email": email, "password": "correct-horse-1"}, "")
	if r.Code != http.StatusOK {
		s.t.Fatalf("login %s: %d %s", email, r.Code, r.Raw)
	}
	return r.Body["access_token"].(string), r.Body["refresh_token"].(string)
}

func (s *stack) me(access string) httpxtest.Response {
	s.t.Helper()
	return s.do(http.MethodGet, "/api/v1/test/me", nil, "Bearer "+access)
}

func (s *stack) refresh(refresh string) httpxtest.Response {
	s.t.Helper()
	return s.do(http.MethodPost, "/api/v1/auth/refresh", map[string]string{"refresh_token": refresh}, "")
}

// TestRevokedCustomerTokens: after RevokeTokens commits, the customer's access and
// refresh tokens answer 401 "Unauthorized: Invalid token" in the process that revoked at
// once; tokens issued afterwards (a re-enabled customer's login) work until the next
// revocation; a revocation rolled back with its transaction changes nothing
// (docs/decisions/0096).
func TestRevokedCustomerTokens(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *stack) {
		access, refresh, id := s.mustRegister("ada@example.com")
		_, otherRefresh, _ := s.mustRegister("grace@example.com")
		otherAccess, _ := s.login("grace@example.com")
		if r := s.me(access); r.Code != http.StatusOK { // also puts the token in the verified-token cache
			t.Fatalf("before: %d %s", r.Code, r.Raw)
		}
		refreshed := s.refresh(refresh)
		if refreshed.Code != http.StatusOK {
			t.Fatalf("refresh before: %d %s", refreshed.Code, refreshed.Raw)
		}
		refreshedAccess := refreshed.Body["access_token"].(string)

		// Rolled back: nothing happens.
		rollback := errors.New("rolled back")
		err := s.db.InTx(context.Background(), func(ctx context.Context) error {
			if err := s.creds.RevokeTokens(ctx, id); err != nil {
				return err
			}
			return rollback
		})
		if !errors.Is(err, rollback) {
			t.Fatal(err)
		}
		if r := s.me(access); r.Code != http.StatusOK {
			t.Fatalf("after a rolled-back revocation: %d %s", r.Code, r.Raw)
		}

		s.revoke(id)
		for _, tok := range []string{access, refreshedAccess} {
			assertError(t, s.me(tok), http.StatusUnauthorized, "Unauthorized: Invalid token", 401, "auth")
		}
		assertError(t, s.refresh(refresh), http.StatusUnauthorized, "Unauthorized: Invalid token", 401, "auth")
		// Another customer is untouched.
		if r := s.me(otherAccess); r.Code != http.StatusOK {
			t.Fatalf("other customer: %d %s", r.Code, r.Raw)
		}
		if r := s.refresh(otherRefresh); r.Code != http.StatusOK {
			t.Fatalf("other customer's refresh: %d %s", r.Code, r.Raw)
		}

		// Signing in again (the customers module re-enabled the customer) gives tokens
		// that work, at once; the old ones stay dead.
		access2, refresh2 := s.login("ada@example.com")
		if r := s.me(access2); r.Code != http.StatusOK || r.Body["id"] != id {
			t.Fatalf("new token: %d %s", r.Code, r.Raw)
		}
		r := s.refresh(refresh2)
		if r.Code != http.StatusOK {
			t.Fatalf("new refresh: %d %s", r.Code, r.Raw)
		}
		access3 := r.Body["access_token"].(string)
		if r := s.me(access3); r.Code != http.StatusOK {
			t.Fatalf("access from the new refresh: %d %s", r.Code, r.Raw)
		}
		assertError(t, s.me(access), http.StatusUnauthorized, "Unauthorized: Invalid token", 401, "auth")
		assertError(t, s.refresh(refresh), http.StatusUnauthorized, "Unauthorized: Invalid token", 401, "auth")

		// A second revocation kills the second generation too.
		s.revoke(id)
		for _, tok := range []string{access2, access3} {
			assertError(t, s.me(tok), http.StatusUnauthorized, "Unauthorized: Invalid token", 401, "auth")
		}
		assertError(t, s.refresh(refresh2), http.StatusUnauthorized, "Unauthorized: Invalid token", 401, "auth")
	})
}

// TestCustomerRevocationAcrossProcesses runs two identity stacks ("processes") on one
// database: a revocation made in one is refused by the other within seconds, through
// each channel on its own: the poll (no Redis), Redis pub/sub (poll off), the embedded
// mode's signal file (poll off, no Redis); and a process started after a revocation
// refuses the old tokens from its first request.
func TestCustomerRevocationAcrossProcesses(t *testing.T) {
	noPoll := func(s *app.Settings) { s.RevocationPollInterval = 0 }
	run := func(t *testing.T, a, b *stack) {
		t.Helper()
		access, refresh, id := a.mustRegister("ada@example.com")
		if r := b.me(access); r.Code != http.StatusOK {
			t.Fatalf("b before: %d %s", r.Code, r.Raw)
		}
		start := time.Now()
		a.revoke(id)
		jobstest.WaitFor(t, 3*time.Second, "the revoked token refused", func() bool { return b.me(access).Code == http.StatusUnauthorized })
		t.Logf("refused by the other process after %v", time.Since(start))
		assertError(t, b.me(access), http.StatusUnauthorized, "Unauthorized: Invalid token", 401, "auth")
		assertError(t, b.refresh(refresh), http.StatusUnauthorized, "Unauthorized: Invalid token", 401, "auth")
		// New tokens from the other process work there and here.
		fresh, _ := b.login("ada@example.com")
		if r := a.me(fresh); r.Code != http.StatusOK {
			t.Fatalf("new token on a: %d %s", r.Code, r.Raw)
		}
	}
	for _, engine := range testdb.Engines() {
		t.Run(engine+"/poll", func(t *testing.T) {
			t.Parallel()
			fast := func(s *app.Settings) { s.RevocationPollInterval = 50 * time.Millisecond }
			a := newStackWith(t, engine, stackOptions{settings: fast})
			b := newStackWith(t, engine, stackOptions{db: a.db, settings: fast})
			run(t, a, b)
		})
		t.Run(engine+"/signal-file", func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			a := newStackWith(t, engine, stackOptions{dataDir: dir, settings: noPoll})
			b := newStackWith(t, engine, stackOptions{db: a.db, dataDir: dir, settings: noPoll})
			run(t, a, b)
		})
		t.Run(engine+"/at-start", func(t *testing.T) {
			t.Parallel()
			a := newStackWith(t, engine, stackOptions{settings: noPoll})
			access, _, id := a.mustRegister("ada@example.com")
			a.revoke(id)
			b := newStackWith(t, engine, stackOptions{db: a.db, settings: noPoll})
			assertError(t, b.me(access), http.StatusUnauthorized, "Unauthorized: Invalid token", 401, "auth")
		})
		// Not parallel: subscriber counts on the shared channel must be this test's own.
		t.Run(engine+"/redis", func(t *testing.T) {
			rdb := testRedis(t)
			d := testdb.Open(t, engine, events.Migrations(), identity.Migrations(), testTables).DB
			subsBefore := numSub(t, rdb)
			a := newStackWith(t, engine, stackOptions{db: d, redis: rdb, settings: noPoll})
			b := newStackWith(t, engine, stackOptions{db: d, redis: rdb, settings: noPoll})
			jobstest.WaitFor(t, 5*time.Second, "the subscribers", func() bool { return numSub(t, rdb) >= subsBefore+2 })
			run(t, a, b)
		})
	}
}

// TestRevocationsForgetExpiredTokens: a revocation is kept only as long as a token
// issued before it can live (the longest token lifetime); a signal that is not a
// revocation is an API key prefix.
func TestRevocationsForgetExpiredTokens(t *testing.T) {
	testdb.EachEngine(t, func(t *testing.T, engine string) {
		f := newFixture(t, engine)
		e, settings := f.db, f.settings
		revs := app.NewRevocations(settings, identitypg.NewTokenRevocationRepository(e), e, identityredis.NewInvalidations(nil, zap.NewNop()), f.clock, zap.NewNop())
		ctx := context.Background()
		if err := revs.Revoke(ctx, "0190c8a2-0000-7000-8000-00000000a11c"); err != nil {
			t.Fatal(err)
		}
		if revs.Len() != 1 || !revs.Refused("0190c8a2-0000-7000-8000-00000000a11c", 0) || revs.Refused("0190c8a2-0000-7000-8000-00000000a11c", 1) {
			t.Fatalf("after revoke: %d entries", revs.Len())
		}
		f.clock.Advance(settings.TokenLifetime() - time.Minute)
		if err := revs.Poll(ctx); err != nil {
			t.Fatal(err)
		}
		if revs.Len() != 1 {
			t.Fatalf("dropped while a token of the old generation can live: %d", revs.Len())
		}
		f.clock.Advance(2 * time.Minute)
		if err := revs.Poll(ctx); err != nil {
			t.Fatal(err)
		}
		if revs.Len() != 0 {
			t.Fatalf("kept after every old token expired: %d", revs.Len())
		}
		// A fresh process loads only the revocations that can still refuse a token.
		fresh := app.NewRevocations(settings, identitypg.NewTokenRevocationRepository(e), e, identityredis.NewInvalidations(nil, zap.NewNop()), f.clock, zap.NewNop())
		if err := fresh.Poll(ctx); err != nil || fresh.Len() != 0 {
			t.Fatalf("fresh load: %d %v", fresh.Len(), err)
		}
	})
}

func TestRevocationSignal(t *testing.T) {
	msg := domain.RevocationSignal("0190c8a2-0000-7000-8000-00000000a11c", 3)
	if id, gen, ok := domain.ParseRevocationSignal(msg); !ok || id != "0190c8a2-0000-7000-8000-00000000a11c" || gen != 3 {
		t.Fatalf("%q → %q %d %v", msg, id, gen, ok)
	}
	for _, bad := range []string{"AbCd1234", "customer:", "customer:x", "customer::1", "customer:x:0", "customer:x:-1", "customer:x:y"} {
		if _, _, ok := domain.ParseRevocationSignal(bad); ok {
			t.Errorf("%q parsed as a revocation", bad)
		}
	}
}
