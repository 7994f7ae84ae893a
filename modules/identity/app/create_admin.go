package app

import (
	"context"

	"github.com/gocommerce/commerce/modules/identity/api"
	"github.com/gocommerce/commerce/modules/identity/domain"
	"github.com/gocommerce/commerce/platform/ids"
)

// CreateAdmin creates a staff user with the admin role. Email and password follow the
// customer rules; a duplicate email is EMAIL_TAKEN.
func (s *Service) CreateAdmin(ctx context.Context, email, password string) (api.StaffUser, error) {
	e, err := domain.NormalizeEmail(email)
	if err != nil {
		return api.StaffUser{}, err
	}
	if err := domain.ValidatePassword(password); err != nil {
		return api.StaffUser{}, err
	}
	hash, err := hashPassword(password, s.settings.BcryptCost)
	if err != nil {
		return api.StaffUser{}, err
	}
	now := s.clock.Now()
	u := domain.StaffUser{ID: ids.New(), Email: e, PasswordHash: hash, Role: domain.RoleAdmin, CreatedAt: now, UpdatedAt: now}
	if err := s.tx.InTx(ctx, func(ctx context.Context) error { return s.staff.Create(ctx, u) }); err != nil {
		return api.StaffUser{}, err
	}
	return toStaffUser(u), nil
}
