// Package config loads the one typed configuration: defaults, then an optional YAML
// file, then DATABASE_URL/REDIS_URL, then COMMERCE_* environment variables
// (key path upper-cased, "." written as "__"). Validate names the bad key.
package config

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/knadh/koanf/parsers/yaml"
	"github.com/knadh/koanf/providers/env/v2"
	"github.com/knadh/koanf/providers/file"
	"github.com/knadh/koanf/providers/structs"
	"github.com/knadh/koanf/v2"
)

// Config is the whole configuration.
type Config struct {
	Env           string        `koanf:"env"`      // development | production
	DataDir       string        `koanf:"data_dir"` // embedded database, dev secret, uploads
	HTTP          HTTP          `koanf:"http"`
	Database      Database      `koanf:"database"`
	Redis         Redis         `koanf:"redis"`
	Log           Log           `koanf:"log"`
	Security      Security      `koanf:"security"`
	RateLimiting  RateLimiting  `koanf:"rate_limiting"`
	Payment       Payment       `koanf:"payment"`
	Tax           Tax           `koanf:"tax"`
	Inventory     Inventory     `koanf:"inventory"`
	Carts         Carts         `koanf:"carts"`
	Coupons       Coupons       `koanf:"coupons"`
	Uploads       Uploads       `koanf:"uploads"`
	Customers     Customers     `koanf:"customers"`
	Notifications Notifications `koanf:"notifications"`
	Jobs          Jobs          `koanf:"jobs"`
	Shipping      Shipping      `koanf:"shipping"`
	Webhooks      Webhooks      `koanf:"webhooks"`
	Subscriptions Subscriptions `koanf:"subscriptions"`
	Statistics    Statistics    `koanf:"statistics"`
}

// HTTP configures the API server.
type HTTP struct {
	Addr            string        `koanf:"addr"`
	PublicURL       string        `koanf:"public_url"`
	BodyLimitBytes  int64         `koanf:"body_limit_bytes"`
	ReadTimeout     time.Duration `koanf:"read_timeout"`
	WriteTimeout    time.Duration `koanf:"write_timeout"`
	ShutdownTimeout time.Duration `koanf:"shutdown_timeout"`
	// RequestTimeout is every request's server-side deadline: it reaches each database
	// call, and a request past it answers 503 (docs/decisions/0103).
	RequestTimeout time.Duration `koanf:"request_timeout"`
	TrustedProxies []string      `koanf:"trusted_proxies"`
	CORS           CORS          `koanf:"cors"`
	// PprofAddr, when set, serves net/http/pprof on that (private) address.
	PprofAddr string `koanf:"pprof_addr"`
}

// CORS configures cross-origin requests.
type CORS struct {
	Enabled          bool          `koanf:"enabled"`
	AllowedOrigins   []string      `koanf:"allowed_origins"`
	AllowedMethods   []string      `koanf:"allowed_methods"`
	AllowedHeaders   []string      `koanf:"allowed_headers"`
	ExposedHeaders   []string      `koanf:"exposed_headers"`
	AllowCredentials bool          `koanf:"allow_credentials"`
	MaxAge           time.Duration `koanf:"max_age"`
}

// Database selects the store: a postgres:// URL, or empty for the embedded SQLite file.
type Database struct {
	URL string `koanf:"url"`
	// MaxOpenConns 0 sizes the pool from the CPUs: 6 per GOMAXPROCS (12 on 2 cores);
	// MaxIdleConns 0 keeps every open connection (docs/decisions/0090).
	MaxOpenConns int `koanf:"max_open_conns"`
	MaxIdleConns int `koanf:"max_idle_conns"`
	// ReadConcurrency bounds the single-statement reads outside transactions that run
	// at once; the others wait their turn in order. 0 means 2 per GOMAXPROCS, at least
	// 4 (docs/decisions/0091).
	ReadConcurrency int           `koanf:"read_concurrency"`
	ConnMaxLifetime time.Duration `koanf:"conn_max_lifetime"`
	// AcquireTimeout bounds the wait for a pooled connection (a transaction's, or a
	// read's turn and connection); past it the request answers 503 with Retry-After
	// (docs/decisions/0103).
	AcquireTimeout time.Duration `koanf:"acquire_timeout"`
	AutoMigrate    bool          `koanf:"auto_migrate"` // serve runs migrations at start (always in embedded mode)
}

// Redis enables Asynq jobs and shared rate-limit counters.
type Redis struct {
	URL string `koanf:"url"`
}

// Log configures zap.
type Log struct {
	Level  string `koanf:"level"`
	Format string `koanf:"format"` // json | console; empty: json in production, console in development
}

