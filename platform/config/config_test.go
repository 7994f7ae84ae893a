package config

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/knadh/koanf/parsers/yaml"
	"github.com/knadh/koanf/providers/file"
	"github.com/knadh/koanf/providers/structs"
	"github.com/knadh/koanf/v2"
)

func clearEnv(t *testing.T) {
	t.Helper()
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "COMMERCE_") || k == "DATABASE_URL" || k == "REDIS_URL" {
			t.Setenv(k, "")
			_ = os.Unsetenv(k)
		}
	}
}

func TestDefaultsLoadAndValidate(t *testing.T) {
	clearEnv(t)
	cfg, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.HTTP.Addr != ":8080" || !cfg.Embedded() || cfg.Security.JWT.ExpiryHours != 24 || cfg.Security.JWT.RefreshExpiryHours != 168 {
		t.Fatalf("unexpected defaults: %+v", cfg)
	}
	if cfg.RateLimiting.Anonymous.RequestsPerMinute != 60 || cfg.RateLimiting.Anonymous.BurstCapacity != 10 || cfg.RateLimiting.Default.RequestsPerHour != 50000 {
		t.Fatalf("rate limit defaults: %+v", cfg.RateLimiting)
	}
	if cfg.Payment.DefaultGateway != "test" || !cfg.Payment.Test.Enabled || cfg.Tax.VATCacheDays != 30 {
		t.Fatalf("payment/tax defaults: %+v %+v", cfg.Payment, cfg.Tax)
	}
}

func TestEnvironmentOverrides(t *testing.T) {
	clearEnv(t)
	t.Setenv("DATABASE_URL", "postgres://a@b/c")
	t.Setenv("COMMERCE_DATABASE__URL", "postgres://x@y/z")
	t.Setenv("REDIS_URL", "redis://127.0.0.1:6379/1")
	t.Setenv("COMMERCE_HTTP__ADDR", ":9999")
	t.Setenv("COMMERCE_SECURITY__JWT__SECRET", strings.Repeat("s", 32))
	t.Setenv("COMMERCE_RATE_LIMITING__ANONYMOUS__REQUESTS_PER_MINUTE", "7")
	t.Setenv("COMMERCE_RATE_LIMITING__ENABLED", "false")
	t.Setenv("COMMERCE_SECURITY__CUSTOMER_SCOPES", "products:read,carts:write")
	t.Setenv("COMMERCE_INVENTORY__RESERVATION_TIMEOUT", "10m")
	cfg, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Database.URL != "postgres://x@y/z" {
		t.Errorf("COMMERCE_ name must win over DATABASE_URL, got %q", cfg.Database.URL)
	}
	if cfg.Redis.URL != "redis://127.0.0.1:6379/1" || cfg.HTTP.Addr != ":9999" || cfg.RateLimiting.Anonymous.RequestsPerMinute != 7 || cfg.RateLimiting.Enabled {
		t.Errorf("overrides not applied: %+v", cfg)
	}
	if strings.Join(cfg.Security.CustomerScopes, " ") != "products:read carts:write" {
		t.Errorf("list override: %v", cfg.Security.CustomerScopes)
	}
	if cfg.Inventory.ReservationTimeout != 10*time.Minute {
		t.Errorf("duration override: %v", cfg.Inventory.ReservationTimeout)
	}
}

func TestShortSecretRefusedOutsideEmbeddedMode(t *testing.T) {
	clearEnv(t)
	t.Setenv("COMMERCE_DATABASE__URL", "postgres://a@b/c")
	t.Setenv("COMMERCE_SECURITY__JWT__SECRET", "short")
	_, err := Load("")
	if err == nil || !strings.Contains(err.Error(), "security.jwt.secret") {
		t.Fatalf("want an error naming security.jwt.secret, got %v", err)
	}
	// The embedded development mode may run with a short one.
	t.Setenv("COMMERCE_DATABASE__URL", "")
	if _, err := Load(""); err != nil {
		t.Fatalf("embedded mode: %v", err)
	}
	// Embedded production is not a dev mode.
	t.Setenv("COMMERCE_ENV", "production")
	if _, err := Load(""); err == nil {
		t.Fatal("short secret accepted in production")
	}
}

func TestBadValueNamesKey(t *testing.T) {
	clearEnv(t)
	cases := map[string]string{
		"COMMERCE_PAYMENT__STRIPE__CAPTURE_METHOD":             "payment.stripe.capture_method",
		"COMMERCE_RATE_LIMITING__DEFAULT__REQUESTS_PER_MINUTE": "rate_limiting.default.requests_per_minute",
		"COMMERCE_REDIS__URL":                                  "redis.url",
		"COMMERCE_LOG__LEVEL":                                  "log.level",
		"COMMERCE_PAYMENT__DEFAULT_GATEWAY":                    "payment.default_gateway",
		"COMMERCE_SUBSCRIPTIONS__DUNNING__MAX_ATTEMPTS":        "subscriptions.dunning.retry_schedule",
		"COMMERCE_SUBSCRIPTIONS__BILLING_INTERVAL":             "subscriptions.billing_interval",
	}
	values := map[string]string{
		"COMMERCE_PAYMENT__STRIPE__CAPTURE_METHOD":             "sometimes",
		"COMMERCE_RATE_LIMITING__DEFAULT__REQUESTS_PER_MINUTE": "0",
		"COMMERCE_REDIS__URL":                                  "http://nope",
		"COMMERCE_LOG__LEVEL":                                  "loud",
		"COMMERCE_PAYMENT__DEFAULT_GATEWAY":                    "stripe",
		"COMMERCE_SUBSCRIPTIONS__DUNNING__MAX_ATTEMPTS":        "5",
		"COMMERCE_SUBSCRIPTIONS__BILLING_INTERVAL":             "0s",
	}
	for env, key := range cases {
		t.Run(key, func(t *testing.T) {
			t.Setenv(env, values[env])
			_, err := Load("")
			if err == nil || !strings.Contains(err.Error(), key) {
				t.Fatalf("want error naming %s, got %v", key, err)
			}
		})
	}
}

