package postgres

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm/clause"

	"github.com/gocommerce/commerce/modules/identity/domain"
	"github.com/gocommerce/commerce/modules/identity/ports"
	"github.com/gocommerce/commerce/platform/db"
)

// APIKeyRepository implements ports.APIKeyRepository on api_keys.
type APIKeyRepository struct{ db *db.DB }

var _ ports.APIKeyRepository = (*APIKeyRepository)(nil)

// NewAPIKeyRepository builds the repository.
func NewAPIKeyRepository(d *db.DB) *APIKeyRepository { return &APIKeyRepository{db: d} }

// Create inserts a key; a duplicate prefix is domain.ErrAPIKeyPrefixTaken.
func (r *APIKeyRepository) Create(ctx context.Context, k domain.APIKey) error {
	row, err := fromAPIKey(k)
	if err != nil {
		return err
	}
	if err := r.db.Conn(ctx).Create(&row).Error; err != nil {
		if db.IsDuplicate(err) {
			return domain.ErrAPIKeyPrefixTaken
		}
		return fmt.Errorf("api keys: insert: %w", err)
	}
	return nil
}

// List returns every key, newest first.
func (r *APIKeyRepository) List(ctx context.Context) ([]domain.APIKey, error) {
	var rows []apiKeyRow
	if err := r.db.Conn(ctx).Order("created_at DESC, prefix").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("api keys: list: %w", err)
	}
	out := make([]domain.APIKey, 0, len(rows))
	for _, row := range rows {
		k, err := row.toDomain()
		if err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, nil
}

// GetByPrefix loads a key by prefix.
func (r *APIKeyRepository) GetByPrefix(ctx context.Context, prefix string) (domain.APIKey, error) {
	var rows []apiKeyRow
	if err := r.db.Conn(ctx).Where("prefix = ?", prefix).Limit(1).Find(&rows).Error; err != nil {
		return domain.APIKey{}, fmt.Errorf("api keys: select: %w", err)
	}
	if len(rows) == 0 {
		return domain.APIKey{}, domain.ErrAPIKeyNotFound
	}
	return rows[0].toDomain()
}

// Update loads the key row-locked (PostgreSQL; SQLite serialises write transactions,
// which begin IMMEDIATE), applies change and saves the mutable fields. Call it inside a
// transaction.
func (r *APIKeyRepository) Update(ctx context.Context, prefix string, change func(*domain.APIKey) error) (domain.APIKey, error) {
	var rows []apiKeyRow
	if err := r.db.Conn(ctx).Clauses(clause.Locking{Strength: "UPDATE"}).Where("prefix = ?", prefix).Limit(1).Find(&rows).Error; err != nil {
		return domain.APIKey{}, fmt.Errorf("api keys: select for update: %w", err)
	}
	if len(rows) == 0 {
		return domain.APIKey{}, domain.ErrAPIKeyNotFound
	}
	k, err := rows[0].toDomain()
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
	res := r.db.Conn(ctx).Where("prefix = ?", prefix).Delete(&apiKeyRow{})
	if res.Error != nil {
		return fmt.Errorf("api keys: delete: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return domain.ErrAPIKeyNotFound
	}
	return nil
}

// TouchLastUsed sets last_used_at and last_used_ip unless a use after notBefore is
// already recorded (a conditional update, so concurrent processes stay within the rate).
func (r *APIKeyRepository) TouchLastUsed(ctx context.Context, id string, at time.Time, ip string, notBefore time.Time) error {
	err := r.db.Conn(ctx).Model(&apiKeyRow{}).
		Where("id = ? AND (last_used_at IS NULL OR last_used_at <= ?)", id, notBefore.UTC()).
		Updates(map[string]any{"last_used_at": at.UTC(), "last_used_ip": ip}).Error
	if err != nil {
		return fmt.Errorf("api keys: touch: %w", err)
	}
	return nil
}

// RevokedOrMissing returns the prefixes, among the given ones, whose key is revoked or
// no longer exists.
func (r *APIKeyRepository) RevokedOrMissing(ctx context.Context, prefixes []string) ([]string, error) {
	if len(prefixes) == 0 {
		return nil, nil
	}
	var rows []apiKeyRow
	if err := r.db.Conn(ctx).Select("prefix", "revoked_at").Where("prefix IN ?", prefixes).Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("api keys: check revocations: %w", err)
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
