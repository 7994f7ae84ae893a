package postgres

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm/clause"

	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/platform/db"
)

// Record upserts the order's fact unless a newer version is stored. Concurrent first
// deliveries of one order meet at the primary key: INSERT ... ON CONFLICT DO NOTHING,
// then a conditional UPDATE guarded by order_updated_at (both engines).
func (r *OrderStatsRepository) Record(ctx context.Context, f domain.OrderFact) (bool, domain.CustomerID, error) {
	conn := r.db.Conn(ctx)
	row := orderStatRow{
		OrderID: f.OrderID, CustomerID: string(f.CustomerID), OrderNumber: f.OrderNumber, TotalPrice: f.TotalPrice.String(),
		Currency: f.Currency, Status: f.Status, FinancialStatus: f.FinancialStatus, OrderCreatedAt: f.CreatedAt.UTC(),
		OrderUpdatedAt: f.UpdatedAt.UTC(), RecordedAt: time.Now().UTC().Truncate(time.Microsecond),
	}
	ins := conn.Clauses(clause.OnConflict{DoNothing: true}).Create(&row)
	if ins.Error != nil {
		return false, "", fmt.Errorf("order stats: insert: %w", ins.Error)
	}
	if ins.RowsAffected == 1 {
		return true, "", nil
	}
	var prev []orderStatRow
	if err := conn.Clauses(clause.Locking{Strength: "UPDATE"}).Where("order_id = ?", f.OrderID).Limit(1).Find(&prev).Error; err != nil {
		return false, "", fmt.Errorf("order stats: select: %w", err)
	}
	res := conn.Model(&orderStatRow{}).Where("order_id = ? AND order_updated_at <= ?", f.OrderID, f.UpdatedAt.UTC()).
		Updates(map[string]any{
			"customer_id": row.CustomerID, "order_number": row.OrderNumber, "total_price": row.TotalPrice,
			"currency": row.Currency, "status": row.Status, "financial_status": row.FinancialStatus,
			"order_created_at": row.OrderCreatedAt, "order_updated_at": row.OrderUpdatedAt,
		})
	if res.Error != nil {
		return false, "", fmt.Errorf("order stats: update: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return false, "", nil
	}
	var before domain.CustomerID
	if len(prev) == 1 && prev[0].CustomerID != row.CustomerID {
		before = domain.CustomerID(prev[0].CustomerID)
	}
	return true, before, nil
}

// ForCustomer returns the customer's facts.
func (r *OrderStatsRepository) ForCustomer(ctx context.Context, customer domain.CustomerID) ([]domain.OrderFact, error) {
	rows, err := db.Find[orderStatRow](r.db.Conn(ctx).Where("customer_id = ?", string(customer)).Order("order_created_at, order_id"), "order stats: list")
	if err != nil {
		return nil, err
	}
	return db.MapErr(rows, orderStatRow.toDomain)
}

// DeleteForCustomer removes the customer's facts.
func (r *OrderStatsRepository) DeleteForCustomer(ctx context.Context, customer domain.CustomerID) error {
	return db.Done(r.db.Conn(ctx).Where("customer_id = ?", string(customer)).Delete(&orderStatRow{}), "order stats: delete")
}
