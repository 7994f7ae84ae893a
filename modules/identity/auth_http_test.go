package identity_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	gojwt "github.com/golang-jwt/jwt/v5"

	customersapi "github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/ids"
)

func TestRegister(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *stack) {
		r := s.register("  Ada@Example.com ", "analytical-engine-1", "Ada", "Lovelace")
		if r.Code != http.StatusCreated {
			t.Fatalf("register: %d %s", r.Code, r.Raw)
		}
		if got := httpxtest.Keys(r.Body); got != "access_token,customer,expires_in,refresh_token,token_type" {
			t.Fatalf("token response members: %s", got)
		}
		if r.Body["token_type"] != "Bearer" || r.Body["expires_in"] != float64(86400) {
			t.Errorf("token_type/expires_in: %v", r.Body)
		}
		for _, k := range []string{"access_token", "refresh_token"} {
			if tok, _ := r.Body[k].(string); strings.Count(tok, ".") != 2 {
				t.Errorf("%s is not a JWT: %v", k, r.Body[k])
			}
		}
		cust := r.Body["customer"].(map[string]any)
		if got := httpxtest.Keys(cust); got != "email,first_name,id,last_name" {
			t.Fatalf("customer members: %s", got)
		}
		if !ids.Valid(cust["id"].(string)) || cust["email"] != "ada@example.com" || cust["first_name"] != "Ada" || cust["last_name"] != "Lovelace" {
			t.Errorf("customer: %v", cust)
		}
		if n := s.Count("outbox_events", "type = ?", customersapi.EventCustomerCreated); n != 1 {
			t.Errorf("customer.created events: %d, want 1", n)
		}

		// The access token works on a protected route and names the customer.
		me := s.do(http.MethodGet, "/api/v1/test/me", nil, "Bearer "+r.Body["access_token"].(string))
		if me.Code != 200 || me.Body["kind"] != "customer" || me.Body["id"] != cust["id"] || me.Body["email"] != "ada@example.com" {
			t.Fatalf("whoami: %d %s", me.Code, me.Raw)
		}
		scopes := me.Body["scopes"].([]any)
		if len(scopes) != len(s.cfg.Security.CustomerScopes) || scopes[0] != "products:read" {
			t.Errorf("customer scopes: %v", scopes)
		}

		// Duplicate email, in any case: 409 EMAIL_TAKEN, and no second event.
		dup := s.register("ADA@example.com", "analytical-engine-2", "Ada", "Again")
		assertError(t, dup, http.StatusConflict, "", "EMAIL_TAKEN", "conflict")
		if got := httpxtest.Keys(dup.Err()); got != "category,code,message,request_id,status" {
			t.Errorf("conflict envelope members: %s", got)
		}
		if n := s.Count("outbox_events", "type = ?", customersapi.EventCustomerCreated); n != 1 {
			t.Errorf("customer.created events after duplicate: %d, want 1", n)
		}

		for _, bad := range []string{"not-an-email", "a@localhost", "Ada <ada2@example.com>", strings.Repeat("x", 250) + "@example.com"} {
			r := s.register(bad, "analytical-engine-1", "A", "B")
			assertError(t, r, http.StatusBadRequest, "", "INVALID_EMAIL", "validation")
			if f, _ := r.Err()["fields"].(map[string]any); f["email"] == nil { // CONTRACT §5: fields name the bad field
				t.Errorf("INVALID_EMAIL without fields.email: %s", r.Raw)
			}
		}
		for _, bad := range []string{"short1", "nodigitshere", "1234567890", strings.Repeat("a1", 37)} {
			r := s.register("pw@example.com", bad, "A", "B")
			assertError(t, r, http.StatusBadRequest, "Password must be 8 to 72 bytes long and contain at least one letter and one digit", "INVALID_PASSWORD", "validation")
			if f, _ := r.Err()["fields"].(map[string]any); f["password"] == nil {
				t.Errorf("INVALID_PASSWORD without fields.password: %s", r.Raw)
			}
		}

		missing := s.do(http.MethodPost, "/api/v1/auth/register", map[string]string{}, "")
		assertError(t, missing, http.StatusBadRequest, "", 400, "validation")
		fields, _ := missing.Err()["fields"].(map[string]any)
		if httpxtest.Keys(fields) != "email,first_name,last_name,password" || fields["email"] != "is required" {
			t.Errorf("fields: %v", fields)
		}
		partial := s.do(http.MethodPost, "/api/v1/auth/register", map[string]string{"email": "x@example.com", "password": "abcdefg12"}, "")
		if f, _ := partial.Err()["fields"].(map[string]any); partial.Code != 400 || httpxtest.Keys(f) != "first_name,last_name" {
			t.Errorf("partial body: %d %s", partial.Code, partial.Raw)
		}
		notJSON := s.do(http.MethodPost, "/api/v1/auth/register", `"just a string"`, "")
		assertError(t, notJSON, http.StatusBadRequest, "", 400, "validation")
		if n := s.Count("outbox_events", "type = ?", customersapi.EventCustomerCreated); n != 1 {
			t.Errorf("customer.created events after failures: %d, want 1", n)
		}
	})
}

