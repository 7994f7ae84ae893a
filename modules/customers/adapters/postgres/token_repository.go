package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/modules/customers/ports"
	"github.com/gocommerce/commerce/platform/db"
)

// TokenRepository implements ports.TokenRepository on customers_account_tokens.
type TokenRepository struct{ db *db.DB }

var _ ports.TokenRepository = (*TokenRepository)(nil)

// NewTokenRepository builds the repository.
func NewTokenRepository(d *db.DB) *TokenRepository { return &TokenRepository{db: d} }

// Replace stores a token after removing the customer's token of the same purpose.
func (r *TokenRepository) Replace(ctx context.Context, t domain.AccountToken) error {
	conn := r.db.Conn(ctx)
	if err := conn.Where("customer_id = ? AND purpose = ?", string(t.CustomerID), string(t.Purpose)).Delete(&tokenRow{}).Error; err != nil {
		return fmt.Errorf("account tokens: delete: %w", err)
	}
	row := tokenRow{ID: t.ID, CustomerID: string(t.CustomerID), Purpose: string(t.Purpose), TokenHash: t.Hash, ExpiresAt: t.ExpiresAt.UTC(), CreatedAt: t.CreatedAt.UTC()}
	if err := conn.Create(&row).Error; err != nil {
		return fmt.Errorf("account tokens: insert: %w", err)
	}
	return nil
}

// Find returns the customer's token of the purpose.
func (r *TokenRepository) Find(ctx context.Context, customer domain.CustomerID, purpose domain.TokenPurpose) (domain.AccountToken, error) {
	var rows []tokenRow
	if err := r.db.Conn(ctx).Where("customer_id = ? AND purpose = ?", string(customer), string(purpose)).Limit(1).Find(&rows).Error; err != nil {
		return domain.AccountToken{}, fmt.Errorf("account tokens: select: %w", err)
	}
	if len(rows) == 0 {
		return domain.AccountToken{}, domain.ErrActivationTokenInvalid
	}
	return rows[0].toDomain(), nil
}

// Consume deletes the matching live token; exactly one caller can succeed.
func (r *TokenRepository) Consume(ctx context.Context, customer domain.CustomerID, purpose domain.TokenPurpose, hash string, now time.Time) (bool, error) {
	res := r.db.Conn(ctx).Where("customer_id = ? AND purpose = ? AND token_hash = ? AND expires_at > ?", string(customer), string(purpose), hash, now.UTC()).
		Delete(&tokenRow{})
	if res.Error != nil {
		return false, fmt.Errorf("account tokens: consume: %w", res.Error)
	}
	return res.RowsAffected == 1, nil
}

// DeleteForCustomer removes the customer's tokens of the purposes (all without any).
func (r *TokenRepository) DeleteForCustomer(ctx context.Context, customer domain.CustomerID, purposes ...domain.TokenPurpose) error {
	q := r.db.Conn(ctx).Where("customer_id = ?", string(customer))
	if len(purposes) > 0 {
		ps := make([]string, len(purposes))
		for i, p := range purposes {
			ps[i] = string(p)
		}
		q = q.Where("purpose IN ?", ps)
	}
	if err := q.Delete(&tokenRow{}).Error; err != nil {
		return fmt.Errorf("account tokens: delete: %w", err)
	}
	return nil
}

// ForCustomer lists the customer's tokens.
func (r *TokenRepository) ForCustomer(ctx context.Context, customer domain.CustomerID) ([]domain.AccountToken, error) {
	var rows []tokenRow
	if err := r.db.Conn(ctx).Where("customer_id = ?", string(customer)).Order("created_at").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("account tokens: list: %w", err)
	}
	out := make([]domain.AccountToken, len(rows))
	for i, row := range rows {
		out[i] = row.toDomain()
	}
	return out, nil
}

// PurgeExpired removes expired tokens.
func (r *TokenRepository) PurgeExpired(ctx context.Context, now time.Time) (int64, error) {
	res := r.db.Conn(ctx).Where("expires_at <= ?", now.UTC()).Delete(&tokenRow{})
	if res.Error != nil {
		return 0, fmt.Errorf("account tokens: purge: %w", res.Error)
	}
	return res.RowsAffected, nil
}
