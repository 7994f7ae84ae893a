package identity_test

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/gocommerce/commerce/modules/identity/domain"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/ids"
)

func TestAdmin(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *stack) {
		ctx := context.Background()
		u, err := s.identity.CreateAdmin(ctx, " Root@Example.com", "admin-pass-1")
		if err != nil {
			t.Fatal(err)
		}
		if !ids.Valid(u.ID) || u.Email != "root@example.com" || u.Role != "admin" || u.CreatedAt.IsZero() {
			t.Fatalf("admin %+v", u)
		}
		if _, err := s.identity.CreateAdmin(ctx, "root@example.com", "admin-pass-2"); !errors.Is(err, domain.ErrEmailTaken) {
			t.Fatalf("duplicate admin: %v", err)
		}
		if _, err := s.identity.CreateAdmin(ctx, "nope", "admin-pass-2"); !errors.Is(err, domain.ErrInvalidEmail) {
			t.Fatalf("bad email: %v", err)
		}
		if _, err := s.identity.CreateAdmin(ctx, "other@example.com", "short"); !errors.Is(err, domain.ErrInvalidPassword) {
			t.Fatalf("bad password: %v", err)
		}

		r := s.do(http.MethodPost, "/api/v1/admin/auth/login", map[string]string{"email": "root@example.com", "password": "admin-pass-1"}, "")
		if r.Code != 200 || httpxtest.Keys(r.Body) != "access_token,expires_in,refresh_token,token_type,user" {
			t.Fatalf("admin login: %d %s", r.Code, r.Raw)
		}
		user := r.Body["user"].(map[string]any)
		if httpxtest.Keys(user) != "email,id,role" || user["id"] != u.ID || user["email"] != "root@example.com" || user["role"] != "admin" {
			t.Errorf("user: %v", user)
		}
		if r.Body["token_type"] != "Bearer" || r.Body["expires_in"] != float64(86400) {
			t.Errorf("body: %v", r.Body)
		}
		access := r.Body["access_token"].(string)
		me := s.do(http.MethodPost, "/api/v1/test/products", nil, "Bearer "+access)
		if me.Code != 200 || me.Body["kind"] != "staff" || me.Body["id"] != u.ID {
			t.Fatalf("admin token on products:write: %d %s", me.Code, me.Raw)
		}
		if scopes := me.Body["scopes"].([]any); len(scopes) != 1 || scopes[0] != "admin" {
			t.Errorf("staff scopes: %v", scopes)
		}
		// The admin scope satisfies any resource scope.
		if g := s.do(http.MethodGet, "/api/v1/test/me", nil, "Bearer "+access); g.Code != 200 || g.Body["email"] != "root@example.com" {
			t.Fatalf("admin whoami: %d %s", g.Code, g.Raw)
		}

		// Staff refresh through /api/v1/auth/refresh keeps the staff identity.
		ref := s.do(http.MethodPost, "/api/v1/auth/refresh", map[string]string{"refresh_token": r.Body["refresh_token"].(string)}, "")
		if ref.Code != 200 || httpxtest.Keys(ref.Body) != "access_token,expires_in,token_type" {
			t.Fatalf("staff refresh: %d %s", ref.Code, ref.Raw)
		}
		me = s.do(http.MethodGet, "/api/v1/test/me", nil, "Bearer "+ref.Body["access_token"].(string))
		if me.Code != 200 || me.Body["kind"] != "staff" || me.Body["scopes"].([]any)[0] != "admin" {
			t.Fatalf("refreshed staff token: %d %s", me.Code, me.Raw)
		}

		// Customers are not staff, and wrong passwords fail the same way.
		for _, body := range []map[string]string{
			{"email": "root@example.com", "password": "wrong-pass-1"},
			{"email": "someone@example.com", "password": "correct-horse-1"},
		} {
			r := s.do(http.MethodPost, "/api/v1/admin/auth/login", body, "")
			assertError(t, r, http.StatusUnauthorized, "Unauthorized: Invalid email or password", 401, "auth")
		}
		// Staff credentials do not log in as customers.
		r = s.do(http.MethodPost, "/api/v1/auth/login", map[string]string{"email": "root@example.com", "password": "admin-pass-1"}, "")
		assertError(t, r, http.StatusUnauthorized, "Unauthorized: Invalid email or password", 401, "auth")
	})
}