func TestRegisterRollsBackCustomerAndEvent(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *stack) {
		// An orphan credential makes the credential insert fail after the customer (and
		// its event) were written in the same transaction.
		now := time.Now().UTC()
		err := s.db.Gorm().Exec("INSERT INTO identity_credentials (customer_id, email, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
			ids.New(), "orphan@example.com", "x", now, now).Error
		if err != nil {
			t.Fatal(err)
		}
		r := s.register("orphan@example.com", "password-123", "Or", "Phan")
		assertError(t, r, http.StatusConflict, "", "EMAIL_TAKEN", "conflict")
		var n int64
		if err := s.db.Gorm().Table("test_customers").Where("email = ?", "orphan@example.com").Count(&n).Error; err != nil || n != 0 {
			t.Fatalf("customer rows after failed register: %d %v", n, err)
		}
		if n := s.Count("outbox_events", "type = ?", customersapi.EventCustomerCreated); n != 0 {
			t.Fatalf("customer.created events after failed register: %d, want 0", n)
		}
	})
}

func TestLogin(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *stack) {
		_, _, id := s.mustRegister("grace@example.com")
		ok := s.do(http.MethodPost, "/api/v1/auth/login", map[string]string{"email": "Grace@Example.com", "password": "correct-horse-1"}, "")
		if ok.Code != 200 || httpxtest.Keys(ok.Body) != "access_token,customer,expires_in,refresh_token,token_type" {
			t.Fatalf("login: %d %s", ok.Code, ok.Raw)
		}
		if c := ok.Body["customer"].(map[string]any); c["id"] != id || c["email"] != "grace@example.com" || c["first_name"] != "Test" {
			t.Errorf("customer: %v", c)
		}
		if ok.Body["token_type"] != "Bearer" || ok.Body["expires_in"] != float64(86400) {
			t.Errorf("login body: %v", ok.Body)
		}

		wrongPw := s.do(http.MethodPost, "/api/v1/auth/login", map[string]string{"email": "grace@example.com", "password": "wrong-horse-1"}, "")
		unknown := s.do(http.MethodPost, "/api/v1/auth/login", map[string]string{"email": "nobody@example.com", "password": "correct-horse-1"}, "")
		malformed := s.do(http.MethodPost, "/api/v1/auth/login", map[string]string{"email": "nobody", "password": "x"}, "")
		for _, r := range []httpxtest.Response{wrongPw, unknown, malformed} {
			assertError(t, r, http.StatusUnauthorized, "Unauthorized: Invalid email or password", 401, "auth")
		}
		a, b := wrongPw.Err(), unknown.Err()
		delete(a, "request_id")
		delete(b, "request_id")
		if httpxtest.Keys(a) != httpxtest.Keys(b) || a["message"] != b["message"] || a["code"] != b["code"] || a["category"] != b["category"] {
			t.Errorf("wrong password and unknown email differ: %v vs %v", a, b)
		}

		missing := s.do(http.MethodPost, "/api/v1/auth/login", map[string]string{"email": "grace@example.com"}, "")
		assertError(t, missing, http.StatusBadRequest, "", 400, "validation")

		// A disabled customer cannot log in (same 401) nor refresh.
		_, refresh, _ := s.mustRegister("disabled@example.com")
		setCustomerState(t, s.db, "disabled@example.com", customersapi.StateDisabled)
		r := s.do(http.MethodPost, "/api/v1/auth/login", map[string]string{"email": "disabled@example.com", "password": "correct-horse-1"}, "")
		assertError(t, r, http.StatusUnauthorized, "Unauthorized: Invalid email or password", 401, "auth")
		r = s.do(http.MethodPost, "/api/v1/auth/refresh", map[string]string{"refresh_token": refresh}, "")
		assertError(t, r, http.StatusUnauthorized, "Unauthorized: Invalid token", 401, "auth")
	})
}

