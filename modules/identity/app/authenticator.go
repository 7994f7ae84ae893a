package app

import (
	"context"
	"errors"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/identity/domain"
	"github.com/gocommerce/commerce/modules/identity/ports"
	"github.com/gocommerce/commerce/platform/auth"
	"github.com/gocommerce/commerce/platform/clock"
)

// Authenticator implements auth.Authenticator for JWT access tokens and API keys.
//
// JWTs (three base64url segments) are verified in memory (HS256, issuer, expiry, typ
// "access") and never touch the database. A customer token is also checked against
// the process's Revocations (a map lookup): once a customer is disabled, deleted or
// anonymized, the tokens issued before are refused in every process within about a
// second (docs/decisions/0096).
//
// API keys ("<prefix>.<secret>") are verified once against the database (lookup by
// prefix, constant-time comparison of the secret's SHA-256) and then served from a
// KeyCache for security.api_key_cache_ttl (30s by default): a request with a cached key
// costs a map lookup and a hash, no database round trip. Revocation and deletion take
// effect at once:
//
//   - in the process that revokes or deletes (HTTP or CLI), the entry is dropped right
//     after commit;
//   - other processes are told over ports.KeyInvalidations: with Redis configured, a
//     Redis pub/sub channel every process subscribes to for its whole life (the
//     subscription starts in NewAuthenticator and ends in its cleanup function);
//   - as a safety net for lost messages and for deployments without Redis (the embedded
//     mode, where the CLI is a separate process), every KeyRecheckInterval (1s) the keys
//     cached as valid are re-checked with one indexed query, whatever the request rate;
//     the TTL bounds everything else.
//
// Customer token revocations travel on the same channels (the message is a
// domain.RevocationSignal) and are polled every RevocationPollInterval (1s).
//
// last_used_at and last_used_ip are written at most once per minute per key, off the
// request path, by one background writer (see usageRecorder); Flush writes pending uses
// synchronously.
type Authenticator struct {
	settings Settings
	tokens   ports.Tokens
	keys     ports.APIKeyRepository
	cache    *KeyCache
	revs     *Revocations
	usage    *usageRecorder
	clock    clock.Clock
	log      *zap.Logger
}

var _ auth.Authenticator = (*Authenticator)(nil)

// NewAuthenticator builds the authenticator and starts its background work: the
// invalidation subscription, the key re-check and revocation poll loops and the
// last-used writer. The returned cleanup stops them and writes pending last-used
// updates.
func NewAuthenticator(s Settings, tokens ports.Tokens, keys ports.APIKeyRepository, cache *KeyCache, revs *Revocations, inv ports.KeyInvalidations, clk clock.Clock, log *zap.Logger) (*Authenticator, func(), error) {
	a := &Authenticator{
		settings: s, tokens: tokens, keys: keys, cache: cache, revs: revs,
		usage: newUsageRecorder(keys, clk, s.LastUsedInterval), clock: clk, log: log.Named("identity.auth"),
	}
	stopSub, err := inv.Subscribe(a.invalidated)
	if err != nil {
		return nil, nil, err
	}
	// Load the revocations before the first request when the table is there (it is not
	// before the first migration: the poll loop then loads them once it is).
	lctx, lcancel := context.WithTimeout(context.Background(), 5*time.Second)
	if err := revs.Poll(lctx); err != nil {
		a.log.Debug("token revocations not loaded at start", zap.Error(err))
	}
	lcancel()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		a.usage.run(ctx, func(err error) { a.log.Warn("api key last-used update failed", zap.Error(err)) })
	}()
	if s.KeyRecheckInterval > 0 && s.KeyCacheTTL > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a.every(ctx, s.KeyRecheckInterval, "api key re-check", a.Recheck)
		}()
	}
	if s.RevocationPollInterval > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a.every(ctx, s.RevocationPollInterval, "token revocation poll", a.revs.Poll)
		}()
	}
	var once sync.Once
	cleanup := func() {
		once.Do(func() {
			stopSub()
			cancel()
			wg.Wait()
		})
	}
	return a, cleanup, nil
}

// Authenticate turns a credential (JWT access token or API key) into a principal.
func (a *Authenticator) Authenticate(ctx context.Context, credential, remoteIP string) (*auth.Principal, error) {
	if domain.LooksLikeJWT(credential) {
		return a.authenticateJWT(credential)
	}
	return a.authenticateKey(ctx, credential, remoteIP)
}

