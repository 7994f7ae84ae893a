package postgres

import (
	"context"
	"fmt"

	"github.com/gocommerce/commerce/modules/identity/domain"
	"github.com/gocommerce/commerce/modules/identity/ports"
	"github.com/gocommerce/commerce/platform/db"
)

// CredentialRepository implements ports.CredentialRepository on identity_credentials.
type CredentialRepository struct{ db *db.DB }

var _ ports.CredentialRepository = (*CredentialRepository)(nil)

// NewCredentialRepository builds the repository.
func NewCredentialRepository(d *db.DB) *CredentialRepository { return &CredentialRepository{db: d} }

// Create inserts a credential; a duplicate email (or customer) is domain.ErrEmailTaken.
func (r *CredentialRepository) Create(ctx context.Context, c domain.Credential) error {
	row := fromCredential(c)
	if err := r.db.Conn(ctx).Create(&row).Error; err != nil {
		if db.IsDuplicate(err) {
			return domain.ErrEmailTaken
		}
		return fmt.Errorf("identity credentials: insert: %w", err)
	}
	return nil
}

// FindByEmail loads a credential by lower-case email.
func (r *CredentialRepository) FindByEmail(ctx context.Context, email string) (domain.Credential, error) {
	var rows []credentialRow
	if err := r.db.Conn(ctx).Where("email = ?", email).Limit(1).Find(&rows).Error; err != nil {
		return domain.Credential{}, fmt.Errorf("identity credentials: select: %w", err)
	}
	if len(rows) == 0 {
		return domain.Credential{}, domain.ErrCredentialNotFound
	}
	return rows[0].toDomain(), nil
}
