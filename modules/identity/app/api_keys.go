package app

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/identity/api"
	"github.com/gocommerce/commerce/modules/identity/domain"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/ids"
)

// prefixAttempts bounds retries when a generated prefix collides (62^8 prefixes make a
// collision very unlikely; a retry makes it harmless).
const prefixAttempts = 5

// CreateAPIKey validates the name, scopes and optional multiplier, generates a key and
// stores its prefix and the SHA-256 of its secret. The full key is returned once and
// never stored or logged.
func (s *Service) CreateAPIKey(ctx context.Context, cmd api.CreateAPIKeyCommand) (api.APIKey, string, error) {
	in, err := domain.ValidateAPIKeyInput(domain.NewAPIKeyInput{Name: cmd.Name, Scopes: cmd.Scopes, RateLimitMultiplier: cmd.RateLimitMultiplier})
	if err != nil {
		return api.APIKey{}, "", err
	}
	for attempt := 0; ; attempt++ {
		prefix, secret, err := domain.GenerateKey(s.settings.KeyPrefixLength, s.settings.KeySecretLength)
		if err != nil {
			return api.APIKey{}, "", fmt.Errorf("create api key: %w", err)
		}
		k := domain.APIKey{
			ID: ids.New(), Name: in.Name, Prefix: prefix, SecretHash: domain.HashSecret(secret),
			Scopes: in.Scopes, RateLimitMultiplier: in.RateLimitMultiplier, CreatedAt: s.clock.Now(),
		}
		err = s.tx.InTx(ctx, func(ctx context.Context) error { return s.keys.Create(ctx, k) })
		if errors.Is(err, domain.ErrAPIKeyPrefixTaken) && attempt+1 < prefixAttempts {
			continue
		}
		if err != nil {
			return api.APIKey{}, "", err
		}
		s.log.Info("api key created", zap.String("prefix", prefix), zap.String("name", in.Name), zap.Strings("scopes", in.Scopes))
		return toAPIKey(k), domain.FormatKey(prefix, secret), nil
	}
}

// ListAPIKeys returns every key, newest first (never a secret).
func (s *Service) ListAPIKeys(ctx context.Context) ([]api.APIKey, error) {
	keys, err := s.keys.List(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]api.APIKey, 0, len(keys))
	for _, k := range keys {
		out = append(out, toAPIKey(k))
	}
	return out, nil
}

// GetAPIKey returns a key by prefix, or API_KEY_NOT_FOUND.
func (s *Service) GetAPIKey(ctx context.Context, prefix string) (api.APIKey, error) {
	k, err := s.keys.GetByPrefix(ctx, strings.TrimSpace(prefix))
	if err != nil {
		return api.APIKey{}, err
	}
	return toAPIKey(k), nil
}

// RevokeAPIKey revokes a key with a reason (required). Revoking twice is
// API_KEY_ALREADY_REVOKED. The revocation takes effect at once: after commit the key
// leaves this process's cache and every other process is told (see Authenticator).
func (s *Service) RevokeAPIKey(ctx context.Context, prefix, reason string) (api.APIKey, error) {
	prefix = strings.TrimSpace(prefix)
	if strings.TrimSpace(reason) == "" {
		return api.APIKey{}, apperr.Validation(map[string]string{"reason": "is required"})
	}
	var out domain.APIKey
	err := s.tx.InTx(ctx, func(ctx context.Context) error {
		k, err := s.keys.Update(ctx, prefix, func(k *domain.APIKey) error { return k.Revoke(reason, s.clock.Now()) })
		out = k
		return err
	})
	if err != nil {
		return api.APIKey{}, err
	}
	s.invalidate(ctx, prefix)
	s.log.Info("api key revoked", zap.String("prefix", prefix))
	return toAPIKey(out), nil
}

// DeleteAPIKey deletes a key; like revocation it takes effect at once.
func (s *Service) DeleteAPIKey(ctx context.Context, prefix string) error {
	prefix = strings.TrimSpace(prefix)
	if err := s.tx.InTx(ctx, func(ctx context.Context) error { return s.keys.Delete(ctx, prefix) }); err != nil {
		return err
	}
	s.invalidate(ctx, prefix)
	s.log.Info("api key deleted", zap.String("prefix", prefix))
	return nil
}

// invalidate drops a changed key from this process's cache and tells the others. It
// runs after commit, so no request can re-cache the old state. A failed broadcast is
// logged: other processes then notice within the re-check interval.
func (s *Service) invalidate(ctx context.Context, prefix string) {
	s.cache.Invalidate(prefix)
	if err := s.invalidations.Publish(ctx, prefix); err != nil {
		s.log.Warn("api key invalidation broadcast failed", zap.String("prefix", prefix), zap.Error(err))
	}
}

func toAPIKey(k domain.APIKey) api.APIKey {
	out := api.APIKey{
		ID: k.ID, Name: k.Name, Prefix: k.Prefix, Scopes: append([]string(nil), k.Scopes...),
		LastUsedAt: k.LastUsedAt, LastUsedIP: k.LastUsedIP, Revoked: k.Revoked(), RevokedAt: k.RevokedAt,
		RevocationReason: k.RevocationReason, CreatedAt: k.CreatedAt.UTC(),
	}
	if k.RateLimitMultiplier != nil {
		out.RateLimitMultiplier = k.RateLimitMultiplier.String()
	}
	return out
}
