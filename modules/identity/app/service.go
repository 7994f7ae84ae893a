// Package app holds identity's use cases: registration, login, token refresh, staff
// login, API key management, and the request authenticator with its key cache.
package app

import (
	"sync"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/identity/api"
	"github.com/gocommerce/commerce/modules/identity/ports"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/tx"
)

// Service implements identity's use cases and api.Identity.
type Service struct {
	settings      Settings
	tx            tx.Manager
	creds         ports.CredentialRepository
	staff         ports.StaffRepository
	keys          ports.APIKeyRepository
	customers     ports.Customers
	tokens        ports.Tokens
	cache         *KeyCache
	revocations   *Revocations
	invalidations ports.KeyInvalidations
	clock         clock.Clock
	log           *zap.Logger
	dummyHash     func() string
}

var _ api.Identity = (*Service)(nil)

// NewService builds the identity service.
func NewService(
	settings Settings,
	tm tx.Manager,
	creds ports.CredentialRepository,
	staff ports.StaffRepository,
	keys ports.APIKeyRepository,
	customers ports.Customers,
	tokens ports.Tokens,
	cache *KeyCache,
	revocations *Revocations,
	invalidations ports.KeyInvalidations,
	clk clock.Clock,
	log *zap.Logger,
) *Service {
	s := &Service{
		settings: settings, tx: tm, creds: creds, staff: staff, keys: keys, customers: customers,
		tokens: tokens, cache: cache, revocations: revocations, invalidations: invalidations, clock: clk, log: log.Named("identity"),
	}
	// A hash at the configured cost that no password matches: comparing against it when
	// the email is unknown makes a failed login take as long whether or not the account
	// exists (no timing oracle for registered emails).
	s.dummyHash = sync.OnceValue(func() string {
		h, err := hashPassword("dummy-password-"+ids.New(), settings.BcryptCost)
		if err != nil {
			return "$2a$10$invalidinvalidinvalidinvalidinvalidinvalidinvalidinvali"
		}
		return h
	})
	return s
}