// Security holds authentication settings.
type Security struct {
	JWT                JWT           `koanf:"jwt"`
	APIKeyPrefixLength int           `koanf:"api_key_prefix_length"`
	APIKeySecretLength int           `koanf:"api_key_secret_length"`
	APIKeyCacheTTL     time.Duration `koanf:"api_key_cache_ttl"`
	CustomerScopes     []string      `koanf:"customer_scopes"`
	BcryptCost         int           `koanf:"bcrypt_cost"`
}

// JWT configures token signing (HS256).
type JWT struct {
	Secret             string `koanf:"secret"`
	ExpiryHours        int    `koanf:"expiry_hours"`
	RefreshExpiryHours int    `koanf:"refresh_expiry_hours"`
	Issuer             string `koanf:"issuer"`
}

// RateLimiting configures the limiter (Part 1 "Limits").
type RateLimiting struct {
	Enabled   bool                     `koanf:"enabled"`
	Default   Limit                    `koanf:"default"`   // API keys
	JWT       Limit                    `koanf:"jwt"`       // customer and staff tokens
	Anonymous Limit                    `koanf:"anonymous"` // by remote address
	Auth      EndpointLimit            `koanf:"auth"`      // every /api/v1/auth/* path
	Endpoints map[string]EndpointLimit `koanf:"endpoints"` // path -> limit
}

// Limit is a per-minute limit with burst plus a per-hour limit.
type Limit struct {
	RequestsPerMinute int `koanf:"requests_per_minute"`
	BurstCapacity     int `koanf:"burst_capacity"`
	RequestsPerHour   int `koanf:"requests_per_hour"`
}

// EndpointLimit is a per-minute limit on one path.
type EndpointLimit struct {
	RequestsPerMinute int `koanf:"requests_per_minute"`
}

// Payment configures the gateways.
type Payment struct {
	DefaultGateway string  `koanf:"default_gateway"`
	Test           Gateway `koanf:"test"`
	Stripe         Gateway `koanf:"stripe"`
	PayPal         Gateway `koanf:"paypal"`
	Alipay         Gateway `koanf:"alipay"`
	WeChatPay      Gateway `koanf:"wechat_pay"`
}

// Gateway is one payment gateway's section.
type Gateway struct {
	Enabled             bool   `koanf:"enabled"`
	APIKey              string `koanf:"api_key"`
	WebhookSecret       string `koanf:"webhook_secret"`
	CaptureMethod       string `koanf:"capture_method"`
	StatementDescriptor string `koanf:"statement_descriptor"`
	ClientID            string `koanf:"client_id"`
	AppID               string `koanf:"app_id"`
	MerchantID          string `koanf:"merchant_id"`
	PrivateKey          string `koanf:"private_key"`
	PublicKey           string `koanf:"public_key"`
	SerialNo            string `koanf:"serial_no"`
	BaseURL             string `koanf:"base_url"`
}

// Tax configures tax calculation (Part 2 "Tax").
type Tax struct {
	Provider           string `koanf:"provider"`
	EnableOSS          bool   `koanf:"enable_oss"`
	OSSMemberState     string `koanf:"oss_member_state"`
	ValidateVATIDs     bool   `koanf:"validate_vat_ids"`
	VATCacheDays       int    `koanf:"vat_cache_days"`
	DefaultTaxIncluded bool   `koanf:"default_tax_included"`
	DefaultTaxZone     string `koanf:"default_tax_zone"`
	VIESURL            string `koanf:"vies_url"`
	// VIESTimeout bounds one VIES call; past it the answer is vies_unavailable.
	VIESTimeout time.Duration `koanf:"vies_timeout"`
}

// Inventory configures stock reservations.
type Inventory struct {
	ReservationTimeout time.Duration `koanf:"reservation_timeout"`
}

// Carts configures cart expiry and the add-to-cart write path.
type Carts struct {
	ExpiryDays int `koanf:"expiry_days"`
	// Write switches the add-to-cart optimisations (docs/decisions/0089), all on by
	// default; switching one off is for measuring it (docs/decisions/0119).
	Write CartsWrite `koanf:"write"`
}

// CartsWrite: see carts/adapters/postgres.WriteOptions.
type CartsWrite struct {
	Versioned   bool `koanf:"versioned"`
	Cache       bool `koanf:"cache"`
	GroupCommit bool `koanf:"group_commit"`
}

// Customers configures account links.
type Customers struct {
	InviteTTL time.Duration `koanf:"invite_ttl"`
	ResetTTL  time.Duration `koanf:"reset_ttl"`
}

// Coupons configures stacking.
type Coupons struct {
	AllowFreeShippingStacking bool `koanf:"allow_free_shipping_stacking"`
}

