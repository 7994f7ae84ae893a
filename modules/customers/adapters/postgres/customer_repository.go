package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/modules/customers/ports"
	"github.com/gocommerce/commerce/platform/db"
)

// Create inserts a customer and its tags; a unique violation on email is domain.ErrEmailTaken.
func (r *CustomerRepository) Create(ctx context.Context, c *domain.Customer) error {
	row, err := fromDomain(c)
	if err != nil {
		return err
	}
	if err := db.Insert(r.db.Conn(ctx), &row, domain.ErrEmailTaken, "customers: insert"); err != nil {
		return err
	}
	return r.writeTags(ctx, c.ID, c.Tags, false)
}

// writeTags stores the customer's tag keys (replacing the old ones when replace).
func (r *CustomerRepository) writeTags(ctx context.Context, id domain.CustomerID, tags []string, replace bool) error {
	conn := r.db.Conn(ctx)
	if replace {
		if err := conn.Where("customer_id = ?", string(id)).Delete(&tagRow{}).Error; err != nil {
			return fmt.Errorf("customers: tags: %w", err)
		}
	}
	if len(tags) == 0 {
		return nil
	}
	rows := make([]tagRow, 0, len(tags))
	seen := map[string]bool{}
	for _, t := range tags {
		k := domain.TagKey(t)
		if !seen[k] {
			seen[k] = true
			rows = append(rows, tagRow{CustomerID: string(id), Tag: k})
		}
	}
	if err := conn.Create(&rows).Error; err != nil {
		return fmt.Errorf("customers: tags: %w", err)
	}
	return nil
}

// Get loads a customer by id.
func (r *CustomerRepository) Get(ctx context.Context, id domain.CustomerID) (*domain.Customer, error) {
	return r.first(r.db.Conn(ctx), "id = ?", string(id))
}

// FindByEmail loads a customer by its lower-case email.
func (r *CustomerRepository) FindByEmail(ctx context.Context, email string) (*domain.Customer, error) {
	return r.first(r.db.Conn(ctx), "email = ?", email)
}

// Contact reads the columns of api.Contact, by id or else by email (plain SQL: the
// customer an order attaches, once per checkout).
func (r *CustomerRepository) Contact(ctx context.Context, id domain.CustomerID, email string) (api.Contact, error) {
	query, arg := r.contactByEmail, any(email)
	if id != "" {
		query, arg = r.contactByID, string(id)
	}
	var c api.Contact
	err := r.db.QueryRow(ctx, query, []any{arg}, &c.ID, &c.Email, &c.Phone, &c.FirstName, &c.LastName)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return api.Contact{}, domain.ErrCustomerNotFound
	case err != nil:
		return api.Contact{}, fmt.Errorf("customers: select contact: %w", err)
	}
	return c, nil
}

func (r *CustomerRepository) first(q *gorm.DB, where string, arg any) (*domain.Customer, error) {
	row, err := db.First[customerRow](q.Where(where, arg), domain.ErrCustomerNotFound, "customers: select")
	if err != nil {
		return nil, err
	}
	return row.toDomain()
}

// Lock takes the customer's row lock (SELECT ... FOR UPDATE on PostgreSQL; SQLite's
// immediate transactions already serialize writers).
func (r *CustomerRepository) Lock(ctx context.Context, id domain.CustomerID) error {
	var ids []string
	err := r.db.Conn(ctx).Model(&customerRow{}).Clauses(clause.Locking{Strength: "UPDATE"}).
		Where("id = ?", string(id)).Limit(1).Pluck("id", &ids).Error
	if err != nil {
		return fmt.Errorf("customers: lock: %w", err)
	}
	if len(ids) == 0 {
		return domain.ErrCustomerNotFound
	}
	return nil
}

// Update loads the customer row-locked, applies change and saves every column and the tags.
func (r *CustomerRepository) Update(ctx context.Context, id domain.CustomerID, change func(*domain.Customer) error) (*domain.Customer, error) {
	conn := r.db.Conn(ctx)
	c, err := r.first(conn.Clauses(clause.Locking{Strength: "UPDATE"}), "id = ?", string(id))
	if err != nil {
		return nil, err
	}
	before := append([]string(nil), c.Tags...)
	if err := change(c); err != nil {
		return nil, err
	}
	row, err := fromDomain(c)
	if err != nil {
		return nil, err
	}
	err = conn.Model(&customerRow{}).Where("id = ?", string(id)).Select("*").Omit("id", "created_at").Updates(&row).Error
	if err != nil {
		if db.IsDuplicate(err) {
			return nil, domain.ErrEmailTaken
		}
		return nil, fmt.Errorf("customers: update: %w", err)
	}
	if !sameStrings(before, c.Tags) {
		if err := r.writeTags(ctx, id, c.Tags, true); err != nil {
			return nil, err
		}
	}
	return c, nil
}

func sameStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Delete removes the customer (tags, addresses and tokens cascade).
func (r *CustomerRepository) Delete(ctx context.Context, id domain.CustomerID) error {
	conn := r.db.Conn(ctx)
	if err := conn.Where("customer_id = ?", string(id)).Delete(&tagRow{}).Error; err != nil {
		return fmt.Errorf("customers: delete tags: %w", err)
	}
	return db.One(conn.Where("id = ?", string(id)).Delete(&customerRow{}), domain.ErrCustomerNotFound, "customers: delete")
}

// sortColumns maps sort keys to indexed columns.
var sortColumns = map[ports.SortField]string{
	ports.SortCreatedAt:   "created_at",
	ports.SortUpdatedAt:   "updated_at",
	ports.SortTotalSpent:  "total_spent_units",
	ports.SortOrdersCount: "orders_count",
}

// List returns a filtered, sorted page and the total.
func (r *CustomerRepository) List(ctx context.Context, q ports.CustomerQuery) ([]*domain.Customer, int64, error) {
	base, err := applyFilter(r.db.Conn(ctx).Model(&customerRow{}), q.Filter)
	if err != nil {
		return nil, 0, err
	}
	col, ok := sortColumns[q.Sort]
	if !ok {
		return nil, 0, fmt.Errorf("customers: unknown sort %q", q.Sort)
	}
	rows, total, err := db.Page[customerRow](base.Session(&gorm.Session{}), db.Order(col, "id", q.Desc), q.Offset, q.Limit, "customers: count", "customers: list")
	if err != nil {
		return nil, 0, err
	}
	out, err := db.MapErr(rows, customerRow.toDomain)
	return out, total, err
}

// Matches reports whether the customer passes the filter.
func (r *CustomerRepository) Matches(ctx context.Context, id domain.CustomerID, f ports.CustomerFilter) (bool, error) {
	q, err := applyFilter(r.db.Conn(ctx).Model(&customerRow{}).Where("id = ?", string(id)), f)
	if err != nil {
		return false, err
	}
	var n int64
	if err := q.Count(&n).Error; err != nil {
		return false, fmt.Errorf("customers: match: %w", err)
	}
	return n > 0, nil
}

// SetStats stores the statistics columns.
func (r *CustomerRepository) SetStats(ctx context.Context, id domain.CustomerID, s domain.OrderStats) error {
	var row customerRow
	setStats(&row, s)
	err := r.db.Conn(ctx).Model(&customerRow{}).Where("id = ?", string(id)).
		Select("orders_count", "paid_orders_count", "total_spent", "total_spent_units", "stats_currency", "last_order_id", "last_order_name", "last_order_at").
		Updates(&row).Error
	if err != nil && !errors.Is(err, gorm.ErrRecordNotFound) {
		return fmt.Errorf("customers: stats: %w", err)
	}
	return nil
}
