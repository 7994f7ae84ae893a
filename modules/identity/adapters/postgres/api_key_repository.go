package postgres

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm/clause"

	"github.com/gocommerce/commerce/modules/identity/domain"
	"github.com/gocommerce/commerce/platform/db"
)

// Create inserts a key; a duplicate prefix is domain.ErrAPIKeyPrefixTaken.
func (r *APIKeyRepository) Create(ctx context.Context, k domain.APIKey) error {
	row, err := fromAPIKey(k)
	if err != nil {
		return err
	}
	return db.Insert(r.db.Conn(ctx), &row, domain.ErrAPIKeyPrefixTaken, "api keys: insert")
}

// List returns every key, newest first.
func (r *APIKeyRepository) List(ctx context.Context) ([]domain.APIKey, error) {
	rows, err := db.Find[apiKeyRow](r.db.Conn(ctx).Order("created_at DESC, prefix"), "api keys: list")
	if err != nil {
		return nil, err
	}
	return db.MapErr(rows, apiKeyRow.toDomain)
}

// GetByPrefix loads a key by prefix.
func (r *APIKeyRepository) GetByPrefix(ctx context.Context, prefix string) (domain.APIKey, error) {
	row, err := db.First[apiKeyRow](r.db.Conn(ctx).Where("prefix = ?", prefix), domain.ErrAPIKeyNotFound, "api keys: select")
	if err != nil {
		return domain.APIKey{}, err
	}
	return row.toDomain()
}

// Update loads the key row-locked (PostgreSQL; SQLite serialises write transactions,
// which begin IMMEDIATE), applies change and saves the mutable fields. Call it inside a
// transaction.
func (r *APIKeyRepository) Update(ctx context.Context, prefix string, change func(*domain.APIKey) error) (domain.APIKey, error) {
	locked := r.db.Conn(ctx).Clauses(clause.Locking{Strength: "UPDATE"}).Where("prefix = ?", prefix)
	cur, err := db.First[apiKeyRow](locked, domain.ErrAPIKeyNotFound, "api keys: select for update")
	if err != nil {
		return domain.APIKey{}, err
	}
	k, err := cur.toDomain()
	if err != nil {
		return domain.APIKey{}, err
	}
	if err := change(&k); err != nil {
		return domain.APIKey{}, err
	}
	row, err := fromAPIKey(k)
	if err != nil {
		return domain.APIKey{}, err
	}
	err = r.db.Conn(ctx).Model(&apiKeyRow{}).Where("id = ?", row.ID).Updates(map[string]any{
		"name":                  row.Name,
		"scopes":                row.Scopes,
		"rate_limit_multiplier": row.RateLimitMultiplier,
		"revoked_at":            row.RevokedAt,
		"revocation_reason":     row.RevocationReason,
	}).Error
	if err != nil {
		return domain.APIKey{}, fmt.Errorf("api keys: update: %w", err)
	}
	return k, nil
}

// Delete removes a key.
func (r *APIKeyRepository) Delete(ctx context.Context, prefix string) error {
	return db.One(r.db.Conn(ctx).Where("prefix = ?", prefix).Delete(&apiKeyRow{}), domain.ErrAPIKeyNotFound, "api keys: delete")
}

// TouchLastUsed sets last_used_at and last_used_ip unless a use after notBefore is
// already recorded (a conditional update, so concurrent processes stay within the rate).
func (r *APIKeyRepository) TouchLastUsed(ctx context.Context, id string, at time.Time, ip string, notBefore time.Time) error {
	return db.Done(r.db.Conn(ctx).Model(&apiKeyRow{}).
		Where("id = ? AND (last_used_at IS NULL OR last_used_at <= ?)", id, notBefore.UTC()).
		Updates(map[string]any{"last_used_at": at.UTC(), "last_used_ip": ip}), "api keys: touch")
}

// RevokedOrMissing returns the prefixes, among the given ones, whose key is revoked or
// no longer exists.
func (r *APIKeyRepository) RevokedOrMissing(ctx context.Context, prefixes []string) ([]string, error) {
	if len(prefixes) == 0 {
		return nil, nil
	}
	rows, err := db.Find[apiKeyRow](r.db.Conn(ctx).Select("prefix", "revoked_at").Where("prefix IN ?", prefixes), "api keys: check revocations")
	if err != nil {
		return nil, err
	}
	live := make(map[string]bool, len(rows))
	for _, row := range rows {
		if row.RevokedAt == nil {
			live[row.Prefix] = true
		}
	}
	var out []string
	for _, p := range prefixes {
		if !live[p] {
			out = append(out, p)
		}
	}
	return out, nil
}
