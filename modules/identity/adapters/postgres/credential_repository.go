package postgres

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm/clause"

	"github.com/gocommerce/commerce/modules/identity/domain"
	"github.com/gocommerce/commerce/platform/db"
)

// Create inserts a credential; a duplicate email (or customer) is domain.ErrEmailTaken.
func (r *CredentialRepository) Create(ctx context.Context, c domain.Credential) error {
	row := fromCredential(c)
	return db.Insert(r.db.Conn(ctx), &row, domain.ErrEmailTaken, "identity credentials: insert")
}

// FindByEmail loads a credential by lower-case email.
func (r *CredentialRepository) FindByEmail(ctx context.Context, email string) (domain.Credential, error) {
	row, err := db.First[credentialRow](r.db.Conn(ctx).Where("email = ?", email), domain.ErrCredentialNotFound, "identity credentials: select")
	return row.toDomain(), err
}

// Upsert inserts the credential or, when the customer has one, replaces its email and
// hash (INSERT ... ON CONFLICT (customer_id) DO UPDATE on both engines).
func (r *CredentialRepository) Upsert(ctx context.Context, c domain.Credential) error {
	row := fromCredential(c)
	err := r.db.Conn(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "customer_id"}},
		DoUpdates: clause.AssignmentColumns([]string{"email", "password_hash", "updated_at"}),
	}).Create(&row).Error
	if err != nil {
		if db.IsDuplicate(err) {
			return domain.ErrEmailTaken
		}
		return fmt.Errorf("identity credentials: upsert: %w", err)
	}
	return nil
}

// DeleteByCustomer removes the customer's credential.
func (r *CredentialRepository) DeleteByCustomer(ctx context.Context, customerID string) error {
	return db.Done(r.db.Conn(ctx).Where("customer_id = ?", customerID).Delete(&credentialRow{}), "identity credentials: delete")
}

// UpdateEmail changes the email of the customer's credential.
func (r *CredentialRepository) UpdateEmail(ctx context.Context, customerID, email string, at time.Time) error {
	err := r.db.Conn(ctx).Model(&credentialRow{}).Where("customer_id = ?", customerID).
		Updates(map[string]any{"email": email, "updated_at": at.UTC()}).Error
	if err != nil {
		if db.IsDuplicate(err) {
			return domain.ErrEmailTaken
		}
		return fmt.Errorf("identity credentials: update email: %w", err)
	}
	return nil
}
