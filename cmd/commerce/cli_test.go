package main

import (
	"bytes"
	"strings"
	"testing"
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
	if err != nil || !strings.Contains(out, "applied") || strings.Contains(out, "pending") {
		t.Fatalf("migrate status: %v\n%s", err, out)
	}
}