// Uploads configures image storage.
type Uploads struct {
	MaxSizeBytes int64  `koanf:"max_size_bytes"`
	Driver       string `koanf:"driver"` // local | s3
	Dir          string `koanf:"dir"`
	PublicURL    string `koanf:"public_url"`
	S3           S3     `koanf:"s3"`
}

// S3 configures the S3-compatible image storage (uploads.driver: s3).
type S3 struct {
	Endpoint        string `koanf:"endpoint"`
	Bucket          string `koanf:"bucket"`
	Region          string `koanf:"region"`
	AccessKeyID     string `koanf:"access_key_id"`
	SecretAccessKey string `koanf:"secret_access_key"`
	PublicURL       string `koanf:"public_url"`
	VirtualHosted   bool   `koanf:"virtual_hosted"`
}

// Notifications configures delivery: retries (CONTRACT §7), the channels' providers,
// the store's own messages and the inbound delivery webhook.
type Notifications struct {
	RetryBackoff []time.Duration `koanf:"retry_backoff"`
	MaxAttempts  int             `koanf:"max_attempts"`
	// Concurrency is how many sends of a bulk batch run at once.
	Concurrency int `koanf:"concurrency"`
	// SweepInterval is how often due notifications (scheduled, retries) are looked for.
	SweepInterval time.Duration `koanf:"sweep_interval"`
	// ShopName fills the templates' shop_name.
	ShopName string `koanf:"shop_name"`
	// StaffEmails receive the low-stock alerts.
	StaffEmails []string `koanf:"staff_emails"`
	// AbandonedCartDelay is how long a customer's cart stays idle before the reminder
	// (0 sends none).
	AbandonedCartDelay time.Duration `koanf:"abandoned_cart_delay"`
	// WebhookSecret verifies the inbound delivery webhook ("" refuses it).
	WebhookSecret string            `koanf:"webhook_secret"`
	Email         NotificationEmail `koanf:"email"`
	SMS           NotificationSMS   `koanf:"sms"`
	Push          NotificationPush  `koanf:"push"`
	Webhook       NotificationHook  `koanf:"webhook"`
}

// NotificationEmail is the SMTP server; without a host, email goes to files in
// OutboxDir (default <data_dir>/outbox).
type NotificationEmail struct {
	From     string `koanf:"from"`
	Host     string `koanf:"host"`
	Port     int    `koanf:"port"`
	Username string `koanf:"username"`
	Password string `koanf:"password"`
	// TLS is starttls (default: upgrade when offered), mandatory_starttls, tls
	// (implicit, port 465) or none.
	TLS       string        `koanf:"tls"`
	Timeout   time.Duration `koanf:"timeout"`
	OutboxDir string        `koanf:"outbox_dir"`
}

// NotificationSMS is a Twilio-style SMS API (Messages resource, basic auth).
type NotificationSMS struct {
	BaseURL    string `koanf:"base_url"`
	AccountSID string `koanf:"account_sid"`
	AuthToken  string `koanf:"auth_token"`
	From       string `koanf:"from"`
}

// NotificationPush is Firebase Cloud Messaging's HTTP v1 API, authorised by a service
// account's key file (OAuth 2.0 JWT bearer grant) or a ready access token.
type NotificationPush struct {
	BaseURL         string `koanf:"base_url"`
	ProjectID       string `koanf:"project_id"`
	CredentialsFile string `koanf:"credentials_file"`
	AccessToken     string `koanf:"access_token"`
}

// NotificationHook signs the webhook channel's POSTs.
type NotificationHook struct {
	Secret  string        `koanf:"secret"`
	Timeout time.Duration `koanf:"timeout"`
}

// Shipping configures the carriers (credentials switch a carrier from its built-in rate
// table to its API), the rate and label deadlines, tracking and the carrier webhooks.
type Shipping struct {
	RatesTimeout     time.Duration `koanf:"rates_timeout"`
	LabelTimeout     time.Duration `koanf:"label_timeout"`
	TrackingInterval time.Duration `koanf:"tracking_interval"`
	WebhookSecret    string        `koanf:"webhook_secret"`
	UPS              Carrier       `koanf:"ups"`
	FedEx            Carrier       `koanf:"fedex"`
	USPS             Carrier       `koanf:"usps"`
	DHL              Carrier       `koanf:"dhl"`
}

