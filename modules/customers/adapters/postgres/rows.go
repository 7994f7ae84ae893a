package postgres

import (
	"time"

	"github.com/gocommerce/commerce/modules/customers/domain"
)

type customerRow struct {
	ID        string `gorm:"primaryKey"`
	Email     string
	FirstName string
	LastName  string
	State     string
	CreatedAt time.Time
	UpdatedAt time.Time
}

func (customerRow) TableName() string { return "customers" }

func fromDomain(c *domain.Customer) customerRow {
	return customerRow{
		ID:        string(c.ID),
		Email:     c.Email,
		FirstName: c.FirstName,
		LastName:  c.LastName,
		State:     string(c.State),
		CreatedAt: c.CreatedAt.UTC(),
		UpdatedAt: c.UpdatedAt.UTC(),
	}
}

func (r customerRow) toDomain() *domain.Customer {
	return &domain.Customer{
		ID:        domain.CustomerID(r.ID),
		Email:     r.Email,
		FirstName: r.FirstName,
		LastName:  r.LastName,
		State:     domain.State(r.State),
		CreatedAt: r.CreatedAt.UTC(),
		UpdatedAt: r.UpdatedAt.UTC(),
	}
}
