package app

import (
	"context"

	"github.com/gocommerce/commerce/modules/identity/domain"
	"github.com/gocommerce/commerce/modules/identity/ports"
)

// RegisterCommand registers a customer.
type RegisterCommand struct {
	Email     string
	Password  string
	FirstName string
	LastName  string
}

// CustomerLogin is the answer of register and login: tokens and the customer.
type CustomerLogin struct {
	Tokens   TokenPair
	Customer ports.Customer
}

// Register validates email and password, then creates the customer (through the
// customers module, state enabled) and the credential in one transaction, and issues a
// token pair. customer.created is written to the outbox in that transaction, so a
// failed registration leaves neither the customer nor the event.
func (s *Service) Register(ctx context.Context, cmd RegisterCommand) (CustomerLogin, error) {
	email, err := domain.NormalizeEmail(cmd.Email)
	if err != nil {
		return CustomerLogin{}, err
	}
	if err := domain.ValidatePassword(cmd.Password); err != nil {
		return CustomerLogin{}, err
	}
	// bcrypt is slow by design: hash before opening the transaction.
	hash, err := hashPassword(cmd.Password, s.settings.BcryptCost)
	if err != nil {
		return CustomerLogin{}, err
	}
	var out CustomerLogin
	err = s.tx.InTx(ctx, func(ctx context.Context) error {
		cust, err := s.customers.Create(ctx, ports.NewCustomer{Email: email, FirstName: cmd.FirstName, LastName: cmd.LastName})
		if err != nil {
			return err
		}
		now := s.clock.Now()
		if err := s.creds.Create(ctx, domain.Credential{CustomerID: cust.ID, Email: cust.Email, PasswordHash: hash, CreatedAt: now, UpdatedAt: now}); err != nil {
			return err
		}
		// A new customer was never revoked: generation 0.
		tokens, err := s.issuePair(domain.SubjectCustomer, cust.ID, cust.Email, s.customerScopes(), 0)
		if err != nil {
			return err
		}
		out = CustomerLogin{Tokens: tokens, Customer: cust}
		return nil
	})
	if err != nil {
		return CustomerLogin{}, err
	}
	return out, nil
}
