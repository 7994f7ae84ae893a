package main

import (
	"net/http"
	"testing"
	"time"

	"github.com/gocommerce/commerce/modules/payments/adapters/stripe/stripemock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/testdb"
	"github.com/gocommerce/commerce/platform/testredis"
)

// shopper is a registered customer's tokens.
type shopper struct {
	id, email, access, refresh string
}

func (ta *testApp) register(email string) shopper {
	ta.t.Helper()
	r := ta.do("POST", "/api/v1/auth/register", map[string]string{"email": email, "password": "Secret123", "first_name": "Ada", "last_name": "Lovelace"})
	if r.Status != http.StatusCreated {
		ta.t.Fatalf("register: %d %s", r.Status, r.Body)
	}
	b := r.JSON(ta.t)
	return shopper{id: b["customer"].(map[string]any)["id"].(string), email: email, access: b["access_token"].(string), refresh: b["refresh_token"].(string)}
}

func (ta *testApp) login(email string) (access, refresh string) {
	ta.t.Helper()
	r := ta.do("POST", "/api/v1/auth/login", map[string]string{"email": email, "password": "Secret123"})
	if r.Status != http.StatusOK {
		ta.t.Fatalf("login: %d %s", r.Status, r.Body)
	}
	b := r.JSON(ta.t)
	return b["access_token"].(string), b["refresh_token"].(string)
}

func bearer(token string) []string { return []string{"Authorization", "Bearer " + token} }

// customerRequests are the requests a customer token makes in these tests: create the
// customer's cart, pay, save a card at Stripe.
func customerRequests(ta *testApp, token string) map[string]response {
	return map[string]response{
		"cart":       ta.do("GET", "/api/v1/carts/me", nil, bearer(token)...),
		"guest cart": ta.do("POST", "/api/v1/carts/guest", map[string]any{"currency": "USD"}, bearer(token)...),
		"payment": ta.do("POST", "/api/v1/payments", map[string]any{"gateway_id": "test", "amount": "25.00", "currency": "USD",
			"payment_method": map[string]any{"type": "card", "card": map[string]any{"number": "4242424242424242", "exp_month": 12, "exp_year": 2030, "cvc": "123", "name": "Ada"}}}, bearer(token)...),
		"saved method": ta.do("POST", "/api/v1/payments/saved-methods", map[string]any{"gateway_id": "stripe",
			"payment_method_data": map[string]any{"type": "card", "card": map[string]any{"number": "4242424242424242", "exp_month": 12, "exp_year": 2030, "cvc": "123", "name": "Ada"}}}, bearer(token)...),
	}
}

func (ta *testApp) savedMethods(customerID string) int64 {
	ta.t.Helper()
	var n int64
	if err := ta.app.DB.Gorm().Table("payments_saved_methods").Where("owner = ?", "customer:"+customerID).Count(&n).Error; err != nil {
		ta.t.Fatal(err)
	}
	return n
}

func (ta *testApp) providerTokens(customerID string) []string {
	ta.t.Helper()
	var out []string
	if err := ta.app.DB.Gorm().Table("payments_saved_methods").Where("owner = ?", "customer:"+customerID).Pluck("provider_token", &out).Error; err != nil {
		ta.t.Fatal(err)
	}
	return out
}

func assertInvalidToken(t *testing.T, what string, r response) {
	t.Helper()
	if r.Status != http.StatusUnauthorized {
		t.Errorf("%s: %d, want 401: %s", what, r.Status, r.Body)
		return
	}
	if e := errorOf(t, r); e["message"] != "Unauthorized: Invalid token" || e["category"] != "auth" || e["code"] != float64(401) {
		t.Errorf("%s: envelope %s", what, r.Body)
	}
}

