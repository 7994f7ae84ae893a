package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"gorm.io/gorm"

	"github.com/gocommerce/commerce/modules/checkout/ports"
	"github.com/gocommerce/commerce/platform/db"
)

type idempotencyRow struct {
	Key       string    `gorm:"column:idempotency_key;primaryKey"`
	CartID    string    `gorm:"column:cart_id"`
	Failure   *string   `gorm:"column:failure"`
	CreatedAt time.Time `gorm:"column:created_at"`
}

func (idempotencyRow) TableName() string { return "checkout_idempotency" }

// Idempotency implements ports.Idempotency on checkout_idempotency.
type Idempotency struct{ db *db.DB }

var _ ports.Idempotency = (*Idempotency)(nil)

// NewIdempotency builds the repository.
func NewIdempotency(d *db.DB) *Idempotency { return &Idempotency{db: d} }

// Claim records the key for the cart unless it exists and returns the stored record.
func (r *Idempotency) Claim(ctx context.Context, key, cartID string, now time.Time) (string, *ports.Failure, error) {
	row := idempotencyRow{Key: key, CartID: cartID, CreatedAt: now.UTC()}
	if _, err := db.InsertNew(r.db.Conn(ctx), &row, "checkout: idempotency"); err != nil {
		return "", nil, err
	}
	got, err := db.First[idempotencyRow](r.db.Conn(ctx).Where("idempotency_key = ?", key), gorm.ErrRecordNotFound, "checkout: idempotency")
	if err != nil {
		return "", nil, err
	}
	if got.Failure == nil {
		return got.CartID, nil, nil
	}
	var f ports.Failure
	if err := json.Unmarshal([]byte(*got.Failure), &f); err != nil {
		return "", nil, fmt.Errorf("checkout: idempotency failure: %w", err)
	}
	return got.CartID, &f, nil
}

// Fail stores the key's failure.
func (r *Idempotency) Fail(ctx context.Context, key string, f ports.Failure) error {
	raw, err := json.Marshal(f)
	if err != nil {
		return fmt.Errorf("checkout: idempotency failure: %w", err)
	}
	return db.Done(r.db.Conn(ctx).Model(&idempotencyRow{}).Where("idempotency_key = ?", key).Update("failure", string(raw)), "checkout: idempotency failure")
}
