package http_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/customers"
	customershttp "github.com/gocommerce/commerce/modules/customers/adapters/http"
	customerspg "github.com/gocommerce/commerce/modules/customers/adapters/postgres"
	"github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/modules/customers/app"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/auth"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/testdb"
)

// fakeAuth maps bearer credentials to principals.
type fakeAuth map[string]*auth.Principal

func (f fakeAuth) Authenticate(_ context.Context, cred, _ string) (*auth.Principal, error) {
	if p, ok := f[cred]; ok {
		return p, nil
	}
	return nil, apperr.Unauthorized("Unauthorized: Invalid token")
}

func TestGetCustomer(t *testing.T) {
	for _, engine := range testdb.Engines() {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			e := testdb.Open(t, engine, events.Migrations(), customers.Migrations())
			svc := app.NewService(e.DB, customerspg.NewCustomerRepository(e.DB), events.NewOutbox(e.DB), clock.New())
			ctx := context.Background()
			ada, err := svc.CreateCustomer(ctx, api.CreateCustomerCommand{Email: "ada@example.com", FirstName: "Ada", LastName: "Lovelace"})
			if err != nil {
				t.Fatal(err)
			}
			bob, err := svc.CreateCustomer(ctx, api.CreateCustomerCommand{Email: "bob@example.com", FirstName: "Bob"})
			if err != nil {
				t.Fatal(err)
			}
			authn := fakeAuth{
				"ada":    {Kind: auth.Customer, ID: ada.ID, Scopes: []string{"customers:write"}},
				"admin":  {Kind: auth.APIKey, ID: "k", KeyPrefix: "k", Scopes: []string{"admin"}},
				"reader": {Kind: auth.APIKey, ID: "r", KeyPrefix: "r", Scopes: []string{"customers:read"}},
				"orders": {Kind: auth.APIKey, ID: "o", KeyPrefix: "o", Scopes: []string{"orders:read"}},
			}
			cfg := config.Default()
			srv, err := httpx.NewServer(&cfg, zap.NewNop(), authn, nil, nil, nil,
				[]httpx.Module{customers.NewModule(customershttp.NewHandler(svc))})
			if err != nil {
				t.Fatal(err)
			}
			get := func(cred, path string) (int, map[string]any) {
				req := httptest.NewRequest(http.MethodGet, path, nil)
				if cred != "" {
					req.Header.Set("Authorization", "Bearer "+cred)
				}
				w := httptest.NewRecorder()
				srv.ServeHTTP(w, req)
				var body map[string]any
				if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
					t.Fatalf("%s: body %q", path, w.Body.String())
				}
				return w.Code, body
			}

			code, body := get("ada", "/api/v1/customers/"+ada.ID)
			data, _ := body["data"].(map[string]any)
			if code != 200 || data["id"] != ada.ID || data["email"] != "ada@example.com" || data["first_name"] != "Ada" ||
				data["last_name"] != "Lovelace" || data["state"] != "enabled" || data["created_at"] == nil || data["updated_at"] == nil {
				t.Fatalf("own record: %d %v", code, body)
			}
			if code, body := get("ada", "/api/v1/customers/"+bob.ID); code != 404 || errCode(body) != "CUSTOMER_NOT_FOUND" {
				t.Fatalf("another's record: %d %v", code, body)
			}
			if code, body := get("ada", "/api/v1/customers/bob@example.com"); code != 404 || errCode(body) != "CUSTOMER_NOT_FOUND" {
				t.Fatalf("another's record by email: %d %v", code, body)
			}
			if code, _ := get("ada", "/api/v1/customers/ADA@example.com"); code != 200 {
				t.Fatalf("own record by email: %d", code)
			}
			for _, cred := range []string{"admin", "reader"} {
				if code, body := get(cred, "/api/v1/customers/"+bob.ID); code != 200 || body["data"].(map[string]any)["id"] != bob.ID {
					t.Fatalf("%s: %d %v", cred, code, body)
				}
			}
			if code, body := get("admin", "/api/v1/customers/nope"); code != 404 || errCode(body) != "CUSTOMER_NOT_FOUND" {
				t.Fatalf("unknown id: %d %v", code, body)
			}
			if code, body := get("orders", "/api/v1/customers/"+bob.ID); code != 403 ||
				body["error"].(map[string]any)["message"] != "Forbidden: Insufficient permissions. Required: customers:read" {
				t.Fatalf("missing scope: %d %v", code, body)
			}
			if code, body := get("", "/api/v1/customers/"+bob.ID); code != 401 || body["error"].(map[string]any)["category"] != "auth" {
				t.Fatalf("anonymous: %d %v", code, body)
			}
		})
	}
}

func errCode(body map[string]any) any {
	e, _ := body["error"].(map[string]any)
	return e["code"]
}
