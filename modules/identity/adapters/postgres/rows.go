package postgres

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/identity/domain"
	"github.com/gocommerce/commerce/platform/db"
)

type credentialRow struct {
	CustomerID   string `gorm:"primaryKey"`
	Email        string
	PasswordHash string
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

func (credentialRow) TableName() string { return "identity_credentials" }

func fromCredential(c domain.Credential) credentialRow {
	return credentialRow{CustomerID: c.CustomerID, Email: c.Email, PasswordHash: c.PasswordHash, CreatedAt: c.CreatedAt.UTC(), UpdatedAt: c.UpdatedAt.UTC()}
}

func (r credentialRow) toDomain() domain.Credential {
	return domain.Credential{CustomerID: r.CustomerID, Email: r.Email, PasswordHash: r.PasswordHash, CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC()}
}

type staffUserRow struct {
	ID           string `gorm:"primaryKey"`
	Email        string
	PasswordHash string
	Role         string
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

func (staffUserRow) TableName() string { return "staff_users" }

func fromStaffUser(u domain.StaffUser) staffUserRow {
	return staffUserRow{ID: u.ID, Email: u.Email, PasswordHash: u.PasswordHash, Role: u.Role, CreatedAt: u.CreatedAt.UTC(), UpdatedAt: u.UpdatedAt.UTC()}
}

func (r staffUserRow) toDomain() domain.StaffUser {
	return domain.StaffUser{ID: r.ID, Email: r.Email, PasswordHash: r.PasswordHash, Role: r.Role, CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC()}
}

type apiKeyRow struct {
	ID                  string `gorm:"primaryKey"`
	Name                string
	Prefix              string
	SecretHash          string
	Scopes              string
	RateLimitMultiplier *string
	LastUsedAt          *time.Time
	LastUsedIP          string
	RevokedAt           *time.Time
	RevocationReason    string
	CreatedAt           time.Time
}

func (apiKeyRow) TableName() string { return "api_keys" }

func fromAPIKey(k domain.APIKey) (apiKeyRow, error) {
	scopes := k.Scopes
	if scopes == nil {
		scopes = []string{}
	}
	raw, err := json.Marshal(scopes)
	if err != nil {
		return apiKeyRow{}, fmt.Errorf("api key scopes: %w", err)
	}
	row := apiKeyRow{
		ID:               k.ID,
		Name:             k.Name,
		Prefix:           k.Prefix,
		SecretHash:       k.SecretHash,
		Scopes:           string(raw),
		LastUsedAt:       db.UTCPtr(k.LastUsedAt),
		LastUsedIP:       k.LastUsedIP,
		RevokedAt:        db.UTCPtr(k.RevokedAt),
		RevocationReason: k.RevocationReason,
		CreatedAt:        k.CreatedAt.UTC(),
	}
	if k.RateLimitMultiplier != nil {
		s := k.RateLimitMultiplier.String()
		row.RateLimitMultiplier = &s
	}
	return row, nil
}

func (r apiKeyRow) toDomain() (domain.APIKey, error) {
	k := domain.APIKey{
		ID:               r.ID,
		Name:             r.Name,
		Prefix:           r.Prefix,
		SecretHash:       r.SecretHash,
		LastUsedAt:       db.UTCPtr(r.LastUsedAt),
		LastUsedIP:       r.LastUsedIP,
		RevokedAt:        db.UTCPtr(r.RevokedAt),
		RevocationReason: r.RevocationReason,
		CreatedAt:        r.CreatedAt.UTC(),
	}
	if err := json.Unmarshal([]byte(r.Scopes), &k.Scopes); err != nil {
		return domain.APIKey{}, fmt.Errorf("api key %s: scopes: %w", r.Prefix, err)
	}
	if r.RateLimitMultiplier != nil && *r.RateLimitMultiplier != "" {
		d, err := decimal.NewFromString(*r.RateLimitMultiplier)
		if err != nil {
			return domain.APIKey{}, fmt.Errorf("api key %s: rate_limit_multiplier: %w", r.Prefix, err)
		}
		k.RateLimitMultiplier = &d
	}
	return k, nil
}
