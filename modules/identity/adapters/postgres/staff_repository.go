package postgres

import (
	"context"

	"github.com/gocommerce/commerce/modules/identity/domain"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/ids"
)

// Create inserts a staff user; a duplicate email is domain.ErrEmailTaken.
func (r *StaffRepository) Create(ctx context.Context, u domain.StaffUser) error {
	row := fromStaffUser(u)
	return db.Insert(r.db.Conn(ctx), &row, domain.ErrEmailTaken, "staff users: insert")
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
	return db.FirstAs(r.db.Conn(ctx).Where(where, arg), staffUserRow.toDomain, domain.ErrStaffUserNotFound, "staff users: select")
}