// A customer the admin disables, deletes or anonymizes loses its access and refresh
// tokens at once: carts, payments and saved cards answer 401 (docs/decisions/0096).
// Deletion and anonymization also remove the customer's saved cards, detached at Stripe
// (stripe-mock) first (docs/decisions/0097). A re-enabled customer signs in again.
func TestRemovedCustomerLosesTokensAndCards(t *testing.T) {
	t.Parallel()
	stripeRec, stripeURL := stripemock.Start(t)
	for _, engine := range testdb.Engines() {
		for _, action := range []string{"disable", "delete", "anonymize"} {
			t.Run(engine+"/"+action, func(t *testing.T) {
				ta := newTestApp(t, engine, func(c *config.Config) {
					c.RateLimiting.Endpoints = map[string]config.EndpointLimit{}
					c.Payment.Stripe = config.Gateway{Enabled: true, APIKey: "sk_test_123", BaseURL: stripeURL, CaptureMethod: "automatic"}
				})
				admin := ta.adminAuth()
				ada := ta.register("ada@example.com")
				grace := ta.register("grace@example.com")

				for what, r := range customerRequests(ta, ada.access) {
					if r.Status != http.StatusOK && r.Status != http.StatusCreated {
						t.Fatalf("%s before: %d %s", what, r.Status, r.Body)
					}
				}
				if n := ta.savedMethods(ada.id); n != 1 {
					t.Fatalf("saved methods before: %d", n)
				}
				saved := ta.providerTokens(ada.id)
				detachPath := "/v1/payment_methods/" + saved[0] + "/detach"
				detachedBefore := stripeRec.Count("POST", detachPath)

				switch action {
				case "disable":
					ta.must(http.StatusOK, "PUT", "/api/v1/customers/"+ada.id, map[string]any{"state": "disabled"}, admin...)
				case "delete":
					ta.must(http.StatusNoContent, "DELETE", "/api/v1/customers/"+ada.id, nil, admin...)
				case "anonymize":
					ta.must(http.StatusOK, "POST", "/api/v1/customers/"+ada.id+"/anonymize", nil, admin...)
				}

				// The same tokens, right away.
				for what, r := range customerRequests(ta, ada.access) {
					assertInvalidToken(t, what, r)
				}
				assertInvalidToken(t, "refresh", ta.do("POST", "/api/v1/auth/refresh", map[string]string{"refresh_token": ada.refresh}))
				// Another customer is untouched.
				ta.must(http.StatusOK, "GET", "/api/v1/carts/me", nil, bearer(grace.access)...) // other customer

				ta.relay(1)
				if action == "disable" {
					// Disabling keeps the cards; re-enabling lets the customer sign in
					// again with new tokens, while the old ones stay dead.
					if n := ta.savedMethods(ada.id); n != 1 {
						t.Fatalf("saved methods after disable: %d", n)
					}
					ta.must(http.StatusOK, "PUT", "/api/v1/customers/"+ada.id, map[string]any{"state": "enabled"}, admin...)
					access, refresh := ta.login(ada.email)
					ta.must(http.StatusOK, "GET", "/api/v1/carts/me", nil, bearer(access)...) // new token after re-enable
					if r := ta.do("GET", "/api/v1/payments/saved-methods", nil, bearer(access)...); r.Status != http.StatusOK || len(r.JSON(t)["data"].([]any)) != 1 {
						t.Fatalf("saved methods after re-enable: %d %s", r.Status, r.Body)
					}
					ta.must(http.StatusOK, "POST", "/api/v1/auth/refresh", map[string]string{"refresh_token": refresh}) // new refresh token
					assertInvalidToken(t, "old token after re-enable", ta.do("GET", "/api/v1/carts/me", nil, bearer(ada.access)...))
					assertInvalidToken(t, "old refresh after re-enable", ta.do("POST", "/api/v1/auth/refresh", map[string]string{"refresh_token": ada.refresh}))
					return
				}
				if n := ta.savedMethods(ada.id); n != 0 {
					t.Fatalf("saved methods after %s: %d", action, n)
				}
				if n := stripeRec.Count("POST", detachPath) - detachedBefore; n != 1 {
					t.Fatalf("Stripe detach calls for %s: %d, want 1", saved[0], n)
				}
			})
		}
	}
}

// Two processes on one database (PostgreSQL with Redis, as in production; SQLite
// sharing the data directory, as the embedded mode's processes do): a customer
// disabled through one is refused by the other within seconds, and signs in again on
// either once re-enabled.
func TestCustomerRevocationReachesEveryProcess(t *testing.T) {
	t.Parallel()
	for _, engine := range testdb.Engines() {
		t.Run(engine, func(t *testing.T) {
			var shared func(*config.Config)
			a := newTestApp(t, engine, func(c *config.Config) {
				c.RateLimiting.Endpoints = map[string]config.EndpointLimit{}
				if engine == "postgres" {
					c.Redis.URL = testredis.URL(t)
				}
				url, dir, rdb := c.Database.URL, c.DataDir, c.Redis.URL
				shared = func(c *config.Config) {
					c.RateLimiting.Endpoints = map[string]config.EndpointLimit{}
					c.Database.URL, c.DataDir, c.Redis.URL = url, dir, rdb
				}
			})
			b := newTestApp(t, engine, shared)
			admin := a.adminAuth()
			ada := a.register("ada@example.com")
			b.must(http.StatusOK, "GET", "/api/v1/carts/me", nil, bearer(ada.access)...) // b before

			start := time.Now()
			a.must(http.StatusOK, "PUT", "/api/v1/customers/"+ada.id, map[string]any{"state": "disabled"}, admin...)
			for b.do("GET", "/api/v1/carts/me", nil, bearer(ada.access)...).Status != http.StatusUnauthorized {
				if time.Since(start) > 3*time.Second {
					t.Fatal("the other process still accepts the token 3 s after the customer was disabled")
				}
				time.Sleep(10 * time.Millisecond)
			}
			t.Logf("refused by the other process after %v", time.Since(start))
			assertInvalidToken(t, "payment on b", b.do("POST", "/api/v1/payments", map[string]any{"gateway_id": "test", "amount": "1.00", "currency": "USD",
				"payment_method": map[string]any{"type": "card", "card": map[string]any{"number": "4242424242424242", "exp_month": 12, "exp_year": 2030, "cvc": "123", "name": "Ada"}}}, bearer(ada.access)...))
			assertInvalidToken(t, "refresh on b", b.do("POST", "/api/v1/auth/refresh", map[string]string{"refresh_token": ada.refresh}))

			b.must(http.StatusOK, "PUT", "/api/v1/customers/"+ada.id, map[string]any{"state": "enabled"}, admin...)
			access, _ := b.login(ada.email)
			a.must(http.StatusOK, "GET", "/api/v1/carts/me", nil, bearer(access)...) // new token on a
		})
	}
}
