package domain

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
)

// sessionTokenBytes is the entropy of a guest cart's session token.
const sessionTokenBytes = 32

// NewSessionToken returns a random session token (32 bytes, base64url without
// padding) and the SHA-256 hash that is stored in its place.
func NewSessionToken() (token, hash string, err error) {
	b := make([]byte, sessionTokenBytes)
	if _, err := rand.Read(b); err != nil {
		return "", "", err
	}
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, HashSessionToken(token), nil
}

// HashSessionToken is the stored form of a session token (hex SHA-256). The token has
// 256 bits of entropy, so a fast hash is enough.
func HashSessionToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// SessionTokenMatches compares a presented token with a stored hash in constant time.
func SessionTokenMatches(storedHash, token string) bool {
	if storedHash == "" || token == "" {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(storedHash), []byte(HashSessionToken(token))) == 1
}