// Subscriptions configures recurring billing and dunning (issue 23).
type Subscriptions struct {
	// BillingInterval is how often due renewals and retries are looked for.
	BillingInterval time.Duration `koanf:"billing_interval"`
	// BatchSize is how many renewals a sweep reads at once; it reads full batches one
	// after another for up to BillingInterval.
	BatchSize int `koanf:"batch_size"`
	// ClaimLease is how long a billing worker holds an invoice's charge before another
	// may take it over (a crashed worker's charge is resumed after it).
	ClaimLease time.Duration        `koanf:"claim_lease"`
	Dunning    SubscriptionsDunning `koanf:"dunning"`
}

// SubscriptionsDunning is the retry plan of a failed renewal.
type SubscriptionsDunning struct {
	// RetrySchedule is the delay of each retry after the first failure (default 1, 3
	// and 7 days).
	RetrySchedule []time.Duration `koanf:"retry_schedule"`
	// MaxAttempts is how many retries follow the first failure (default 3).
	MaxAttempts int `koanf:"max_attempts"`
	// GracePeriod, counted from the first failure, is how long a past_due
	// subscription is kept once its retries are exhausted (default 7 days).
	GracePeriod time.Duration `koanf:"grace_period"`
}

// Carrier is one carrier's credentials (OAuth client, or DHL's API key and secret)
// and API base URL.
type Carrier struct {
	ClientID      string `koanf:"client_id"`
	ClientSecret  string `koanf:"client_secret"`
	AccountNumber string `koanf:"account_number"`
	BaseURL       string `koanf:"base_url"`
}

// Statistics configures the admin statistics: the store's time zone (an IANA name;
// "today" and every day boundary are read in it), the currency figures are given in
// when a request names none ("" for the currency with the most orders in the period)
// and how often the customer segments are recomputed.
type Statistics struct {
	Timezone         string        `koanf:"timezone"`
	Currency         string        `koanf:"currency"`
	SegmentsInterval time.Duration `koanf:"segments_interval"`
}

// Webhooks configures outbound webhook delivery (decision 0190). In production the
// endpoints' URLs must be https and resolve to public addresses, except the hosts,
// addresses and CIDR ranges of AllowedHosts.
type Webhooks struct {
	Timeout       time.Duration `koanf:"timeout"`
	MaxRetries    int           `koanf:"max_retries"`
	RetryBase     time.Duration `koanf:"retry_base"`
	RetryMax      time.Duration `koanf:"retry_max"`
	DisableAfter  int           `koanf:"disable_after"`
	SweepInterval time.Duration `koanf:"sweep_interval"`
	AllowedHosts  []string      `koanf:"allowed_hosts"`
	// EndpointConcurrency bounds the requests in flight to one endpoint.
	EndpointConcurrency int `koanf:"endpoint_concurrency"`
}

// Jobs configures background work.
type Jobs struct {
	Concurrency int `koanf:"concurrency"`
	// ServeRelay: serve processes deliver outbox events too (the default). false leaves
	// the delivery to worker processes, so that API processes spend their time on
	// requests alone; it needs Redis (worker processes exist only with it).
	ServeRelay bool `koanf:"serve_relay"`
}

