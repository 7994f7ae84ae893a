// Package app holds the customers use cases: one method per operation, one transaction
// per use case, events written to the outbox in that transaction, and the record
// access rules (a customer touches only its own record).
package app

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/modules/customers/ports"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/auth"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/tx"
)

// Settings is the customers module's configuration.
type Settings struct {
	// InviteTTL is how long an activation link works (7 days, like Shopify's).
	InviteTTL time.Duration
	// ResetTTL is how long a password reset link works.
	ResetTTL time.Duration
	// TokenKey derives account tokens (docs/decisions/0042).
	TokenKey []byte
	// LinkBaseURL prefixes account links (http.public_url; relative links when empty).
	LinkBaseURL string
}

// Default token lifetimes.
const (
	DefaultInviteTTL = 7 * 24 * time.Hour
	DefaultResetTTL  = 24 * time.Hour
)

// SettingsFrom takes the module's settings from the configuration: the token key is
// derived from security.jwt.secret (a random per-process key when it is empty, which
// only happens in tests).
func SettingsFrom(cfg *config.Config) Settings {
	secret := []byte(cfg.Security.JWT.Secret)
	if len(secret) == 0 {
		secret = make([]byte, 32)
		_, _ = rand.Read(secret)
	}
	sum := sha256.Sum256(append([]byte("customers/account-tokens/v1|"), secret...))
	return Settings{InviteTTL: cfg.Customers.InviteTTL, ResetTTL: cfg.Customers.ResetTTL, TokenKey: sum[:], LinkBaseURL: cfg.HTTP.PublicURL}
}

// Stores groups the module's repositories.
type Stores struct {
	Customers ports.CustomerRepository
	Addresses ports.AddressRepository
	Tokens    ports.TokenRepository
	Stats     ports.OrderStatsRepository
	Segments  ports.SegmentRepository
	Audit     ports.AuditRepository
}

// Collaborators groups the other modules' capabilities the use cases need.
type Collaborators struct {
	Credentials   ports.Credentials
	Orders        ports.Orders
	Carts         ports.Exporter
	Subscriptions ports.Exporter
	Notifications ports.Exporter
}

// Service implements the customers use cases, api.Customers, api.AccountLinks and
// api.Segments.
type Service struct {
	settings Settings
	tx       tx.Manager
	repo     ports.CustomerRepository
	addrs    ports.AddressRepository
	tokens   ports.TokenRepository
	stats    ports.OrderStatsRepository
	segments ports.SegmentRepository
	audit    ports.AuditRepository
	creds    ports.Credentials
	orders   ports.Orders
	carts    ports.Exporter
	subs     ports.Exporter
	notes    ports.Exporter
	events   event.Publisher
	clock    clock.Clock
	newID    func() string
}

var (
	_ api.Customers    = (*Service)(nil)
	_ api.AccountLinks = (*Service)(nil)
	_ api.Segments     = (*Service)(nil)
)

// NewService builds the customers service.
func NewService(settings Settings, tm tx.Manager, stores Stores, others Collaborators, pub event.Publisher, clk clock.Clock) *Service {
	return &Service{
		settings: settings, tx: tm,
		repo: stores.Customers, addrs: stores.Addresses, tokens: stores.Tokens, stats: stores.Stats,
		segments: stores.Segments, audit: stores.Audit,
		creds: others.Credentials, orders: others.Orders, carts: others.Carts, subs: others.Subscriptions,
		notes: others.Notifications, events: pub, clock: clk, newID: ids.New,
	}
}

// Actor is who calls a use case: a customer (CustomerID set) or a staff user or API key.
type Actor struct {
	CustomerID string
	ClientID   string // principal client id, recorded in the privacy audit
	Kind       string
}

// ActorFrom turns the request principal into an actor.
func ActorFrom(p *auth.Principal) Actor {
	if p == nil {
		return Actor{Kind: string(auth.Anonymous)}
	}
	return Actor{CustomerID: p.CustomerID(), ClientID: p.ClientID(), Kind: string(p.Kind)}
}

// IsCustomer reports a customer token.
func (a Actor) IsCustomer() bool { return a.CustomerID != "" }