func (a *Authenticator) authenticateJWT(token string) (*auth.Principal, error) {
	c, err := a.tokens.Parse(token)
	if err != nil {
		return nil, err
	}
	if c.Type != domain.AccessToken {
		return nil, domain.ErrInvalidToken
	}
	p := &auth.Principal{ID: c.Subject, Email: c.Email, Scopes: c.Scopes}
	switch c.Kind {
	case domain.SubjectCustomer:
		if a.revs.Refused(c.Subject, c.Generation) {
			return nil, domain.ErrInvalidToken
		}
		p.Kind = auth.Customer
	case domain.SubjectStaff:
		p.Kind = auth.Staff
	default:
		return nil, domain.ErrInvalidToken
	}
	return p, nil
}

func (a *Authenticator) authenticateKey(ctx context.Context, credential, remoteIP string) (*auth.Principal, error) {
	prefix, secret, ok := domain.ParseKey(credential)
	if !ok {
		return nil, domain.ErrInvalidAPIKey
	}
	hash := domain.HashSecret(secret)
	if e, ok := a.cache.get(prefix, hash); ok {
		return a.admit(e, remoteIP)
	}
	gen := a.cache.generation()
	k, err := a.keys.GetByPrefix(ctx, prefix)
	if err != nil {
		if errors.Is(err, domain.ErrAPIKeyNotFound) {
			return nil, domain.ErrInvalidAPIKey
		}
		return nil, err
	}
	if !domain.SecretHashEqual(hash, k.SecretHash) {
		return nil, domain.ErrInvalidAPIKey
	}
	e := &keyEntry{
		secretHash: k.SecretHash,
		keyID:      k.ID,
		revoked:    k.Revoked(),
		principal: auth.Principal{
			Kind: auth.APIKey, ID: k.ID, KeyPrefix: k.Prefix, Scopes: append([]string(nil), k.Scopes...),
			RateLimitMultiplier: k.MultiplierFloat(),
		},
	}
	a.usage.seed(k.ID, k.LastUsedAt)
	a.cache.put(prefix, e, gen)
	return a.admit(e, remoteIP)
}

func (a *Authenticator) admit(e *keyEntry, remoteIP string) (*auth.Principal, error) {
	if e.revoked {
		return nil, domain.ErrAPIKeyRevoked
	}
	a.usage.touch(e.keyID, remoteIP)
	p := e.principal
	return &p, nil
}

// Flush writes pending last_used_at / last_used_ip updates now.
func (a *Authenticator) Flush(ctx context.Context) error { return a.usage.flush(ctx) }

// Recheck re-checks the keys cached as valid against the database once and drops
// those revoked or deleted meanwhile (normally run every KeyRecheckInterval).
func (a *Authenticator) Recheck(ctx context.Context) error {
	prefixes := a.cache.liveValidPrefixes()
	const chunk = 500
	for len(prefixes) > 0 {
		n := min(chunk, len(prefixes))
		stale, err := a.keys.RevokedOrMissing(ctx, prefixes[:n])
		if err != nil {
			return err
		}
		for _, p := range stale {
			a.cache.Invalidate(p)
		}
		prefixes = prefixes[n:]
	}
	return nil
}

// every runs f every period until ctx ends, each run bounded by the period plus five
// seconds; a failure is logged as what failed (the API key re-check, the revocation poll).
func (a *Authenticator) every(ctx context.Context, period time.Duration, what string, f func(context.Context) error) {
	clock.Every(ctx, period, func(ctx context.Context) {
		rctx, cancel := context.WithTimeout(ctx, period+5*time.Second)
		defer cancel()
		if err := f(rctx); err != nil && ctx.Err() == nil {
			a.log.Warn(what+" failed", zap.Error(err))
		}
	})
}

// invalidated handles a message of the invalidation channels: a customer revocation
// signal, or the prefix of an API key that changed.
func (a *Authenticator) invalidated(msg string) {
	if id, gen, ok := domain.ParseRevocationSignal(msg); ok {
		a.revs.Apply(domain.TokenRevocation{CustomerID: id, Generation: gen, RevokedAt: a.clock.Now()})
		return
	}
	a.cache.Invalidate(msg)
}
