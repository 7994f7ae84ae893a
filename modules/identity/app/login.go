package app

import (
	"context"
	"errors"

	"github.com/gocommerce/commerce/modules/identity/api"
	"github.com/gocommerce/commerce/modules/identity/domain"
	"github.com/gocommerce/commerce/modules/identity/ports"
)

// LoginCommand is an email and password login.
type LoginCommand struct {
	Email    string
	Password string
}

// Login authenticates a customer. Unknown email, wrong password and a customer who may
// not sign in (disabled) all answer the same 401; bcrypt runs in every case.
func (s *Service) Login(ctx context.Context, cmd LoginCommand) (CustomerLogin, error) {
	cred, found, err := s.findCredential(ctx, cmd.Email)
	if err != nil {
		return CustomerLogin{}, err
	}
	if err := s.verifyPassword(found, cred.PasswordHash, cmd.Password); err != nil {
		return CustomerLogin{}, err
	}
	// The token generation is read before the customer's state (see Refresh).
	gen, err := s.revocations.Generation(ctx, cred.CustomerID)
	if err != nil {
		return CustomerLogin{}, err
	}
	cust, err := s.signingIn(ctx, cred.CustomerID, domain.ErrInvalidCredentials)
	if err != nil {
		return CustomerLogin{}, err
	}
	tokens, err := s.issuePair(domain.SubjectCustomer, cust.ID, cust.Email, s.customerScopes(), gen)
	if err != nil {
		return CustomerLogin{}, err
	}
	return CustomerLogin{Tokens: tokens, Customer: cust}, nil
}

func (s *Service) findCredential(ctx context.Context, email string) (domain.Credential, bool, error) {
	e, err := domain.NormalizeEmail(email)
	if err != nil {
		return domain.Credential{}, false, nil
	}
	cred, err := s.creds.FindByEmail(ctx, e)
	if errors.Is(err, domain.ErrCredentialNotFound) {
		return domain.Credential{}, false, nil
	}
	if err != nil {
		return domain.Credential{}, false, err
	}
	return cred, true, nil
}

// StaffLogin is the answer of the admin login: tokens and the staff user.
type StaffLogin struct {
	Tokens TokenPair
	User   api.StaffUser
}

// AdminLogin authenticates a staff user; the access token carries the role's scopes
// (admin). Failures answer the same 401 as customer logins.
func (s *Service) AdminLogin(ctx context.Context, cmd LoginCommand) (StaffLogin, error) {
	var (
		u     domain.StaffUser
		found bool
	)
	if e, err := domain.NormalizeEmail(cmd.Email); err == nil {
		u, err = s.staff.FindByEmail(ctx, e)
		switch {
		case err == nil:
			found = true
		case !errors.Is(err, domain.ErrStaffUserNotFound):
			return StaffLogin{}, err
		}
	}
	if err := s.verifyPassword(found, u.PasswordHash, cmd.Password); err != nil {
		return StaffLogin{}, err
	}
	tokens, err := s.issuePair(domain.SubjectStaff, u.ID, u.Email, domain.StaffScopes(u.Role), 0)
	if err != nil {
		return StaffLogin{}, err
	}
	return StaffLogin{Tokens: tokens, User: toStaffUser(u)}, nil
}

func toStaffUser(u domain.StaffUser) api.StaffUser {
	return api.StaffUser{ID: u.ID, Email: u.Email, Role: u.Role, CreatedAt: u.CreatedAt.UTC()}
}

// verifyPassword checks password against hash, the found account's; bcrypt runs on a
// dummy hash when no account was found, so every failure takes as long and answers the
// same INVALID_CREDENTIALS.
func (s *Service) verifyPassword(found bool, hash, password string) error {
	dummy := s.dummyHash()
	if !found {
		hash = dummy
	}
	if !passwordMatches(hash, password) || !found {
		return domain.ErrInvalidCredentials
	}
	return nil
}

// signingIn reads a customer who may sign in; refused answers an unknown or disabled
// one.
func (s *Service) signingIn(ctx context.Context, id string, refused error) (ports.Customer, error) {
	cust, err := s.customers.Get(ctx, id)
	if err != nil {
		if errors.Is(err, domain.ErrCustomerNotFound) {
			return ports.Customer{}, refused
		}
		return ports.Customer{}, err
	}
	if !cust.CanSignIn {
		return ports.Customer{}, refused
	}
	return cust, nil
}
