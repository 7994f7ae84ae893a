package postgres

import (
	"context"
	"fmt"

	"gorm.io/gorm"

	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/platform/db"
)

// Create inserts an address.
func (r *AddressRepository) Create(ctx context.Context, a *domain.Address) error {
	row := fromAddress(a)
	return db.Insert(r.db.Conn(ctx), &row, nil, "customer addresses: insert")
}

// Get loads one address of a customer.
func (r *AddressRepository) Get(ctx context.Context, customer domain.CustomerID, id domain.AddressID) (*domain.Address, error) {
	return db.FirstAs(r.db.Conn(ctx).Where("id = ? AND customer_id = ?", string(id), string(customer)), addressRow.toDomain, domain.ErrAddressNotFound, "customer addresses: select")
}

// List returns a page of a customer's addresses, oldest first.
func (r *AddressRepository) List(ctx context.Context, customer domain.CustomerID, offset, limit int) ([]*domain.Address, int64, error) {
	q := r.db.Conn(ctx).Model(&addressRow{}).Where("customer_id = ?", string(customer)).Session(&gorm.Session{})
	rows, total, err := db.Page[addressRow](q, "created_at, id", offset, limit, "customer addresses: count", "customer addresses: list")
	return db.Map(rows, addressRow.toDomain), total, err
}

// All returns every address of a customer, oldest first.
func (r *AddressRepository) All(ctx context.Context, customer domain.CustomerID) ([]*domain.Address, error) {
	return db.FindAs(r.db.Conn(ctx).Where("customer_id = ?", string(customer)).Order("created_at, id"), addressRow.toDomain, "customer addresses: list")
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
	return db.One(res, domain.ErrAddressNotFound, "customer addresses: delete")
}

// DeleteAll removes every address of a customer.
func (r *AddressRepository) DeleteAll(ctx context.Context, customer domain.CustomerID) error {
	return db.Done(r.db.Conn(ctx).Where("customer_id = ?", string(customer)).Delete(&addressRow{}), "customer addresses: delete all")
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
	rows, err := db.Find[addressRow](r.db.Conn(ctx).Where("customer_id IN ? AND is_default_shipping = ?", keys, true), "customer addresses: defaults")
	if err != nil {
		return nil, err
	}
	for _, row := range rows {
		out[domain.CustomerID(row.CustomerID)] = row.toDomain()
	}
	return out, nil
}
