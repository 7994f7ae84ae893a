package postgres

import (
	"context"
	"fmt"

	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/modules/customers/ports"
	"github.com/gocommerce/commerce/platform/db"
)

// AddressRepository implements ports.AddressRepository on customer_addresses.
type AddressRepository struct{ db *db.DB }

var _ ports.AddressRepository = (*AddressRepository)(nil)

// NewAddressRepository builds the repository.
func NewAddressRepository(d *db.DB) *AddressRepository { return &AddressRepository{db: d} }

// Create inserts an address.
func (r *AddressRepository) Create(ctx context.Context, a *domain.Address) error {
	row := fromAddress(a)
	if err := r.db.Conn(ctx).Create(&row).Error; err != nil {
		return fmt.Errorf("customer addresses: insert: %w", err)
	}
	return nil
}

// Get loads one address of a customer.
func (r *AddressRepository) Get(ctx context.Context, customer domain.CustomerID, id domain.AddressID) (*domain.Address, error) {
	var rows []addressRow
	if err := r.db.Conn(ctx).Where("id = ? AND customer_id = ?", string(id), string(customer)).Limit(1).Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("customer addresses: select: %w", err)
	}
	if len(rows) == 0 {
		return nil, domain.ErrAddressNotFound
	}
	return rows[0].toDomain(), nil
}

// List returns a page of a customer's addresses, oldest first.
func (r *AddressRepository) List(ctx context.Context, customer domain.CustomerID, offset, limit int) ([]*domain.Address, int64, error) {
	q := r.db.Conn(ctx).Model(&addressRow{}).Where("customer_id = ?", string(customer))
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, fmt.Errorf("customer addresses: count: %w", err)
	}
	var rows []addressRow
	if err := r.db.Conn(ctx).Where("customer_id = ?", string(customer)).Order("created_at, id").Offset(offset).Limit(limit).Find(&rows).Error; err != nil {
		return nil, 0, fmt.Errorf("customer addresses: list: %w", err)
	}
	return toAddresses(rows), total, nil
}

// All returns every address of a customer, oldest first.
func (r *AddressRepository) All(ctx context.Context, customer domain.CustomerID) ([]*domain.Address, error) {
	var rows []addressRow
	if err := r.db.Conn(ctx).Where("customer_id = ?", string(customer)).Order("created_at, id").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("customer addresses: list: %w", err)
	}
	return toAddresses(rows), nil
}

func toAddresses(rows []addressRow) []*domain.Address {
	out := make([]*domain.Address, len(rows))
	for i, row := range rows {
		out[i] = row.toDomain()
	}
	return out
}

// Save writes every column of an address. A second default of a kind violates the
// unique partial index; callers clear the other default first.
func (r *AddressRepository) Save(ctx context.Context, a *domain.Address) error {
	row := fromAddress(a)
	err := r.db.Conn(ctx).Model(&addressRow{}).Where("id = ? AND customer_id = ?", row.ID, row.CustomerID).
		Select("*").Omit("id", "customer_id", "created_at").Updates(&row).Error
	if err != nil {
		return fmt.Errorf("customer addresses: update: %w", err)
	}
	return nil
}

// Delete removes one address.
func (r *AddressRepository) Delete(ctx context.Context, customer domain.CustomerID, id domain.AddressID) error {
	res := r.db.Conn(ctx).Where("id = ? AND customer_id = ?", string(id), string(customer)).Delete(&addressRow{})
	if res.Error != nil {
		return fmt.Errorf("customer addresses: delete: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return domain.ErrAddressNotFound
	}
	return nil
}

// DeleteAll removes every address of a customer.
func (r *AddressRepository) DeleteAll(ctx context.Context, customer domain.CustomerID) error {
	if err := r.db.Conn(ctx).Where("customer_id = ?", string(customer)).Delete(&addressRow{}).Error; err != nil {
		return fmt.Errorf("customer addresses: delete all: %w", err)
	}
	return nil
}

// ClearDefault removes the default flag of the kind from the other addresses.
func (r *AddressRepository) ClearDefault(ctx context.Context, customer domain.CustomerID, kind domain.AddressKind, except domain.AddressID) ([]domain.AddressID, error) {
	col := "is_default_shipping"
	if kind == domain.DefaultBilling {
		col = "is_default_billing"
	}
	conn := r.db.Conn(ctx)
	var ids []string
	if err := conn.Model(&addressRow{}).Where("customer_id = ? AND id <> ? AND "+col+" = ?", string(customer), string(except), true).Pluck("id", &ids).Error; err != nil {
		return nil, fmt.Errorf("customer addresses: defaults: %w", err)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	if err := conn.Model(&addressRow{}).Where("id IN ?", ids).UpdateColumn(col, false).Error; err != nil {
		return nil, fmt.Errorf("customer addresses: clear default: %w", err)
	}
	out := make([]domain.AddressID, len(ids))
	for i, id := range ids {
		out[i] = domain.AddressID(id)
	}
	return out, nil
}

// DefaultShipping returns the default shipping address of each customer that has one.
func (r *AddressRepository) DefaultShipping(ctx context.Context, customers []domain.CustomerID) (map[domain.CustomerID]*domain.Address, error) {
	out := map[domain.CustomerID]*domain.Address{}
	if len(customers) == 0 {
		return out, nil
	}
	keys := make([]string, len(customers))
	for i, c := range customers {
		keys[i] = string(c)
	}
	var rows []addressRow
	if err := r.db.Conn(ctx).Where("customer_id IN ? AND is_default_shipping = ?", keys, true).Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("customer addresses: defaults: %w", err)
	}
	for _, row := range rows {
		out[domain.CustomerID(row.CustomerID)] = row.toDomain()
	}
	return out, nil
}
