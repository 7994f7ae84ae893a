// Package app holds the customers use cases: one method per operation, one transaction
// per use case, events written to the outbox in that transaction.
package app

import (
	"github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/modules/customers/ports"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/tx"
)

// Service implements api.Customers.
type Service struct {
	tx     tx.Manager
	repo   ports.CustomerRepository
	events events.Publisher
	clock  clock.Clock
	newID  func() string
}

var _ api.Customers = (*Service)(nil)

// NewService builds the customers service.
func NewService(tm tx.Manager, repo ports.CustomerRepository, pub events.Publisher, clk clock.Clock) *Service {
	return &Service{tx: tm, repo: repo, events: pub, clock: clk, newID: newID}
}

// toAPI maps a domain customer to the api DTO.
func toAPI(c *domain.Customer) api.Customer {
	return api.Customer{
		ID:        string(c.ID),
		Email:     c.Email,
		FirstName: c.FirstName,
		LastName:  c.LastName,
		State:     string(c.State),
		CreatedAt: c.CreatedAt.UTC(),
		UpdatedAt: c.UpdatedAt.UTC(),
	}
}
