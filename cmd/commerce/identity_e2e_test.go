package main

import (
	"context"
	"net/http"
	"strings"
	"testing"

	identityapi "github.com/gocommerce/commerce/modules/identity/api"
	"github.com/gocommerce/commerce/platform/config"
)

func errorOf(t *testing.T, r response) map[string]any {
	t.Helper()
	e, ok := r.JSON(t)["error"].(map[string]any)
	if !ok {
		t.Fatalf("no error envelope: %s", r.Body)
	}
	return e
}

// The main identity path through the whole process, every response checked against the
// OpenAPI document.
func TestIdentityEndToEnd(t *testing.T) {
	onEachEngine(t, func(c *config.Config) {
		c.RateLimiting.Auth.RequestsPerMinute = 1000
		c.RateLimiting.Anonymous = config.Limit{RequestsPerMinute: 1000, BurstCapacity: 1000, RequestsPerHour: 10000}
		c.RateLimiting.Endpoints = map[string]config.EndpointLimit{}
	}, func(t *testing.T, ta *testApp) {
		ctx := context.Background()

		// Health and docs.
		ta.must(http.StatusOK, "GET", "/health", nil)
		if r := ta.do("GET", "/api/v1/openapi.json", nil); r.Status != http.StatusOK || !strings.Contains(string(r.Body), "/api/v1/auth/register") {
			t.Fatalf("openapi: %d", r.Status)
		}
		if r := ta.do("GET", "/docs", nil); r.Status != http.StatusOK {
			t.Fatalf("docs: %d", r.Status)
		}
		if r := ta.do("GET", "/metrics", nil); r.Status != http.StatusOK || !strings.Contains(string(r.Body), "commerce_http_requests_total") {
			t.Fatalf("metrics: %d", r.Status)
		}

		// Register → 201 with the login response.
		reg := ta.do("POST", "/api/v1/auth/register", map[string]string{
			"email": "Ada@Example.com", "password": "Secret123", "first_name": "Ada", "last_name": "Lovelace",
		})
		if reg.Status != http.StatusCreated {
			t.Fatalf("register: %d %s", reg.Status, reg.Body)
		}
		body := reg.JSON(t)
		if body["token_type"] != "Bearer" || body["expires_in"] != float64(86400) {
			t.Errorf("register body: %s", reg.Body)
		}
		for _, h := range []string{"X-Request-Id", "X-Ratelimit-Limit", "X-Ratelimit-Remaining", "X-Ratelimit-Reset", "X-Ratelimit-Policy"} {
			if reg.Header.Get(h) == "" {
				t.Errorf("missing header %s", h)
			}
		}
		customer := body["customer"].(map[string]any)
		access := body["access_token"].(string)
		refresh := body["refresh_token"].(string)

		// Duplicate email → 409 EMAIL_TAKEN.
		dup := ta.do("POST", "/api/v1/auth/register", map[string]string{
			"email": "ada@example.com", "password": "Secret123", "first_name": "A", "last_name": "L",
		})
		if e := errorOf(t, dup); dup.Status != http.StatusConflict || e["code"] != "EMAIL_TAKEN" || e["status"] != float64(409) {
			t.Errorf("duplicate: %d %s", dup.Status, dup.Body)
		}

		// Login, wrong password.
		ta.must(http.StatusOK, "POST", "/api/v1/auth/login", map[string]string{"email": "ada@example.com", "password": "Secret123"})
		bad := ta.do("POST", "/api/v1/auth/login", map[string]string{"email": "ada@example.com", "password": "Wrong1234"})
		if e := errorOf(t, bad); bad.Status != http.StatusUnauthorized || e["category"] != "auth" || e["code"] != float64(401) {
			t.Errorf("bad login: %d %s", bad.Status, bad.Body)
		}

		// Refresh; refresh token is not an access token and vice versa.
		ta.must(http.StatusOK, "POST", "/api/v1/auth/refresh", map[string]string{"refresh_token": refresh})
		if r := ta.do("POST", "/api/v1/auth/refresh", map[string]string{"refresh_token": access}); r.Status != http.StatusUnauthorized {
			t.Errorf("access token accepted as refresh: %d", r.Status)
		}
		if r := ta.do("GET", "/api/v1/customers/"+customer["id"].(string), nil, "Authorization", "Bearer "+refresh); r.Status != http.StatusUnauthorized {
			t.Errorf("refresh token accepted as access: %d", r.Status)
		}

		// The customer reads their own record.
		own := ta.do("GET", "/api/v1/customers/"+customer["id"].(string), nil, "Authorization", "Bearer "+access)
		if own.Status != http.StatusOK || own.JSON(t)["data"].(map[string]any)["email"] != "ada@example.com" {
			t.Errorf("own record: %d %s", own.Status, own.Body)
		}

		// Another customer's record is invisible (404), not forbidden.
		other := ta.do("POST", "/api/v1/auth/register", map[string]string{
			"email": "grace@example.com", "password": "Secret123", "first_name": "Grace", "last_name": "Hopper",
		})
		otherID := other.JSON(t)["customer"].(map[string]any)["id"].(string)
		if r := ta.do("GET", "/api/v1/customers/"+otherID, nil, "Authorization", "Bearer "+access); r.Status != http.StatusNotFound {
			t.Errorf("another customer's record: %d %s", r.Status, r.Body)
		}

		// API keys from the CLI's interface: admin view of rate limits.
		_, adminKey, err := ta.app.Identity.CreateAPIKey(ctx, identityapi.CreateAPIKeyCommand{Name: "ops", Scopes: []string{"admin"}})
		if err != nil {
			t.Fatal(err)
		}
		_, readKey, err := ta.app.Identity.CreateAPIKey(ctx, identityapi.CreateAPIKeyCommand{Name: "ro", Scopes: []string{"products:read"}})
		if err != nil {
			t.Fatal(err)
		}
		ta.must(http.StatusOK, "GET", "/api/v1/admin/rate-limits", nil, "Authorization", adminKey)
		forbidden := ta.do("GET", "/api/v1/admin/rate-limits", nil, "Authorization", "Bearer "+readKey)
		if e := errorOf(t, forbidden); forbidden.Status != http.StatusForbidden || !strings.HasPrefix(e["message"].(string), "Forbidden: Insufficient permissions. Required: admin") {
			t.Errorf("forbidden: %d %s", forbidden.Status, forbidden.Body)
		}
		if r := ta.do("GET", "/api/v1/admin/rate-limits", nil); r.Status != http.StatusUnauthorized {
			t.Errorf("missing header: %d", r.Status)
		}

		// Revocation is immediate.
		prefix, _, _ := strings.Cut(adminKey, ".")
		if _, err := ta.app.Identity.RevokeAPIKey(ctx, prefix, "leaked"); err != nil {
			t.Fatal(err)
		}
		rev := ta.do("GET", "/api/v1/admin/rate-limits", nil, "Authorization", "Bearer "+adminKey)
		if e := errorOf(t, rev); rev.Status != http.StatusUnauthorized || e["message"] != "Unauthorized: API key has been revoked" {
			t.Errorf("revoked key: %d %s", rev.Status, rev.Body)
		}

		// Staff login carries the admin scope.
		if _, err := ta.app.Identity.CreateAdmin(ctx, "root@example.com", "Admin12345"); err != nil {
			t.Fatal(err)
		}
		staff := ta.must(http.StatusOK, "POST", "/api/v1/admin/auth/login", map[string]string{"email": "root@example.com", "password": "Admin12345"})
		staffToken := staff.JSON(t)["access_token"].(string)
		if r := ta.do("GET", "/api/v1/admin/rate-limits", nil, "Authorization", "Bearer "+staffToken); r.Status != http.StatusOK {
			t.Errorf("staff token on admin view: %d %s", r.Status, r.Body)
		}
		if r := ta.do("GET", "/api/v1/customers/"+customer["id"].(string), nil, "Authorization", "Bearer "+staffToken); r.Status != http.StatusOK {
			t.Errorf("admin reads any customer: %d %s", r.Status, r.Body)
		}

		// Envelope basics: unknown route, wrong media type, oversized body.
		if r := ta.do("GET", "/api/v1/nope", nil); r.Status != http.StatusNotFound || errorOf(t, r)["request_id"] == "" {
			t.Errorf("unknown route: %d %s", r.Status, r.Body)
		}
		if r := ta.do("POST", "/api/v1/auth/login", "email=a", "Content-Type", "application/x-www-form-urlencoded"); r.Status != http.StatusUnsupportedMediaType {
			t.Errorf("form body: %d %s", r.Status, r.Body)
		}
		big := `{"email":"` + strings.Repeat("a", 2<<20) + `"}`
		if r := ta.do("POST", "/api/v1/auth/login", big); r.Status != http.StatusRequestEntityTooLarge {
			t.Errorf("big body: %d", r.Status)
		}
		if r := ta.do("GET", "/health", nil, "X-Request-ID", "abc-123"); r.Header.Get("X-Request-ID") != "abc-123" {
			t.Errorf("request id not echoed: %q", r.Header.Get("X-Request-ID"))
		}
	})
}
