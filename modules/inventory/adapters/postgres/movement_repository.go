package postgres

import (
	"context"
	"fmt"

	"gorm.io/gorm"

	"github.com/gocommerce/commerce/modules/inventory/domain"
	"github.com/gocommerce/commerce/modules/inventory/ports"
	"github.com/gocommerce/commerce/platform/db"
)

// Add inserts movements in one statement.
func (r *MovementRepository) Add(ctx context.Context, ms ...*domain.Movement) error {
	if len(ms) == 0 {
		return nil
	}
	// Queued in a transaction: it goes out with the next statement (decision 0240).
	if err := r.movements.Insert(db.Later(ctx), db.Map(ms, fromMovement)); err != nil {
		return fmt.Errorf("inventory: %w", err)
	}
	return nil
}

func filterMovements(q *gorm.DB, f ports.MovementFilter) *gorm.DB {
	if f.ProductID != "" {
		q = q.Where("m.product_id = ?", f.ProductID)
	}
	if f.VariantID != "" {
		q = q.Where("m.variant_id = ?", f.VariantID)
	}
	if f.LocationID != "" {
		q = q.Where("m.location_id = ?", f.LocationID)
	}
	if f.Type != "" {
		q = q.Where("m.movement_type = ?", string(f.Type))
	}
	if f.Reference != "" {
		q = q.Where("m.reference = ?", f.Reference)
	}
	return db.Between(q, "m.created_at", f.From, f.Until)
}

// List returns a page of movements, newest first unless asked otherwise, with the
// product's current name (the recorded one once the product is gone) and the
// location's name.
func (r *MovementRepository) List(ctx context.Context, f ports.MovementFilter, p ports.Page) ([]*domain.Movement, int64, error) {
	var total int64
	if err := filterMovements(r.db.Conn(ctx).Table("inventory_movements AS m"), f).Count(&total).Error; err != nil {
		return nil, 0, fmt.Errorf("inventory: count movements: %w", err)
	}
	dir := "ASC"
	if f.Desc {
		dir = "DESC"
	}
	var rows []movementView
	err := filterMovements(r.db.Conn(ctx).Table("inventory_movements AS m"), f).
		Select("m.*, p.product_name AS current_name, loc.name AS location_name").
		Joins("LEFT JOIN inventory_products p ON p.product_id = m.product_id").
		Joins("LEFT JOIN inventory_locations loc ON loc.id = m.location_id").
		Order("m.created_at " + dir + ", m.id " + dir).Offset(p.Offset).Limit(p.Limit).Scan(&rows).Error
	if err != nil {
		return nil, 0, fmt.Errorf("inventory: list movements: %w", err)
	}
	return db.Map(rows, movementView.toDomain), total, nil
}
