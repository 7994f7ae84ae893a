// Package jwt implements identity's token port with HS256 JWTs (golang-jwt/v5).
package jwt

import (
	"errors"
	"fmt"
	"time"

	gojwt "github.com/golang-jwt/jwt/v5"

	"github.com/gocommerce/commerce/modules/identity/domain"
	"github.com/gocommerce/commerce/modules/identity/ports"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
)

// Tokens signs and verifies identity JWTs with security.jwt.secret.
type Tokens struct {
	secret []byte
	issuer string
	clock  clock.Clock
	parser *gojwt.Parser
}

var _ ports.Tokens = (*Tokens)(nil)

// claims is the JWT payload: registered claims (sub, iat, exp, iss, jti) plus the
// subject kind, the token type and, for access tokens, the scopes.
type claims struct {
	gojwt.RegisteredClaims
	Kind   string   `json:"kind"`
	Typ    string   `json:"typ"`
	Scopes []string `json:"scopes,omitempty"`
	Email  string   `json:"email,omitempty"`
}

// NewTokens builds the codec from the configuration; the secret must be set.
func NewTokens(cfg *config.Config, clk clock.Clock) (*Tokens, error) {
	secret := cfg.Security.JWT.Secret
	if secret == "" {
		return nil, errors.New("config: security.jwt.secret: must be set")
	}
	return &Tokens{
		secret: []byte(secret),
		issuer: cfg.Security.JWT.Issuer,
		clock:  clk,
		parser: gojwt.NewParser(
			gojwt.WithValidMethods([]string{gojwt.SigningMethodHS256.Alg()}),
			gojwt.WithIssuer(cfg.Security.JWT.Issuer),
			gojwt.WithExpirationRequired(),
			gojwt.WithIssuedAt(),
			gojwt.WithLeeway(5*time.Second),
			gojwt.WithTimeFunc(clk.Now),
		),
	}, nil
}

// Issue signs c with HS256.
func (t *Tokens) Issue(c domain.Claims) (string, error) {
	jc := claims{
		RegisteredClaims: gojwt.RegisteredClaims{
			Subject:   c.Subject,
			Issuer:    t.issuer,
			ID:        c.ID,
			IssuedAt:  gojwt.NewNumericDate(c.IssuedAt),
			ExpiresAt: gojwt.NewNumericDate(c.ExpiresAt),
		},
		Kind:   string(c.Kind),
		Typ:    string(c.Type),
		Scopes: c.Scopes,
		Email:  c.Email,
	}
	s, err := gojwt.NewWithClaims(gojwt.SigningMethodHS256, jc).SignedString(t.secret)
	if err != nil {
		return "", fmt.Errorf("sign token: %w", err)
	}
	return s, nil
}

// Parse verifies the token (algorithm HS256 only, signature, issuer, exp required and
// not past, iat not in the future) and returns its claims. An expired token is
// domain.ErrTokenExpired; anything else wrong is domain.ErrInvalidToken.
func (t *Tokens) Parse(token string) (domain.Claims, error) {
	var jc claims
	_, err := t.parser.ParseWithClaims(token, &jc, func(*gojwt.Token) (any, error) { return t.secret, nil })
	if err != nil {
		if errors.Is(err, gojwt.ErrTokenExpired) {
			return domain.Claims{}, domain.ErrTokenExpired
		}
		return domain.Claims{}, domain.ErrInvalidToken
	}
	kind, typ := domain.SubjectKind(jc.Kind), domain.TokenType(jc.Typ)
	if jc.Subject == "" || !kind.Valid() || (typ != domain.AccessToken && typ != domain.RefreshToken) {
		return domain.Claims{}, domain.ErrInvalidToken
	}
	out := domain.Claims{ID: jc.ID, Subject: jc.Subject, Kind: kind, Type: typ, Scopes: jc.Scopes, Email: jc.Email}
	if jc.IssuedAt != nil {
		out.IssuedAt = jc.IssuedAt.Time
	}
	if jc.ExpiresAt != nil {
		out.ExpiresAt = jc.ExpiresAt.Time
	}
	return out, nil
}
