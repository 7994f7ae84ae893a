// Package jwt implements identity's token port with HS256 JWTs (golang-jwt/v5).
package jwt

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	gojwt "github.com/golang-jwt/jwt/v5"

	"github.com/gocommerce/commerce/modules/identity/domain"
	"github.com/gocommerce/commerce/modules/identity/ports"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
)

// Tokens signs and verifies identity JWTs with security.jwt.secret.
type Tokens struct {
	secret   []byte
	issuer   string
	clock    clock.Clock
	parser   *gojwt.Parser
	verified verifiedTokens
}

// leeway is the clock skew allowed on exp and iat.
const leeway = 5 * time.Second

// maxVerified bounds the verified-token cache; a full cache starts over.
const maxVerified = 10_000

// verifiedTokens remembers the claims of tokens whose signature and claims were
// verified, by the token's SHA-256: a client sends the same access token with every
// request, and parsing it (base64, JSON, HMAC) cost about 20 µs of a 230 µs request
// (docs/performance.md, finding 11). The claims of a signed token never change; the
// time checks are made again on every use. A token is a key only through its hash, so
// no lookup compares secrets byte by byte.
type verifiedTokens struct {
	mu sync.RWMutex
	m  map[[sha256.Size]byte]domain.Claims
}

func (v *verifiedTokens) get(key [sha256.Size]byte) (domain.Claims, bool) {
	v.mu.RLock()
	defer v.mu.RUnlock()
	c, ok := v.m[key]
	return c, ok
}

func (v *verifiedTokens) put(key [sha256.Size]byte, c domain.Claims) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.m == nil || len(v.m) >= maxVerified {
		v.m = make(map[[sha256.Size]byte]domain.Claims)
	}
	v.m[key] = c
}

var _ ports.Tokens = (*Tokens)(nil)

// claims is the JWT payload: registered claims (sub, iat, exp, iss, jti) plus the
// subject kind, the token type, for access tokens the scopes, and the subject's token
// generation (omitted while it is 0; docs/decisions/0096).
type claims struct {
	gojwt.RegisteredClaims
	Kind   string   `json:"kind"`
	Typ    string   `json:"typ"`
	Scopes []string `json:"scopes,omitempty"`
	Email  string   `json:"email,omitempty"`
	Gen    int64    `json:"gen,omitempty"`
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
			gojwt.WithLeeway(leeway),
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
		Gen:    c.Generation,
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
	key := sha256.Sum256([]byte(token))
	if c, ok := t.verified.get(key); ok && t.timely(c) {
		c.Scopes = slices.Clone(c.Scopes)
		return c, nil
	}
	c, cacheable, err := t.parse(token)
	if err == nil && cacheable {
		kept := c
		kept.Scopes = slices.Clone(c.Scopes)
		t.verified.put(key, kept)
	}
	return c, err
}

// timely repeats the parser's time checks on verified claims: exp not past and iat not
// in the future, both with the leeway.
func (t *Tokens) timely(c domain.Claims) bool {
	now := t.clock.Now()
	return !now.After(c.ExpiresAt.Add(leeway)) && !now.Before(c.IssuedAt.Add(-leeway))
}

// parse verifies token in full. Its claims are cacheable when they hold every time
// claim the parser checks: exp and iat, and no nbf.
func (t *Tokens) parse(token string) (domain.Claims, bool, error) {
	var jc claims
	_, err := t.parser.ParseWithClaims(token, &jc, func(*gojwt.Token) (any, error) { return t.secret, nil })
	if err != nil {
		if errors.Is(err, gojwt.ErrTokenExpired) {
			return domain.Claims{}, false, domain.ErrTokenExpired
		}
		return domain.Claims{}, false, domain.ErrInvalidToken
	}
	kind, typ := domain.SubjectKind(jc.Kind), domain.TokenType(jc.Typ)
	if jc.Subject == "" || !kind.Valid() || (typ != domain.AccessToken && typ != domain.RefreshToken) || jc.Gen < 0 {
		return domain.Claims{}, false, domain.ErrInvalidToken
	}
	out := domain.Claims{ID: jc.ID, Subject: jc.Subject, Kind: kind, Type: typ, Scopes: jc.Scopes, Email: jc.Email, Generation: jc.Gen}
	if jc.IssuedAt != nil {
		out.IssuedAt = jc.IssuedAt.Time
	}
	if jc.ExpiresAt != nil {
		out.ExpiresAt = jc.ExpiresAt.Time
	}
	return out, jc.IssuedAt != nil && jc.ExpiresAt != nil && jc.NotBefore == nil, nil
}