func TestYAMLFileAndEmbeddedSecret(t *testing.T) {
	clearEnv(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(path, []byte("data_dir: "+dir+"\nhttp:\n  addr: \":7000\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.HTTP.Addr != ":7000" {
		t.Fatalf("file not applied: %s", cfg.HTTP.Addr)
	}
	if err := cfg.EnsureJWTSecret(); err != nil {
		t.Fatal(err)
	}
	first := cfg.Security.JWT.Secret
	if len(first) < 32 {
		t.Fatalf("generated secret too short: %q", first)
	}
	cfg2, _ := Load(path)
	if err := cfg2.EnsureJWTSecret(); err != nil || cfg2.Security.JWT.Secret != first {
		t.Fatalf("secret must persist across restarts: %v", err)
	}
}

// The example file documents every key with its default value.
func TestExampleConfigListsEveryKeyWithItsDefault(t *testing.T) {
	ex := koanf.New(".")
	if err := ex.Load(file.Provider("../../deployments/config.example.yaml"), yaml.Parser()); err != nil {
		t.Fatal(err)
	}
	def := koanf.New(".")
	if err := def.Load(structs.Provider(Default(), "koanf"), nil); err != nil {
		t.Fatal(err)
	}
	var missing []string
	for _, k := range def.Keys() {
		if !ex.Exists(k) {
			missing = append(missing, k)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("deployments/config.example.yaml lacks keys: %v", missing)
	}
	var exCfg, defCfg Config
	if err := ex.UnmarshalWithConf("", &exCfg, koanf.UnmarshalConf{Tag: "koanf"}); err != nil {
		t.Fatal(err)
	}
	if err := def.UnmarshalWithConf("", &defCfg, koanf.UnmarshalConf{Tag: "koanf"}); err != nil {
		t.Fatal(err)
	}
	if exCfg.RateLimiting.Default != defCfg.RateLimiting.Default || exCfg.HTTP.BodyLimitBytes != defCfg.HTTP.BodyLimitBytes ||
		exCfg.Security.JWT.ExpiryHours != defCfg.Security.JWT.ExpiryHours || exCfg.Uploads.MaxSizeBytes != defCfg.Uploads.MaxSizeBytes {
		t.Errorf("example values differ from defaults")
	}
}

// The pool is sized from the CPUs unless configured, and keeps its open connections idle.
func TestDatabasePoolSize(t *testing.T) {
	t.Parallel()
	cpus := runtime.GOMAXPROCS(0)
	for _, c := range []struct {
		db         Database
		open, idle int
	}{
		{Database{}, 6 * cpus, 6 * cpus},
		{Database{MaxOpenConns: 30}, 30, 30},
		{Database{MaxOpenConns: 30, MaxIdleConns: 10}, 30, 10},
		{Database{MaxOpenConns: 5, MaxIdleConns: 10}, 5, 5},
		{Database{MaxIdleConns: 2}, 6 * cpus, 2},
	} {
		if open, idle := c.db.PoolSize(); open != c.open || idle != c.idle {
			t.Errorf("%+v: %d open, %d idle; want %d, %d", c.db, open, idle, c.open, c.idle)
		}
	}
	if d := Default(); d.Database.MaxOpenConns != 0 || d.Database.MaxIdleConns != 0 {
		t.Errorf("default pool is not automatic: %+v", d.Database)
	}
}

func TestDatabaseReads(t *testing.T) {
	t.Parallel()
	cpus := runtime.GOMAXPROCS(0)
	for _, c := range []struct {
		db    Database
		reads int
	}{
		{Database{}, min(max(2*cpus, 4), 6*cpus)},
		{Database{ReadConcurrency: 3}, 3},
		{Database{ReadConcurrency: 50, MaxOpenConns: 10}, 10}, // never more than the pool
		{Database{MaxOpenConns: 2}, 2},
		{Database{ReadConcurrency: -1, MaxOpenConns: 100}, max(2*cpus, 4)},
	} {
		if got := c.db.Reads(); got != c.reads {
			t.Errorf("%+v: %d reads at once, want %d", c.db, got, c.reads)
		}
	}
	if d := Default(); d.Database.ReadConcurrency != 0 {
		t.Errorf("default read concurrency is not automatic: %d", d.Database.ReadConcurrency)
	}
}