// Default returns every key with its default value.
func Default() Config {
	return Config{
		Env:     "development",
		DataDir: "./var",
		HTTP: HTTP{
			Addr:            ":8080",
			BodyLimitBytes:  1 << 20,
			ReadTimeout:     15 * time.Second,
			WriteTimeout:    30 * time.Second,
			ShutdownTimeout: 15 * time.Second,
			RequestTimeout:  20 * time.Second,
			TrustedProxies:  []string{},
			CORS: CORS{
				Enabled:        true,
				AllowedOrigins: []string{"*"},
				AllowedMethods: []string{"GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"},
				AllowedHeaders: []string{"Authorization", "Content-Type", "X-Request-ID", "X-Session-Token", "Idempotency-Key"},
				ExposedHeaders: []string{"X-Request-ID", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-RateLimit-Policy", "Retry-After"},
				MaxAge:         12 * time.Hour,
			},
		},
		Database: Database{ConnMaxLifetime: 30 * time.Minute, AcquireTimeout: 5 * time.Second, AutoMigrate: false},
		Log:      Log{Level: "info"},
		Security: Security{
			JWT:                JWT{ExpiryHours: 24, RefreshExpiryHours: 168, Issuer: "commerce"},
			APIKeyPrefixLength: 8,
			APIKeySecretLength: 32,
			APIKeyCacheTTL:     30 * time.Second,
			CustomerScopes: []string{
				"products:read", "collections:read", "carts:write", "coupons:read", "orders:read",
				"customers:write", "payments:write", "subscriptions:write", "shipping:read", "tax:read",
				"notifications:read",
			},
			BcryptCost: 12,
		},
		RateLimiting: RateLimiting{
			Enabled:   true,
			Default:   Limit{RequestsPerMinute: 1000, BurstCapacity: 100, RequestsPerHour: 50000},
			JWT:       Limit{RequestsPerMinute: 500, BurstCapacity: 50, RequestsPerHour: 25000},
			Anonymous: Limit{RequestsPerMinute: 60, BurstCapacity: 10, RequestsPerHour: 3000},
			Auth:      EndpointLimit{RequestsPerMinute: 10},
			Endpoints: map[string]EndpointLimit{
				"/api/v1/auth/login":        {RequestsPerMinute: 10},
				"/api/v1/auth/register":     {RequestsPerMinute: 5},
				"/api/v1/uploads":           {RequestsPerMinute: 10},
				"/api/v1/customers/recover": {RequestsPerMinute: 5},
			},
		},
		Payment: Payment{
			DefaultGateway: "test",
			Test:           Gateway{Enabled: true, CaptureMethod: "automatic"},
			Stripe:         Gateway{CaptureMethod: "automatic", BaseURL: "https://api.stripe.com"},
			PayPal:         Gateway{CaptureMethod: "automatic", BaseURL: "https://api-m.sandbox.paypal.com"},
			Alipay:         Gateway{CaptureMethod: "automatic", BaseURL: "https://openapi.alipay.com"},
			WeChatPay:      Gateway{CaptureMethod: "automatic", BaseURL: "https://api.mch.weixin.qq.com"},
		},
		Tax: Tax{
			Provider:     "builtin",
			VATCacheDays: 30,
			VIESURL:      "https://ec.europa.eu/taxation_customs/vies/rest-api",
			VIESTimeout:  10 * time.Second,
		},
		Inventory: Inventory{ReservationTimeout: 30 * time.Minute},
		Carts:     Carts{ExpiryDays: 30, Write: CartsWrite{Versioned: true, Cache: true, GroupCommit: true}},
		Uploads:   Uploads{MaxSizeBytes: 10 << 20, Driver: "local", Dir: "", PublicURL: "/uploads", S3: S3{Region: "us-east-1"}},
		Customers: Customers{InviteTTL: 7 * 24 * time.Hour, ResetTTL: 24 * time.Hour},
		Notifications: Notifications{
			RetryBackoff: []time.Duration{30 * time.Second, 2 * time.Minute, 10 * time.Minute}, MaxAttempts: 4,
			Concurrency: 8, SweepInterval: 15 * time.Second, ShopName: "Commerce", AbandonedCartDelay: 4 * time.Hour,
			Email:   NotificationEmail{From: "Commerce <no-reply@localhost.localdomain>", Port: 587, TLS: "starttls", Timeout: 30 * time.Second},
			SMS:     NotificationSMS{BaseURL: "https://api.twilio.com"},
			Push:    NotificationPush{BaseURL: "https://fcm.googleapis.com"},
			Webhook: NotificationHook{Timeout: 10 * time.Second},
		},
		Jobs: Jobs{Concurrency: 10, ServeRelay: true},
		Shipping: Shipping{
			RatesTimeout: 10 * time.Second, LabelTimeout: 30 * time.Second, TrackingInterval: time.Hour,
			UPS:   Carrier{BaseURL: "https://onlinetools.ups.com"},
			FedEx: Carrier{BaseURL: "https://apis.fedex.com"},
			USPS:  Carrier{BaseURL: "https://apis.usps.com"},
			DHL:   Carrier{BaseURL: "https://express.api.dhl.com/mydhlapi"},
		},
		Statistics: Statistics{Timezone: "UTC", SegmentsInterval: time.Hour},
		Webhooks: Webhooks{Timeout: 10 * time.Second, MaxRetries: 5, RetryBase: 30 * time.Second, RetryMax: time.Hour,
			DisableAfter: 50, SweepInterval: 15 * time.Second, AllowedHosts: []string{}, EndpointConcurrency: 4},
		Subscriptions: Subscriptions{
			BillingInterval: time.Minute, BatchSize: 100, ClaimLease: 5 * time.Minute,
			Dunning: SubscriptionsDunning{
				RetrySchedule: []time.Duration{24 * time.Hour, 72 * time.Hour, 168 * time.Hour}, MaxAttempts: 3, GracePeriod: 168 * time.Hour,
			},
		},
	}
}

// Load reads defaults, the optional YAML file (path, or COMMERCE_CONFIG), DATABASE_URL and
// REDIS_URL, then COMMERCE_* variables, and validates the result.
func Load(path string) (*Config, error) {
	k := koanf.New(".")
	if err := k.Load(structs.Provider(Default(), "koanf"), nil); err != nil {
		return nil, fmt.Errorf("config defaults: %w", err)
	}
	if path == "" {
		path = os.Getenv("COMMERCE_CONFIG")
	}
	if path != "" {
		if err := k.Load(file.Provider(path), yaml.Parser()); err != nil {
			return nil, fmt.Errorf("config file %s: %w", path, err)
		}
	}
	// 12-factor names sit below the COMMERCE_ names.
	if v := os.Getenv("DATABASE_URL"); v != "" {
		_ = k.Set("database.url", v)
	}
	if v := os.Getenv("REDIS_URL"); v != "" {
		_ = k.Set("redis.url", v)
	}
	err := k.Load(env.Provider(".", env.Opt{
		Prefix: "COMMERCE_",
		TransformFunc: func(key, value string) (string, any) {
			key = strings.ToLower(strings.TrimPrefix(key, "COMMERCE_"))
			if key == "config" {
				return "", nil
			}
			key = strings.ReplaceAll(key, "__", ".")
			if strings.Contains(value, ",") {
				return key, strings.Split(value, ",")
			}
			return key, value
		},
	}), nil)
	if err != nil {
		return nil, fmt.Errorf("config environment: %w", err)
	}
	var cfg Config
	if err := k.UnmarshalWithConf("", &cfg, koanf.UnmarshalConf{Tag: "koanf"}); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &cfg, nil
}

// Embedded reports whether the service runs on the embedded default (SQLite).
func (c *Config) Embedded() bool { return !c.Postgres() }

// Postgres reports whether database.url selects PostgreSQL.
func (c *Config) Postgres() bool {
	u := c.Database.URL
	return strings.HasPrefix(u, "postgres://") || strings.HasPrefix(u, "postgresql://")
}

// SQLitePath is the embedded database file.
func (c *Config) SQLitePath() string {
	if p, ok := strings.CutPrefix(c.Database.URL, "sqlite://"); ok && p != "" {
		return p
	}
	if p, ok := strings.CutPrefix(c.Database.URL, "file:"); ok && p != "" {
		return p
	}
	return filepath.Join(c.DataDir, "commerce.db")
}

// Production reports env == production.
func (c *Config) Production() bool { return c.Env == "production" }

// Validate checks every value and names the key of the first bad one.
// PoolSize is the PostgreSQL pool's open and idle connection limits: as configured, or
// 6 per GOMAXPROCS when max_open_conns is 0, and as many idle as open when
// max_idle_conns is 0.
func (d Database) PoolSize() (open, idle int) {
	open, idle = d.MaxOpenConns, d.MaxIdleConns
	if open <= 0 {
		open = 6 * runtime.GOMAXPROCS(0)
	}
	if idle <= 0 || idle > open {
		idle = open
	}
	return open, idle
}

// Reads is how many single-statement reads outside transactions run at once: as
// configured, or 2 per GOMAXPROCS and at least 4 when read_concurrency is 0, and never
// more than the pool's open connections.
func (d Database) Reads() int {
	n := d.ReadConcurrency
	if n <= 0 {
		n = max(2*runtime.GOMAXPROCS(0), 4)
	}
	open, _ := d.PoolSize()
	return min(n, open)
}

func (c *Config) Validate() error {
	var errs []error
	bad := func(key, format string, args ...any) {
		errs = append(errs, fmt.Errorf("config: %s: %s", key, fmt.Sprintf(format, args...)))
	}
	positive := func(key string, v int64) {
		if v <= 0 {
			bad(key, "must be positive")
		}
	}
	nonNegative := func(key string, v int64) {
		if v < 0 {
			bad(key, "must not be negative")
		}
	}
	between := func(key string, v, lo, hi int64) {
		if v < lo || v > hi {
			bad(key, "must be between %d and %d", lo, hi)
		}
	}
	if c.Env != "development" && c.Env != "production" && c.Env != "test" {
		bad("env", "must be development, test or production, got %q", c.Env)
	}
	if c.Database.URL != "" && !c.Postgres() && !strings.HasPrefix(c.Database.URL, "sqlite://") && !strings.HasPrefix(c.Database.URL, "file:") {
		bad("database.url", "must be a postgres:// URL, a sqlite:// path or empty for the embedded database")
	}
	if c.Redis.URL != "" && !strings.HasPrefix(c.Redis.URL, "redis://") && !strings.HasPrefix(c.Redis.URL, "rediss://") {
		bad("redis.url", "must be a redis:// or rediss:// URL")
	}
	if c.HTTP.Addr == "" {
		bad("http.addr", "must not be empty")
	}
	positive("http.body_limit_bytes", c.HTTP.BodyLimitBytes)
	positive("http.request_timeout", int64(c.HTTP.RequestTimeout))
	positive("database.acquire_timeout", int64(c.Database.AcquireTimeout))
	if c.Log.Format != "" && c.Log.Format != "json" && c.Log.Format != "console" {
		bad("log.format", "must be json or console")
	}
	switch strings.ToLower(c.Log.Level) {
	case "debug", "info", "warn", "error":
	default:
		bad("log.level", "must be debug, info, warn or error")
	}
	if len(c.Security.JWT.Secret) < 32 && !c.devMode() {
		bad("security.jwt.secret", "must be at least 32 characters (only the embedded development mode may run without one)")
	}
	positive("security.jwt.expiry_hours", int64(c.Security.JWT.ExpiryHours))
	positive("security.jwt.refresh_expiry_hours", int64(c.Security.JWT.RefreshExpiryHours))
	between("security.api_key_prefix_length", int64(c.Security.APIKeyPrefixLength), 4, 32)
	between("security.api_key_secret_length", int64(c.Security.APIKeySecretLength), 16, 128)
	between("security.bcrypt_cost", int64(c.Security.BcryptCost), 4, 31)
	for name, l := range map[string]Limit{"default": c.RateLimiting.Default, "jwt": c.RateLimiting.JWT, "anonymous": c.RateLimiting.Anonymous} {
		positive("rate_limiting."+name+".requests_per_minute", int64(l.RequestsPerMinute))
		nonNegative("rate_limiting."+name+".burst_capacity", int64(l.BurstCapacity))
		nonNegative("rate_limiting."+name+".requests_per_hour", int64(l.RequestsPerHour))
	}
	for path, l := range c.RateLimiting.Endpoints {
		positive("rate_limiting.endpoints."+path+".requests_per_minute", int64(l.RequestsPerMinute))
	}
	gateways := map[string]Gateway{"test": c.Payment.Test, "stripe": c.Payment.Stripe, "paypal": c.Payment.PayPal, "alipay": c.Payment.Alipay, "wechat_pay": c.Payment.WeChatPay}
	for name, g := range gateways {
		if g.CaptureMethod != "" && g.CaptureMethod != "automatic" && g.CaptureMethod != "manual" {
			bad("payment."+name+".capture_method", "must be automatic or manual")
		}
	}
	if c.Payment.DefaultGateway != "" {
		g, ok := gateways[c.Payment.DefaultGateway]
		if !ok {
			bad("payment.default_gateway", "unknown gateway %q", c.Payment.DefaultGateway)
		} else if !g.Enabled {
			bad("payment.default_gateway", "gateway %q is not enabled", c.Payment.DefaultGateway)
		}
	}
	nonNegative("tax.vat_cache_days", int64(c.Tax.VATCacheDays))
	positive("tax.vies_timeout", int64(c.Tax.VIESTimeout))
	positive("inventory.reservation_timeout", int64(c.Inventory.ReservationTimeout))
	positive("carts.expiry_days", int64(c.Carts.ExpiryDays))
	positive("uploads.max_size_bytes", c.Uploads.MaxSizeBytes)
	switch c.Uploads.Driver {
	case "", "local":
	case "s3":
		for key, v := range map[string]string{"endpoint": c.Uploads.S3.Endpoint, "bucket": c.Uploads.S3.Bucket, "region": c.Uploads.S3.Region, "access_key_id": c.Uploads.S3.AccessKeyID, "secret_access_key": c.Uploads.S3.SecretAccessKey} {
			if v == "" {
				bad("uploads.s3."+key, "must be set when uploads.driver is s3")
			}
		}
	default:
		bad("uploads.driver", "must be local or s3")
	}
	positive("customers.invite_ttl", int64(c.Customers.InviteTTL))
	positive("customers.reset_ttl", int64(c.Customers.ResetTTL))
	positive("jobs.concurrency", int64(c.Jobs.Concurrency))
	if !c.Jobs.ServeRelay && c.Redis.URL == "" {
		bad("jobs.serve_relay", "may be false only with redis.url set (worker processes deliver the events then)")
	}
	positive("shipping.rates_timeout", int64(c.Shipping.RatesTimeout))
	positive("notifications.max_attempts", int64(c.Notifications.MaxAttempts))
	positive("notifications.concurrency", int64(c.Notifications.Concurrency))
	positive("notifications.sweep_interval", int64(c.Notifications.SweepInterval))
	nonNegative("notifications.abandoned_cart_delay", int64(c.Notifications.AbandonedCartDelay))
	if len(c.Notifications.RetryBackoff) == 0 {
		bad("notifications.retry_backoff", "must list at least one duration")
	}
	for _, d := range c.Notifications.RetryBackoff {
		if d <= 0 {
			bad("notifications.retry_backoff", "every duration must be positive")
			break
		}
	}
	switch c.Notifications.Email.TLS {
	case "starttls", "mandatory_starttls", "tls", "none":
	default:
		bad("notifications.email.tls", "must be starttls, mandatory_starttls, tls or none, got %q", c.Notifications.Email.TLS)
	}
	between("notifications.email.port", int64(c.Notifications.Email.Port), 1, 65535)
	positive("shipping.label_timeout", int64(c.Shipping.LabelTimeout))
	positive("shipping.tracking_interval", int64(c.Shipping.TrackingInterval))
	if _, err := time.LoadLocation(c.Statistics.Timezone); err != nil {
		bad("statistics.timezone", "unknown time zone %q", c.Statistics.Timezone)
	}
	if cur := c.Statistics.Currency; cur != "" && (len(cur) != 3 || strings.ToUpper(cur) != cur) {
		bad("statistics.currency", "must be an ISO 4217 code in upper case, got %q", cur)
	}
	positive("statistics.segments_interval", int64(c.Statistics.SegmentsInterval))
	positive("webhooks.timeout", int64(c.Webhooks.Timeout))
	positive("webhooks.retry_base", int64(c.Webhooks.RetryBase))
	positive("webhooks.retry_max", int64(c.Webhooks.RetryMax))
	positive("webhooks.sweep_interval", int64(c.Webhooks.SweepInterval))
	if c.Webhooks.MaxRetries < 0 || c.Webhooks.MaxRetries > 20 {
		bad("webhooks.max_retries", "must be from 0 to 20")
	}
	if c.Webhooks.EndpointConcurrency < 1 || c.Webhooks.EndpointConcurrency > 64 {
		bad("webhooks.endpoint_concurrency", "must be from 1 to 64")
	}
	if c.Webhooks.DisableAfter < 0 {
		bad("webhooks.disable_after", "must not be negative (0 never disables)")
	}
	for _, h := range c.Webhooks.AllowedHosts {
		if strings.Contains(h, "/") {
			if _, err := netip.ParsePrefix(strings.TrimSpace(h)); err != nil {
				bad("webhooks.allowed_hosts", "%q is not a CIDR range", h)
			}
		}
	}
	positive("subscriptions.billing_interval", int64(c.Subscriptions.BillingInterval))
	positive("subscriptions.batch_size", int64(c.Subscriptions.BatchSize))
	positive("subscriptions.claim_lease", int64(c.Subscriptions.ClaimLease))
	positive("subscriptions.dunning.max_attempts", int64(c.Subscriptions.Dunning.MaxAttempts))
	nonNegative("subscriptions.dunning.grace_period", int64(c.Subscriptions.Dunning.GracePeriod))
	if len(c.Subscriptions.Dunning.RetrySchedule) < c.Subscriptions.Dunning.MaxAttempts {
		bad("subscriptions.dunning.retry_schedule", "must list a delay for each of the max_attempts retries")
	}
	for _, d := range c.Subscriptions.Dunning.RetrySchedule {
		if d <= 0 {
			bad("subscriptions.dunning.retry_schedule", "every duration must be positive")
			break
		}
	}
	return errors.Join(errs...)
}

// devMode: the embedded development mode may use a short secret (it generates one otherwise).
func (c *Config) devMode() bool { return c.Embedded() && !c.Production() }

// EnsureJWTSecret fills an empty secret in the embedded mode with one generated once and
// kept in data_dir, so tokens survive restarts.
func (c *Config) EnsureJWTSecret() error {
	if c.Security.JWT.Secret != "" {
		return nil
	}
	if !c.Embedded() {
		return errors.New("config: security.jwt.secret: must be set (at least 32 characters)")
	}
	path := filepath.Join(c.DataDir, "jwt_secret")
	if b, err := os.ReadFile(path); err == nil && len(strings.TrimSpace(string(b))) >= 32 { // #nosec G304 -- path is under data_dir from our own config
		c.Security.JWT.Secret = strings.TrimSpace(string(b))
		return nil
	}
	if err := os.MkdirAll(c.DataDir, 0o750); err != nil {
		return fmt.Errorf("config: data_dir: %w", err)
	}
	buf := make([]byte, 32)
	if _, err := rand.Read(buf); err != nil {
		return err
	}
	secret := hex.EncodeToString(buf)
	if err := os.WriteFile(path, []byte(secret+"\n"), 0o600); err != nil {
		return fmt.Errorf("config: data_dir: %w", err)
	}
	c.Security.JWT.Secret = secret
	return nil
}
