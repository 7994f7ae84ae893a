package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/gocommerce/commerce/modules/identity/domain"
	"github.com/gocommerce/commerce/platform/db"
)

type tokenRevocationRow struct {
	CustomerID string `gorm:"primaryKey"`
	Generation int64
	RevokedAt  time.Time
}

func (tokenRevocationRow) TableName() string { return "identity_token_revocations" }

// Revoke raises the customer's generation by one (the first revocation makes it 1) in
// one statement, an upsert that holds under concurrency on both engines, and returns it.
func (r *TokenRevocationRepository) Revoke(ctx context.Context, customerID string, at time.Time) (domain.TokenRevocation, error) {
	var gen int64
	err := r.db.Conn(ctx).Raw(`INSERT INTO identity_token_revocations (customer_id, generation, revoked_at) VALUES (?, 1, ?)
ON CONFLICT (customer_id) DO UPDATE SET generation = identity_token_revocations.generation + 1, revoked_at = excluded.revoked_at
RETURNING generation`, customerID, at.UTC()).Scan(&gen).Error
	if err != nil {
		return domain.TokenRevocation{}, fmt.Errorf("identity token revocations: upsert: %w", err)
	}
	return domain.TokenRevocation{CustomerID: customerID, Generation: gen, RevokedAt: at.UTC()}, nil
}

// Generation returns the customer's current generation (0 when never revoked).
func (r *TokenRevocationRepository) Generation(ctx context.Context, customerID string) (int64, error) {
	row, err := db.First[tokenRevocationRow](r.db.Conn(ctx).Where("customer_id = ?", customerID), nil, "identity token revocations: select")
	return row.Generation, err
}

// Since returns the revocations made at or after t.
func (r *TokenRevocationRepository) Since(ctx context.Context, t time.Time) ([]domain.TokenRevocation, error) {
	rows, err := db.Find[tokenRevocationRow](r.db.Conn(ctx).Where("revoked_at >= ?", t.UTC()), "identity token revocations: poll")
	return db.Map(rows, func(row tokenRevocationRow) domain.TokenRevocation {
		return domain.TokenRevocation{CustomerID: row.CustomerID, Generation: row.Generation, RevokedAt: row.RevokedAt.UTC()}
	}), err
}
