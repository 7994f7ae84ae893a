package postgres

import (
	"context"
	"fmt"

	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/modules/customers/ports"
	"github.com/gocommerce/commerce/platform/db"
)

// CustomerRepository implements ports.CustomerRepository on the customers table.
type CustomerRepository struct {
	db *db.DB
}

var _ ports.CustomerRepository = (*CustomerRepository)(nil)

// NewCustomerRepository builds the repository.
func NewCustomerRepository(d *db.DB) *CustomerRepository { return &CustomerRepository{db: d} }

// Create inserts a customer; a unique violation on email is domain.ErrEmailTaken.
func (r *CustomerRepository) Create(ctx context.Context, c *domain.Customer) error {
	row := fromDomain(c)
	if err := r.db.Conn(ctx).Create(&row).Error; err != nil {
		if db.IsDuplicate(err) {
			return domain.ErrEmailTaken
		}
		return fmt.Errorf("customers: insert: %w", err)
	}
	return nil
}

// Get loads a customer by id.
func (r *CustomerRepository) Get(ctx context.Context, id domain.CustomerID) (*domain.Customer, error) {
	return r.first(ctx, "id = ?", string(id))
}

// FindByEmail loads a customer by its lower-case email.
func (r *CustomerRepository) FindByEmail(ctx context.Context, email string) (*domain.Customer, error) {
	return r.first(ctx, "email = ?", email)
}

func (r *CustomerRepository) first(ctx context.Context, where string, arg any) (*domain.Customer, error) {
	var rows []customerRow
	if err := r.db.Conn(ctx).Where(where, arg).Limit(1).Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("customers: select: %w", err)
	}
	if len(rows) == 0 {
		return nil, domain.ErrCustomerNotFound
	}
	return rows[0].toDomain(), nil
}
