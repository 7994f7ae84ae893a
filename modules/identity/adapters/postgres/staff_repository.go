package postgres

import (
	"context"
	"fmt"

	"github.com/gocommerce/commerce/modules/identity/domain"
	"github.com/gocommerce/commerce/modules/identity/ports"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/ids"
)

// StaffRepository implements ports.StaffRepository on staff_users.
type StaffRepository struct{ db *db.DB }

var _ ports.StaffRepository = (*StaffRepository)(nil)

// NewStaffRepository builds the repository.
func NewStaffRepository(d *db.DB) *StaffRepository { return &StaffRepository{db: d} }

// Create inserts a staff user; a duplicate email is domain.ErrEmailTaken.
func (r *StaffRepository) Create(ctx context.Context, u domain.StaffUser) error {
	row := fromStaffUser(u)
	if err := r.db.Conn(ctx).Create(&row).Error; err != nil {
		if db.IsDuplicate(err) {
			return domain.ErrEmailTaken
		}
		return fmt.Errorf("staff users: insert: %w", err)
	}
	return nil
}

// FindByEmail loads a staff user by lower-case email.
func (r *StaffRepository) FindByEmail(ctx context.Context, email string) (domain.StaffUser, error) {
	return r.first(ctx, "email = ?", email)
}

// Get loads a staff user by id; a malformed id is not found.
func (r *StaffRepository) Get(ctx context.Context, id string) (domain.StaffUser, error) {
	if !ids.Valid(id) {
		return domain.StaffUser{}, domain.ErrStaffUserNotFound
	}
	return r.first(ctx, "id = ?", id)
}

func (r *StaffRepository) first(ctx context.Context, where string, arg any) (domain.StaffUser, error) {
	var rows []staffUserRow
	if err := r.db.Conn(ctx).Where(where, arg).Limit(1).Find(&rows).Error; err != nil {
		return domain.StaffUser{}, fmt.Errorf("staff users: select: %w", err)
	}
	if len(rows) == 0 {
		return domain.StaffUser{}, domain.ErrStaffUserNotFound
	}
	return rows[0].toDomain(), nil
}
