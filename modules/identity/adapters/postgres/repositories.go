package postgres

import (
	"github.com/gocommerce/commerce/modules/identity/ports"
	"github.com/gocommerce/commerce/platform/db"
)

// The repositories, each holding the database handle it takes connections from
// (db.Conn); each one's methods are in its own file.
type (
	// APIKeyRepository implements ports.APIKeyRepository on api_keys.
	APIKeyRepository struct{ db *db.DB }
	// CredentialRepository implements ports.CredentialRepository on identity_credentials.
	CredentialRepository struct{ db *db.DB }
	// StaffRepository implements ports.StaffRepository on staff_users.
	StaffRepository struct{ db *db.DB }
	// TokenRevocationRepository implements ports.TokenRevocationRepository on
	// identity_token_revocations.
	TokenRevocationRepository struct{ db *db.DB }
)

var (
	_ ports.APIKeyRepository          = (*APIKeyRepository)(nil)
	_ ports.CredentialRepository      = (*CredentialRepository)(nil)
	_ ports.StaffRepository           = (*StaffRepository)(nil)
	_ ports.TokenRevocationRepository = (*TokenRevocationRepository)(nil)
)

// NewAPIKeyRepository builds the repository.
func NewAPIKeyRepository(d *db.DB) *APIKeyRepository { return &APIKeyRepository{db: d} }

// NewCredentialRepository builds the repository.
func NewCredentialRepository(d *db.DB) *CredentialRepository { return &CredentialRepository{db: d} }

// NewStaffRepository builds the repository.
func NewStaffRepository(d *db.DB) *StaffRepository { return &StaffRepository{db: d} }

// NewTokenRevocationRepository builds the repository.
func NewTokenRevocationRepository(d *db.DB) *TokenRevocationRepository {
	return &TokenRevocationRepository{db: d}
}