func TestRefresh(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *stack) {
		access, refresh, id := s.mustRegister("linus@example.com")
		r := s.do(http.MethodPost, "/api/v1/auth/refresh", map[string]string{"refresh_token": refresh}, "")
		if r.Code != 200 || httpxtest.Keys(r.Body) != "access_token,expires_in,token_type" {
			t.Fatalf("refresh: %d %s", r.Code, r.Raw)
		}
		if r.Body["token_type"] != "Bearer" || r.Body["expires_in"] != float64(86400) {
			t.Errorf("refresh body: %v", r.Body)
		}
		me := s.do(http.MethodGet, "/api/v1/test/me", nil, "Bearer "+r.Body["access_token"].(string))
		if me.Code != 200 || me.Body["id"] != id || me.Body["kind"] != "customer" {
			t.Fatalf("refreshed access token: %d %s", me.Code, me.Raw)
		}

		// An access token is not a refresh token, and the other way round.
		r = s.do(http.MethodPost, "/api/v1/auth/refresh", map[string]string{"refresh_token": access}, "")
		assertError(t, r, http.StatusUnauthorized, "Unauthorized: Invalid token", 401, "auth")
		r = s.do(http.MethodGet, "/api/v1/test/me", nil, "Bearer "+refresh)
		assertError(t, r, http.StatusUnauthorized, "Unauthorized: Invalid token", 401, "auth")

		for _, bad := range []string{"garbage", "a.b.c", forge(t, testSecret, "refresh", -time.Hour, id)} {
			r = s.do(http.MethodPost, "/api/v1/auth/refresh", map[string]string{"refresh_token": bad}, "")
			if r.Code != http.StatusUnauthorized || r.Err()["category"] != "auth" {
				t.Errorf("refresh with %q: %d %s", bad, r.Code, r.Raw)
			}
		}
		r = s.do(http.MethodPost, "/api/v1/auth/refresh", map[string]string{"refresh_token": forge(t, testSecret, "refresh", -time.Hour, id)}, "")
		assertError(t, r, http.StatusUnauthorized, "Unauthorized: Token has expired", 401, "auth")
		r = s.do(http.MethodPost, "/api/v1/auth/refresh", map[string]string{}, "")
		assertError(t, r, http.StatusBadRequest, "", 400, "validation")
	})
}

