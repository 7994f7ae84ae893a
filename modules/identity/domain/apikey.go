package domain

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/auth"
)

// KeyAlphabet is the alphabet of API key prefixes and secrets.
const KeyAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// MaxAPIKeyNameLength bounds a key's name.
const MaxAPIKeyNameLength = 255

// MaxRevocationReasonLength bounds a revocation reason.
const MaxRevocationReasonLength = 1000

// APIKey is a stored API key. The secret itself is never kept: only its SHA-256.
type APIKey struct {
	ID                  string
	Name                string
	Prefix              string
	SecretHash          string // hex SHA-256 of the secret
	Scopes              []string
	RateLimitMultiplier *decimal.Decimal // nil when unset
	LastUsedAt          *time.Time
	LastUsedIP          string
	RevokedAt           *time.Time
	RevocationReason    string
	CreatedAt           time.Time
}

// Revoked reports whether the key was revoked.
func (k *APIKey) Revoked() bool { return k.RevokedAt != nil }

// Revoke marks the key revoked with a reason (required). Revoking twice is
// ErrAPIKeyAlreadyRevoked.
func (k *APIKey) Revoke(reason string, now time.Time) error {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return apperr.Validation(map[string]string{"reason": "is required"})
	}
	if len(reason) > MaxRevocationReasonLength {
		return apperr.Validation(map[string]string{"reason": fmt.Sprintf("must be at most %d characters", MaxRevocationReasonLength)})
	}
	if k.Revoked() {
		return ErrAPIKeyAlreadyRevoked
	}
	t := now
	k.RevokedAt = &t
	k.RevocationReason = reason
	return nil
}

// MultiplierFloat is the rate-limit multiplier as a float (0 when unset).
func (k *APIKey) MultiplierFloat() float64 {
	if k.RateLimitMultiplier == nil {
		return 0
	}
	f, _ := k.RateLimitMultiplier.Float64()
	return f
}

// VerifySecret compares secret with the stored hash in constant time.
func (k *APIKey) VerifySecret(secret string) bool {
	return SecretHashEqual(HashSecret(secret), k.SecretHash)
}

// HashSecret is the hex SHA-256 of an API key secret. Secrets are 32+ random
// characters (190+ bits), so a fast hash is enough: there is nothing to brute-force.
func HashSecret(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// SecretHashEqual compares two hex hashes in constant time.
func SecretHashEqual(a, b string) bool {
	return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

// RandomString returns n characters drawn uniformly from KeyAlphabet using r (crypto
// randomness). Bytes at or above 248 (the largest multiple of 62 below 256) are
// rejected, so there is no modulo bias.
func RandomString(r io.Reader, n int) (string, error) {
	const limit = 256 - 256%len(KeyAlphabet) // 248
	out := make([]byte, 0, n)
	buf := make([]byte, n+n/4+8)
	for len(out) < n {
		if _, err := io.ReadFull(r, buf); err != nil {
			return "", fmt.Errorf("random: %w", err)
		}
		for _, b := range buf {
			if int(b) >= limit {
				continue
			}
			out = append(out, KeyAlphabet[int(b)%len(KeyAlphabet)])
			if len(out) == n {
				break
			}
		}
	}
	return string(out), nil
}

// GenerateKey returns a new prefix and secret from crypto/rand. The full key is
// prefix + "." + secret.
func GenerateKey(prefixLen, secretLen int) (prefix, secret string, err error) {
	if prefix, err = RandomString(rand.Reader, prefixLen); err != nil {
		return "", "", err
	}
	if secret, err = RandomString(rand.Reader, secretLen); err != nil {
		return "", "", err
	}
	return prefix, secret, nil
}

// FormatKey joins a prefix and a secret into the full key.
func FormatKey(prefix, secret string) string { return prefix + "." + secret }

// ParseKey splits a full key "<prefix>.<secret>". Both parts must be non-empty and
// alphanumeric; lengths are not checked, so keys made under other length settings
// keep working.
func ParseKey(key string) (prefix, secret string, ok bool) {
	prefix, secret, found := strings.Cut(key, ".")
	if !found || !isAlnum(prefix) || !isAlnum(secret) || len(prefix) > 64 || len(secret) > 256 {
		return "", "", false
	}
	return prefix, secret, true
}

func isAlnum(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isAlnumByte(s[i]) {
			return false
		}
	}
	return true
}

func isAlnumByte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
}

// ParseScopes trims, de-duplicates and validates scopes ("resource:action" or a bare
// wildcard read, write, admin). It reports the first bad one.
func ParseScopes(in []string) ([]string, error) {
	out := make([]string, 0, len(in))
	seen := map[string]bool{}
	for _, s := range in {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		if !auth.ValidScope(s) {
			return nil, fmt.Errorf("invalid scope %q: want resource:action (action read, write or admin) or read, write, admin", s)
		}
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("at least one scope is required")
	}
	return out, nil
}

// NewAPIKeyInput is what a new key is made from.
type NewAPIKeyInput struct {
	Name                string
	Scopes              []string
	RateLimitMultiplier string // optional positive decimal
}

// ValidatedAPIKeyInput is NewAPIKeyInput checked and normalised.
type ValidatedAPIKeyInput struct {
	Name                string
	Scopes              []string
	RateLimitMultiplier *decimal.Decimal
}

// ValidateAPIKeyInput checks a new key's name, scopes and multiplier; problems come back
// as one validation error naming each bad field.
func ValidateAPIKeyInput(in NewAPIKeyInput) (ValidatedAPIKeyInput, error) {
	fields := map[string]string{}
	var out ValidatedAPIKeyInput
	out.Name = strings.TrimSpace(in.Name)
	switch {
	case out.Name == "":
		fields["name"] = "is required"
	case len(out.Name) > MaxAPIKeyNameLength:
		fields["name"] = fmt.Sprintf("must be at most %d characters", MaxAPIKeyNameLength)
	}
	scopes, err := ParseScopes(in.Scopes)
	if err != nil {
		fields["scopes"] = err.Error()
	}
	out.Scopes = scopes
	if m := strings.TrimSpace(in.RateLimitMultiplier); m != "" {
		d, err := decimal.NewFromString(m)
		switch {
		case err != nil:
			fields["rate_limit_multiplier"] = "must be a decimal number"
		case !d.IsPositive():
			fields["rate_limit_multiplier"] = "must be greater than 0"
		case d.GreaterThan(decimal.NewFromInt(1000)):
			fields["rate_limit_multiplier"] = "must be at most 1000"
		default:
			out.RateLimitMultiplier = &d
		}
	}
	if len(fields) > 0 {
		return ValidatedAPIKeyInput{}, apperr.Validation(fields)
	}
	return out, nil
}
