package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/platform/db"
)

// Replace stores a token after removing the customer's token of the same purpose.
func (r *TokenRepository) Replace(ctx context.Context, t domain.AccountToken) error {
	conn := r.db.Conn(ctx)
	if err := conn.Where("customer_id = ? AND purpose = ?", string(t.CustomerID), string(t.Purpose)).Delete(&tokenRow{}).Error; err != nil {
		return fmt.Errorf("account tokens: delete: %w", err)
	}
	row := tokenRow{ID: t.ID, CustomerID: string(t.CustomerID), Purpose: string(t.Purpose), TokenHash: t.Hash, ExpiresAt: t.ExpiresAt.UTC(), CreatedAt: t.CreatedAt.UTC()}
	return db.Insert(conn, &row, nil, "account tokens: insert")
}

// Find returns the customer's token of the purpose.
func (r *TokenRepository) Find(ctx context.Context, customer domain.CustomerID, purpose domain.TokenPurpose) (domain.AccountToken, error) {
	q := r.db.Conn(ctx).Where("customer_id = ? AND purpose = ?", string(customer), string(purpose))
	return db.FirstAs(q, tokenRow.toDomain, domain.ErrActivationTokenInvalid, "account tokens: select")
}

// Consume deletes the matching live token; exactly one caller can succeed.
func (r *TokenRepository) Consume(ctx context.Context, customer domain.CustomerID, purpose domain.TokenPurpose, hash string, now time.Time) (bool, error) {
	n, err := db.Affected(r.db.Conn(ctx).Where("customer_id = ? AND purpose = ? AND token_hash = ? AND expires_at > ?", string(customer), string(purpose), hash, now.UTC()).
		Delete(&tokenRow{}), "account tokens: consume")
	return n == 1, err
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
	return db.Done(q.Delete(&tokenRow{}), "account tokens: delete")
}

// ForCustomer lists the customer's tokens.
func (r *TokenRepository) ForCustomer(ctx context.Context, customer domain.CustomerID) ([]domain.AccountToken, error) {
	return db.FindAs(r.db.Conn(ctx).Where("customer_id = ?", string(customer)).Order("created_at"), tokenRow.toDomain, "account tokens: list")
}

// PurgeExpired removes expired tokens.
func (r *TokenRepository) PurgeExpired(ctx context.Context, now time.Time) (int64, error) {
	return db.Affected(r.db.Conn(ctx).Where("expires_at <= ?", now.UTC()).Delete(&tokenRow{}), "account tokens: purge")
}