// Access errors (docs/decisions/0047).
var (
	errStaffRead  = apperr.New(apperr.Forbidden, "", "Forbidden: Insufficient permissions. Required: customers:read (API key or staff token)")
	errStaffWrite = apperr.New(apperr.Forbidden, "", "Forbidden: Insufficient permissions. Required: customers:write (API key or staff token)")
)

// own checks record access: a customer reaches only its own record; any other id is
// CUSTOMER_NOT_FOUND, exactly like an unknown id.
func (a Actor) own(id string) error {
	if a.IsCustomer() && a.CustomerID != id {
		return domain.ErrCustomerNotFound
	}
	return nil
}

func (a Actor) staffRead() error {
	if a.IsCustomer() {
		return errStaffRead
	}
	return nil
}

func (a Actor) staffWrite() error {
	if a.IsCustomer() {
		return errStaffWrite
	}
	return nil
}

// customerID validates an id from a path: a malformed id is not found.
func customerID(id string) (domain.CustomerID, error) {
	if !ids.Valid(id) {
		return "", domain.ErrCustomerNotFound
	}
	return domain.CustomerID(id), nil
}

// staffTx runs change in one transaction on the customer id names once a may change
// customers (staff and keys only) and the id is well-formed.
func (s *Service) staffTx(ctx context.Context, a Actor, id string, change func(ctx context.Context, cid domain.CustomerID) error) error {
	if err := a.staffWrite(); err != nil {
		return err
	}
	cid, err := customerID(id)
	if err != nil {
		return err
	}
	return s.tx.InTx(ctx, func(ctx context.Context) error { return change(ctx, cid) })
}

// load reads a customer by id with the access rule applied.
func (s *Service) load(ctx context.Context, a Actor, id string) (*domain.Customer, error) {
	if err := a.own(id); err != nil {
		return nil, err
	}
	cid, err := customerID(id)
	if err != nil {
		return nil, err
	}
	return s.repo.Get(ctx, cid)
}

// view builds the full resource: the customer with its addresses and metafields.
func (s *Service) view(ctx context.Context, c *domain.Customer) (api.Customer, error) {
	addrs, err := s.addrs.All(ctx, c.ID)
	if err != nil {
		return api.Customer{}, err
	}
	return toAPI(c, addrs, defaultShipping(addrs)), nil
}

func defaultShipping(addrs []*domain.Address) *domain.Address {
	for _, a := range addrs {
		if a.IsDefaultShipping {
			return a
		}
	}
	return nil
}

// publishCustomer writes an event whose data is the full customer.
func (s *Service) publishCustomer(ctx context.Context, eventType string, c *domain.Customer) (api.Customer, error) {
	v, err := s.view(ctx, c)
	if err != nil {
		return api.Customer{}, err
	}
	if err := s.events.Publish(ctx, eventType, string(c.ID), api.CustomerUpdated(v)); err != nil {
		return api.Customer{}, err
	}
	return v, nil
}

// publishStateEvent writes customer.enabled or customer.disabled after a state move.
// publishChange publishes eventType with the customer and, when its state moved, the
// event of the new state; it returns the published view.
func (s *Service) publishChange(ctx context.Context, eventType string, c *domain.Customer, moved bool) (api.Customer, error) {
	out, err := s.publishCustomer(ctx, eventType, c)
	if err != nil || !moved {
		return out, err
	}
	return out, s.publishStateEvent(ctx, c, out)
}

func (s *Service) publishStateEvent(ctx context.Context, c *domain.Customer, v api.Customer) error {
	switch c.State {
	case domain.StateEnabled:
		return s.events.Publish(ctx, api.EventCustomerEnabled, string(c.ID), api.CustomerUpdated(v))
	case domain.StateDisabled:
		return s.events.Publish(ctx, api.EventCustomerDisabled, string(c.ID), api.CustomerUpdated(v))
	case domain.StateInvited, domain.StateDeclined:
	}
	return nil
}

// randomPlaceholder is 24 hex characters of SHA-256 over fresh random bytes: it says
// nothing about the data it replaces.
func randomPlaceholder() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])[:24]
}

// Page is a validated page request.
type Page struct {
	Offset int
	Limit  int
}
