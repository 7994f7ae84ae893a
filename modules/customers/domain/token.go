package domain

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"time"
)

// TokenPurpose names what an account token is for.
type TokenPurpose string

// Token purposes.
const (
	PurposeActivation    TokenPurpose = "activation"
	PurposePasswordReset TokenPurpose = "password_reset"
)

// AccountToken is a single-use, expiring token sent by email (invite activation or
// password reset). The raw token is never stored (docs/decisions/0042): it is
// HMAC-SHA256(key, purpose|id|customer) over a random id, so the service can rebuild
// the link for notifications, and only its SHA-256 is kept for verification. A
// customer has at most one live token per purpose; issuing a new one kills the old.
type AccountToken struct {
	ID         string // random UUID; not secret on its own
	CustomerID CustomerID
	Purpose    TokenPurpose
	Hash       string // hex SHA-256 of the raw token
	ExpiresAt  time.Time
	CreatedAt  time.Time
}

// NewAccountToken builds a token record and its raw value.
func NewAccountToken(key []byte, id string, customer CustomerID, purpose TokenPurpose, ttl time.Duration, now time.Time) (AccountToken, string) {
	raw := DeriveToken(key, purpose, id, customer)
	return AccountToken{ID: id, CustomerID: customer, Purpose: purpose, Hash: HashToken(raw), ExpiresAt: now.Add(ttl), CreatedAt: now}, raw
}

// DeriveToken computes the raw token of a record (URL-safe base64, 43 characters).
func DeriveToken(key []byte, purpose TokenPurpose, id string, customer CustomerID) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(string(purpose) + "|" + id + "|" + string(customer)))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// HashToken is the stored form of a raw token: hex SHA-256.
func HashToken(raw string) string {
	sum := sha256.Sum256([]byte(raw))
	return hex.EncodeToString(sum[:])
}

// Raw rebuilds the raw token and answers false when it no longer matches the stored
// hash (the key changed) or the token expired.
func (t AccountToken) Raw(key []byte, now time.Time) (string, bool) {
	if !now.Before(t.ExpiresAt) {
		return "", false
	}
	raw := DeriveToken(key, t.Purpose, t.ID, t.CustomerID)
	return raw, hmac.Equal([]byte(HashToken(raw)), []byte(t.Hash))
}
