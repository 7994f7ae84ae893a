package app

import (
	"time"

	"github.com/gocommerce/commerce/platform/config"
)

// Settings is identity's slice of the configuration.
type Settings struct {
	AccessTTL       time.Duration // security.jwt.expiry_hours
	RefreshTTL      time.Duration // security.jwt.refresh_expiry_hours
	KeyPrefixLength int           // security.api_key_prefix_length
	KeySecretLength int           // security.api_key_secret_length
	KeyCacheTTL     time.Duration // security.api_key_cache_ttl; 0 disables the cache
	CustomerScopes  []string      // security.customer_scopes
	BcryptCost      int           // security.bcrypt_cost
	// KeyRecheckInterval is how often cached API keys are re-checked against the
	// database for revocation or deletion made by other processes (the fallback when
	// no Redis invalidation reaches this process). 0 disables the re-check.
	KeyRecheckInterval time.Duration
	// LastUsedInterval is the minimum time between two last_used_at writes of a key.
	LastUsedInterval time.Duration
	// RevocationPollInterval is how often each process reads the customer token
	// revocations made since its previous read (the fallback when no signal reaches
	// it; docs/decisions/0096). 0 disables the poll.
	RevocationPollInterval time.Duration
}

// TokenLifetime is the longest a token issued now can be accepted: the longer of the
// access and refresh lifetimes, plus a minute for the verifier's clock leeway. A token
// revocation older than this refuses only expired tokens.
func (s Settings) TokenLifetime() time.Duration {
	return max(s.AccessTTL, s.RefreshTTL) + time.Minute
}

// Default intervals.
const (
	DefaultKeyRecheckInterval     = time.Second
	DefaultLastUsedInterval       = time.Minute
	DefaultRevocationPollInterval = time.Second
)

// SettingsFrom takes identity's settings from the configuration.
func SettingsFrom(cfg *config.Config) Settings {
	s := cfg.Security
	return Settings{
		AccessTTL:          time.Duration(s.JWT.ExpiryHours) * time.Hour,
		RefreshTTL:         time.Duration(s.JWT.RefreshExpiryHours) * time.Hour,
		KeyPrefixLength:    s.APIKeyPrefixLength,
		KeySecretLength:    s.APIKeySecretLength,
		KeyCacheTTL:        s.APIKeyCacheTTL,
		CustomerScopes:     append([]string(nil), s.CustomerScopes...),
		BcryptCost:         s.BcryptCost,
		KeyRecheckInterval: DefaultKeyRecheckInterval,
		LastUsedInterval:   DefaultLastUsedInterval,

		RevocationPollInterval: DefaultRevocationPollInterval,
	}
}
