// Package app holds checkout's use cases: initiate (tax by address, shipping rates),
// shipping (the chosen rate), complete (reserve, record coupon uses, charge, create the
// order, convert the cart, commit the stock) and the reactions that finish or undo a
// pending payment. It reaches the other modules only through its ports.
package app

import (
	"context"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/checkout/domain"
	"github.com/gocommerce/commerce/modules/checkout/ports"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/tx"
)

// Settings are checkout's configuration.
type Settings struct {
	// HoldTTL is how long a complete holds stock for its payment
	// (inventory.reservation_timeout).
	HoldTTL time.Duration
	// Wait is how long a complete waits for a concurrent one of the same cart.
	Wait time.Duration
}

// SettingsFrom reads the settings from the configuration.
func SettingsFrom(cfg *config.Config) Settings {
	return Settings{HoldTTL: cfg.Inventory.ReservationTimeout, Wait: 15 * time.Second}
}

// Modules are the other modules checkout orchestrates.
type Modules struct {
	Carts     ports.Carts
	Inventory ports.Inventory
	Orders    ports.Orders
	Payments  ports.Payments
	Coupons   ports.CouponUsage
	Tax       ports.Tax
	Shipping  ports.Shipping
	// Catalog, when set, reads the lines' variants once per attempt for the
	// reservation and the order (docs/decisions/0229); without it each reads them.
	Catalog ports.Catalog
}

// Stores are checkout's own tables.
type Stores struct {
	Sessions    ports.Sessions
	Idempotency ports.Idempotency
}

// Service runs the use cases.
type Service struct {
	Modules
	Stores
	settings Settings
	tx       tx.Manager
	events   event.Publisher
	clock    clock.Clock
	log      *zap.Logger
	newID    func() string
}

// NewService builds the service.
func NewService(m Modules, st Stores, s Settings, txm tx.Manager, pub event.Publisher, clk clock.Clock, log *zap.Logger) *Service {
	if s.Wait <= 0 {
		s.Wait = 15 * time.Second
	}
	return &Service{Modules: m, Stores: st, settings: s, tx: txm, events: pub, clock: clk, log: log.Named("checkout"), newID: ids.New}
}

func (s *Service) now() time.Time { return s.clock.Now().UTC() }

// Access is the caller's hold on a cart.
type Access = ports.CartAccess

// activeCart reads a cart the caller may read that can still be checked out.
func (s *Service) activeCart(ctx context.Context, a Access) (ports.Cart, error) {
	c, err := s.Carts.Read(ctx, a)
	if err != nil {
		return c, err
	}
	return c, checkActive(c)
}

// Errors of the carts module checkout repeats for a cart it cannot check out.
var (
	errCartExpired   = apperr.New(apperr.Gone, "CART_EXPIRED", "Cart has expired")
	errCartConverted = apperr.New(apperr.Conflict, "CART_CONVERTED", "Cart has already been converted to an order")
)

func checkActive(c ports.Cart) error {
	switch c.Status {
	case ports.CartExpired:
		return errCartExpired
	case ports.CartConverted:
		return errCartConverted
	}
	if len(c.Lines) == 0 {
		return domain.ErrCartEmpty
	}
	return nil
}

// session returns the cart's session, made (not stored) when it has none.
func (s *Service) session(ctx context.Context, c ports.Cart) (*domain.Session, bool, error) {
	sess, found, err := s.Sessions.Get(ctx, c.ID)
	if err != nil || found {
		return sess, found, err
	}
	return s.newSession(c), false, nil
}

// newSession is a new open session of the cart.
func (s *Service) newSession(c ports.Cart) *domain.Session {
	now := s.now()
	return &domain.Session{ID: s.newID(), CartID: c.ID, CustomerID: c.CustomerID, Email: c.Email, Currency: c.Currency,
		Status: domain.StatusOpen, CreatedAt: now, UpdatedAt: now}
}

// store creates or saves a session (a lost race is CHECKOUT_IN_PROGRESS).
func (s *Service) store(ctx context.Context, sess *domain.Session, existed bool) error {
	sess.UpdatedAt = s.now()
	if !existed {
		return s.Sessions.Create(ctx, sess)
	}
	ok, err := s.Sessions.Save(ctx, sess)
	if err == nil && !ok {
		err = domain.ErrCheckoutBusy
	}
	return err
}
