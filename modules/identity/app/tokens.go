package app

import (
	"context"
	"errors"

	"github.com/gocommerce/commerce/modules/identity/domain"
	"github.com/gocommerce/commerce/platform/ids"
)

// TokenType is the token_type of every token response.
const TokenType = "Bearer"

// TokenPair is a login's tokens.
type TokenPair struct {
	AccessToken  string
	RefreshToken string
	ExpiresIn    int // access token lifetime in seconds
}

// AccessTokenResult is a refresh's answer: a new access token only.
type AccessTokenResult struct {
	AccessToken string
	ExpiresIn   int
}

func (s *Service) expiresIn() int { return int(s.settings.AccessTTL.Seconds()) }

// issueAccess signs an access token in the subject's token generation gen (always 0
// for staff; a customer's comes from Revocations.Generation).
func (s *Service) issueAccess(kind domain.SubjectKind, subject, email string, scopes []string, gen int64) (string, error) {
	now := s.clock.Now()
	return s.tokens.Issue(domain.Claims{
		ID: ids.New(), Subject: subject, Kind: kind, Type: domain.AccessToken, Scopes: scopes, Email: email,
		IssuedAt: now, ExpiresAt: now.Add(s.settings.AccessTTL), Generation: gen,
	})
}

func (s *Service) issuePair(kind domain.SubjectKind, subject, email string, scopes []string, gen int64) (TokenPair, error) {
	access, err := s.issueAccess(kind, subject, email, scopes, gen)
	if err != nil {
		return TokenPair{}, err
	}
	now := s.clock.Now()
	refresh, err := s.tokens.Issue(domain.Claims{
		ID: ids.New(), Subject: subject, Kind: kind, Type: domain.RefreshToken, Email: email,
		IssuedAt: now, ExpiresAt: now.Add(s.settings.RefreshTTL), Generation: gen,
	})
	if err != nil {
		return TokenPair{}, err
	}
	return TokenPair{AccessToken: access, RefreshToken: refresh, ExpiresIn: s.expiresIn()}, nil
}

func (s *Service) customerScopes() []string {
	return append([]string(nil), s.settings.CustomerScopes...)
}

// Refresh exchanges a valid refresh token (customer or staff) for a new access token.
// The subject must still exist and be allowed to sign in, and a customer's refresh
// token must not be revoked (its generation is the customer's current one:
// docs/decisions/0096); access tokens are refused.
func (s *Service) Refresh(ctx context.Context, refreshToken string) (AccessTokenResult, error) {
	c, err := s.tokens.Parse(refreshToken)
	if err != nil {
		return AccessTokenResult{}, err
	}
	if c.Type != domain.RefreshToken {
		return AccessTokenResult{}, domain.ErrInvalidToken
	}
	var access string
	switch c.Kind {
	case domain.SubjectCustomer:
		// The generation is read before the customer: a revocation that commits in
		// between is seen in the customer's state, one after it raises the generation
		// above the new token's, so no token outlives a disabled customer.
		gen, err := s.revocations.Generation(ctx, c.Subject)
		if err != nil {
			return AccessTokenResult{}, err
		}
		if c.Generation < gen {
			return AccessTokenResult{}, domain.ErrInvalidToken
		}
		cust, err := s.signingIn(ctx, c.Subject, domain.ErrInvalidToken)
		if err != nil {
			return AccessTokenResult{}, err
		}
		access, err = s.issueAccess(domain.SubjectCustomer, cust.ID, cust.Email, s.customerScopes(), gen)
		if err != nil {
			return AccessTokenResult{}, err
		}
	case domain.SubjectStaff:
		u, err := s.staff.Get(ctx, c.Subject)
		if err != nil {
			if errors.Is(err, domain.ErrStaffUserNotFound) {
				return AccessTokenResult{}, domain.ErrInvalidToken
			}
			return AccessTokenResult{}, err
		}
		access, err = s.issueAccess(domain.SubjectStaff, u.ID, u.Email, domain.StaffScopes(u.Role), 0)
		if err != nil {
			return AccessTokenResult{}, err
		}
	default:
		return AccessTokenResult{}, domain.ErrInvalidToken
	}
	return AccessTokenResult{AccessToken: access, ExpiresIn: s.expiresIn()}, nil
}
