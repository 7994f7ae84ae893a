package main

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"

	identityapi "github.com/gocommerce/commerce/modules/identity/api"
	"github.com/gocommerce/commerce/platform/testdb"
)

func run(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := newRootCmd()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs(args)
	err := cmd.Execute()
	return out.String(), err
}

// The CLI on the embedded default, as an operator runs it.
func TestCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("uses a database")
	}
	for _, k := range []string{"DATABASE_URL", "REDIS_URL", "COMMERCE_DATABASE__URL", "COMMERCE_REDIS__URL", "COMMERCE_CONFIG"} {
		t.Setenv(k, "")
	}
	t.Setenv("COMMERCE_DATA_DIR", t.TempDir())
	t.Setenv("COMMERCE_SECURITY__BCRYPT_COST", "4")
	t.Setenv("COMMERCE_LOG__LEVEL", "error")

	out, err := run(t, "api-key", "create", "--name", "ops", "--scopes", "products:read,orders:write", "--rate-limit-multiplier", "2.5")
	if err != nil {
		t.Fatalf("create: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	key := lines[len(lines)-1]
	prefix, secret, ok := strings.Cut(key, ".")
	if !ok || len(prefix) != 8 || len(secret) != 32 {
		t.Fatalf("last line is not the key: %q", key)
	}

	out, err = run(t, "api-key", "list")
	if err != nil || !strings.Contains(out, prefix) || !strings.Contains(out, "products:read,orders:write") || strings.Contains(out, secret) {
		t.Fatalf("list: %v\n%s", err, out)
	}
	out, err = run(t, "api-key", "get", prefix)
	if err != nil || !strings.Contains(out, "rate_limit_multiplier:  2.5") || strings.Contains(out, secret) {
		t.Fatalf("get: %v\n%s", err, out)
	}
	if out, err = run(t, "api-key", "revoke", prefix); err == nil {
		t.Fatalf("revoke without --reason accepted:\n%s", out)
	}
	out, err = run(t, "api-key", "revoke", prefix, "--reason", "rotated")
	if err != nil || !strings.Contains(out, "revoked") || !strings.Contains(out, "rotated") {
		t.Fatalf("revoke: %v\n%s", err, out)
	}
	if out, err = run(t, "api-key", "delete", prefix); err != nil {
		t.Fatalf("delete: %v\n%s", err, out)
	}
	if _, err = run(t, "api-key", "get", prefix); err == nil {
		t.Fatal("deleted key still found")
	}
	if _, err = run(t, "api-key", "create", "--name", "bad", "--scopes", "products:delete"); err == nil {
		t.Fatal("invalid scope accepted")
	}

	if out, err = run(t, "admin", "create", "--email", "root@example.com", "--password", "Admin12345"); err != nil || !strings.Contains(out, "root@example.com") {
		t.Fatalf("admin create: %v\n%s", err, out)
	}
	if _, err = run(t, "admin", "create", "--email", "root@example.com", "--password", "Admin12345"); err == nil || !strings.Contains(err.Error(), "EMAIL_TAKEN") {
		t.Fatalf("duplicate admin: %v", err)
	}
	out, err = run(t, "migrate", "status")
	if err != nil || !strings.Contains(out, "applied") || strings.Contains(out, " pending\n") {
		t.Fatalf("migrate status: %v\n%s", err, out)
	}
}

// seed loads a demo catalog whose stock levels agree with the product totals.
func TestSeed(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, testdb.Primary(), nil)
	ta.app.Seeders.ProductCount = 5
	var out bytes.Buffer
	if err := seed(context.Background(), ta.app, &out); err != nil {
		t.Fatalf("seed: %v\n%s", err, out.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	key := lines[len(lines)-1]
	if !strings.Contains(out.String(), "seeded: 5 products") || !strings.Contains(key, ".") {
		t.Fatalf("seed output:\n%s", out.String())
	}
	products := ta.must(http.StatusOK, "GET", "/api/v1/products?per_page=100", nil, "Authorization", "Bearer "+key)
	_, admin, err := ta.app.Identity.CreateAPIKey(context.Background(), identityapi.CreateAPIKeyCommand{Name: "a", Scopes: []string{"admin"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range products.JSON(t)["data"].([]any) {
		prod := p.(map[string]any)
		level := ta.do("GET", "/api/v1/inventory/"+prod["id"].(string), nil, "Authorization", "Bearer "+admin)
		if got := level.JSON(t)["data"].(map[string]any)["total_available"]; got != prod["inventory_quantity"] {
			t.Errorf("%s: levels say %v, product says %v", prod["title"], got, prod["inventory_quantity"])
		}
	}

	// Run again: everything is there, so nothing changes and the run succeeds.
	out.Reset()
	if err := seed(context.Background(), ta.app, &out); err != nil {
		t.Fatalf("second seed: %v\n%s", err, out.String())
	}
	prefix, _, _ := strings.Cut(key, ".")
	eq := func(got, want string) {
		t.Helper()
		if got != want {
			t.Fatalf("second seed output:\n%s\nwant:\n%s", got, want)
		}
	}
	eq(out.String(), "skipped: demo catalog (the store has 5 products already)\n"+
		"skipped: customer ada@example.com (the email is already registered)\n"+
		"skipped: customer grace@example.com (the email is already registered)\n"+
		"skipped: demo storefront API key ("+prefix+" exists; its secret was shown once, when it was created)\n"+
		"nothing to seed: the demo data is already there\n")
	if again := ta.do("GET", "/api/v1/products?per_page=100", nil, "Authorization", "Bearer "+key); len(again.JSON(t)["data"].([]any)) != 5 {
		t.Fatalf("products after the second seed: %s", again.Body)
	}
	// A revoked demo key is replaced; the rest stays skipped.
	if _, err := ta.app.Identity.RevokeAPIKey(context.Background(), prefix, "test"); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := seed(context.Background(), ta.app, &out); err != nil {
		t.Fatalf("third seed: %v\n%s", err, out.String())
	}
	lines = strings.Split(strings.TrimSpace(out.String()), "\n")
	if newKey := lines[len(lines)-1]; newKey == key || !strings.Contains(newKey, ".") || strings.Count(out.String(), "seeded:") != 1 {
		t.Fatalf("third seed output:\n%s", out.String())
	}
}

// seed on a store where a customer registered first (the README's order): that
// customer is skipped, with a line saying so, and the rest is seeded.
func TestSeedAfterRegister(t *testing.T) {
	onEachEngine(t, nil, func(t *testing.T, ta *testApp) {
		ta.app.Seeders.ProductCount = 3
		ta.register("ada@example.com")
		var out bytes.Buffer
		if err := seed(context.Background(), ta.app, &out); err != nil {
			t.Fatalf("seed: %v\n%s", err, out.String())
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		if len(lines) != 5 || lines[0] != "seeded: 3 products with variants and stock" ||
			lines[1] != "skipped: customer ada@example.com (the email is already registered)" ||
			lines[2] != "seeded: customer grace@example.com" ||
			lines[3] != "seeded: demo storefront API key (products:read, collections:read, carts:write, coupons:read):" {
			t.Fatalf("seed output:\n%s", out.String())
		}
		// The registered customer keeps her account.
		ta.must(http.StatusOK, "POST", "/api/v1/auth/login", map[string]any{"email": "ada@example.com", "password": "Secret123"})
	})
}