// forge signs a customer token with the given secret, type and expiry offset.
func forge(t *testing.T, secret, typ string, expiresIn time.Duration, subject string) string {
	t.Helper()
	now := time.Now()
	claims := gojwt.MapClaims{
		"sub": subject, "kind": "customer", "typ": typ, "iss": "commerce", "jti": ids.New(),
		"scopes": []string{"products:write"}, "iat": now.Add(-2 * time.Hour).Unix(), "exp": now.Add(expiresIn).Unix(),
	}
	tok, err := gojwt.NewWithClaims(gojwt.SigningMethodHS256, claims).SignedString([]byte(secret))
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func TestAccessTokenValidation(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *stack) {
		id := ids.New()
		valid := forge(t, testSecret, "access", time.Hour, id)
		if r := s.do(http.MethodPost, "/api/v1/test/products", nil, "Bearer "+valid); r.Code != 200 || r.Body["id"] != id {
			t.Fatalf("forged valid token: %d %s", r.Code, r.Raw)
		}
		expired := forge(t, testSecret, "access", -time.Minute, id)
		assertError(t, s.do(http.MethodGet, "/api/v1/test/me", nil, "Bearer "+expired), 401, "Unauthorized: Token has expired", 401, "auth")

		wrongKey := forge(t, "another-secret-0123456789-abcdefghijkl", "access", time.Hour, id)
		assertError(t, s.do(http.MethodGet, "/api/v1/test/me", nil, "Bearer "+wrongKey), 401, "Unauthorized: Invalid token", 401, "auth")

		none, err := gojwt.NewWithClaims(gojwt.SigningMethodNone, gojwt.MapClaims{
			"sub": id, "kind": "customer", "typ": "access", "iss": "commerce", "scopes": []string{"admin"},
			"iat": time.Now().Unix(), "exp": time.Now().Add(time.Hour).Unix(),
		}).SignedString(gojwt.UnsafeAllowNoneSignatureType)
		if err != nil {
			t.Fatal(err)
		}
		assertError(t, s.do(http.MethodGet, "/api/v1/test/me", nil, "Bearer "+none), 401, "Unauthorized: Invalid token", 401, "auth")

		hs512, err := gojwt.NewWithClaims(gojwt.SigningMethodHS512, gojwt.MapClaims{
			"sub": id, "kind": "customer", "typ": "access", "iss": "commerce", "iat": time.Now().Unix(), "exp": time.Now().Add(time.Hour).Unix(),
		}).SignedString([]byte(testSecret))
		if err != nil {
			t.Fatal(err)
		}
		assertError(t, s.do(http.MethodGet, "/api/v1/test/me", nil, "Bearer "+none+"c2ln"), 401, "Unauthorized: Invalid token", 401, "auth")
		assertError(t, s.do(http.MethodGet, "/api/v1/test/me", nil, "Bearer "+hs512), 401, "Unauthorized: Invalid token", 401, "auth")

		wrongIssuer, _ := gojwt.NewWithClaims(gojwt.SigningMethodHS256, gojwt.MapClaims{
			"sub": id, "kind": "customer", "typ": "access", "iss": "someone-else", "iat": time.Now().Unix(), "exp": time.Now().Add(time.Hour).Unix(),
		}).SignedString([]byte(testSecret))
		assertError(t, s.do(http.MethodGet, "/api/v1/test/me", nil, "Bearer "+wrongIssuer), 401, "Unauthorized: Invalid token", 401, "auth")

		noExp, _ := gojwt.NewWithClaims(gojwt.SigningMethodHS256, gojwt.MapClaims{
			"sub": id, "kind": "customer", "typ": "access", "iss": "commerce",
		}).SignedString([]byte(testSecret))
		assertError(t, s.do(http.MethodGet, "/api/v1/test/me", nil, "Bearer "+noExp), 401, "Unauthorized: Invalid token", 401, "auth")

		assertError(t, s.do(http.MethodGet, "/api/v1/test/me", nil, "Bearer abc.def.ghi"), 401, "Unauthorized: Invalid token", 401, "auth")
		assertError(t, s.do(http.MethodGet, "/api/v1/test/me", nil, "Bearer "+valid[:len(valid)-3]+"xyz"), 401, "Unauthorized: Invalid token", 401, "auth")
		assertError(t, s.do(http.MethodGet, "/api/v1/test/me", nil, ""), 401, "Unauthorized: Missing authorization header", 401, "auth")

		// Public routes ignore a bad credential.
		r := s.do(http.MethodPost, "/api/v1/auth/login", map[string]string{"email": "x@example.com", "password": "password-1"}, "Bearer "+expired)
		assertError(t, r, 401, "Unauthorized: Invalid email or password", 401, "auth")
	})
}

func TestScopes(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *stack) {
		access, _, _ := s.mustRegister("scopes@example.com")
		r := s.do(http.MethodPost, "/api/v1/test/products", nil, "Bearer "+access)
		assertError(t, r, http.StatusForbidden, "Forbidden: Insufficient permissions. Required: products:write", 403, "auth")

		_, readKey, err := s.identity.CreateAPIKey(context.Background(), apiKeyCmd("reader", "products:read"))
		if err != nil {
			t.Fatal(err)
		}
		r = s.do(http.MethodPost, "/api/v1/test/products", nil, "Bearer "+readKey)
		assertError(t, r, http.StatusForbidden, "Forbidden: Insufficient permissions. Required: products:write", 403, "auth")

		_, writeKey, err := s.identity.CreateAPIKey(context.Background(), apiKeyCmd("writer", "products:write"))
		if err != nil {
			t.Fatal(err)
		}
		if r := s.do(http.MethodPost, "/api/v1/test/products", nil, "Bearer "+writeKey); r.Code != 200 {
			t.Fatalf("products:write key: %d %s", r.Code, r.Raw)
		}
	})
}
