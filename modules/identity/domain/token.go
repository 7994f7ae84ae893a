package domain

import (
	"strings"
	"time"
)

// SubjectKind is who a token was issued to.
type SubjectKind string

// Subject kinds.
const (
	SubjectCustomer SubjectKind = "customer"
	SubjectStaff    SubjectKind = "staff"
)

// Valid reports a known kind.
func (k SubjectKind) Valid() bool { return k == SubjectCustomer || k == SubjectStaff }

// TokenType tells access tokens from refresh tokens (the `typ` claim); each is refused
// where the other is expected.
type TokenType string

// Token types.
const (
	AccessToken  TokenType = "access"
	RefreshToken TokenType = "refresh"
)

// Claims are the contents of an identity JWT.
type Claims struct {
	ID        string // jti
	Subject   string // customer or staff user id
	Kind      SubjectKind
	Type      TokenType
	Scopes    []string // access tokens only
	Email     string
	IssuedAt  time.Time
	ExpiresAt time.Time
	// Generation is the subject's token generation when the token was issued (the `gen`
	// claim; 0 when absent). Revoking a customer's tokens raises the customer's
	// generation, and a customer token of an older generation is refused
	// (docs/decisions/0096).
	Generation int64
}

// LooksLikeJWT reports whether credential has the JWS compact shape: three base64url
// segments separated by dots, header and payload non-empty (the signature may be empty,
// as in an "alg: none" token, which is then refused as an invalid token). API keys
// (<prefix>.<secret>) never have this shape.
func LooksLikeJWT(credential string) bool {
	parts := strings.Split(credential, ".")
	if len(parts) != 3 || parts[0] == "" || parts[1] == "" {
		return false
	}
	for _, p := range parts {
		for i := 0; i < len(p); i++ {
			c := p[i]
			if !isAlnumByte(c) && c != '-' && c != '_' && c != '=' {
				return false
			}
		}
	}
	return true
}
