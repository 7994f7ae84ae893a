// Package app holds the orders use cases. Service is the command side (it depends on
// the catalog, inventory, payments and customers ports); QueryService is the read side
// (it depends only on the module's own stores), so that catalog and customers can use
// it through their adapters without a dependency cycle. One transaction per use case;
// events are written to the outbox in that transaction.
package app

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/orders/api"
	"github.com/gocommerce/commerce/modules/orders/domain"
	"github.com/gocommerce/commerce/modules/orders/ports"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/auth"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/tx"
)

// Settings is the orders module's configuration (no configuration keys yet: the
// defaults below; docs/decisions/0077).
type Settings struct {
	// Risk weighs the fraud assessment's signals.
	Risk domain.RiskRules
	// LargeOrderAmount is the total from which an order is unusually large while the
	// store has fewer than LargeOrderMinOrders orders in its currency.
	LargeOrderAmount decimal.Decimal
	// LargeOrderMultiple times the store's average order total is the threshold once
	// there are LargeOrderMinOrders orders.
	LargeOrderMultiple  decimal.Decimal
	LargeOrderMinOrders int64
}

// DefaultSettings are the defaults.
func DefaultSettings() Settings {
	return Settings{
		Risk: domain.DefaultRiskRules, LargeOrderAmount: decimal.NewFromInt(1000),
		LargeOrderMultiple: decimal.NewFromInt(5), LargeOrderMinOrders: 10,
	}
}

// SettingsFrom takes the module's settings from the configuration.
func SettingsFrom(*config.Config) Settings { return DefaultSettings() }

// Stores groups the module's repositories.
type Stores struct {
	Orders ports.OrderRepository
	Notes  ports.NoteRepository
}

// Collaborators groups the other modules' capabilities the command side needs.
type Collaborators struct {
	Catalog   ports.Catalog
	Inventory ports.Inventory
	Payments  ports.Payments
	Customers ports.Customers
	Coupons   ports.Coupons // nil: discount codes are not recorded as coupon uses
}

// Service implements the order commands and api.Orders.
type Service struct {
	settings  Settings
	tx        tx.Manager
	orders    ports.OrderRepository
	notes     ports.NoteRepository
	catalog   ports.Catalog
	inventory ports.Inventory
	payments  ports.Payments
	customers ports.Customers
	coupons   ports.Coupons
	events    event.Publisher
	clock     clock.Clock
	newID     func() string
}

var _ api.Orders = (*Service)(nil)

// NewService builds the command service.
func NewService(settings Settings, tm tx.Manager, stores Stores, others Collaborators, pub event.Publisher, clk clock.Clock) *Service {
	return &Service{
		settings: settings, tx: tm, orders: stores.Orders, notes: stores.Notes,
		catalog: others.Catalog, inventory: others.Inventory, payments: others.Payments, customers: others.Customers,
		coupons: others.Coupons, events: pub, clock: clk, newID: ids.New,
	}
}

// Actor is who calls a use case: a customer (CustomerID set), or a staff user or API key.
type Actor struct {
	CustomerID string
	// Label names the caller in notes (the principal's email, else its client id).
	Label string
}

// ActorFrom turns the request principal into an actor.
func ActorFrom(p *auth.Principal) Actor {
	if p == nil {
		return Actor{}
	}
	a := Actor{CustomerID: p.CustomerID(), Label: p.Email}
	if a.Label == "" {
		a.Label = p.ClientID()
	}
	return a
}

// IsCustomer reports a customer token.
func (a Actor) IsCustomer() bool { return a.CustomerID != "" }

// Access errors (docs/decisions/0078).
var (
	errCustomerWrite = apperr.New(apperr.Forbidden, "", "Forbidden: Insufficient permissions. Required: orders:write (API key or staff token)")
	errStaffOnly     = apperr.New(apperr.Forbidden, "", "Forbidden: Insufficient permissions. Required: orders:read (API key or staff token)")
)

func (a Actor) write() error {
	if a.IsCustomer() {
		return errCustomerWrite
	}
	return nil
}

// ParseKey reads an order reference: a UUID, or an order number ("1001" or "#1001").
// Anything else is reported as not found.
func ParseKey(key string) (id string, number int64, err error) {
	key = strings.TrimSpace(key)
	if ids.Valid(key) {
		return strings.ToLower(key), 0, nil
	}
	n, perr := strconv.ParseInt(strings.TrimPrefix(key, "#"), 10, 64)
	if perr != nil || n <= 0 {
		return "", 0, domain.ErrOrderNotFound
	}
	return "", n, nil
}

// resolve turns an order reference into the order's id.
func resolve(ctx context.Context, repo ports.OrderRepository, key string) (string, error) {
	id, number, err := ParseKey(key)
	if err != nil || id != "" {
		return id, err
	}
	o, err := repo.GetByNumber(ctx, number)
	if err != nil {
		return "", err
	}
	return o.ID, nil
}

// maxAttempts bounds retries of a lost optimistic update.
const maxAttempts = 5

// change runs one use case on one order: it resolves the key, then, in a transaction,
// loads the order locked, lets fn change it (fn may call other modules' ports, which
// join the transaction) and saves it; after returns the events to publish, from the
// saved order, in the same transaction.
func (s *Service) change(ctx context.Context, key string, fn func(ctx context.Context, o *domain.Order) error, after func(ctx context.Context, o *domain.Order) error) (*domain.Order, error) {
	id, err := resolve(ctx, s.orders, key)
	if err != nil {
		return nil, err
	}
	for attempt := 1; ; attempt++ {
		var out *domain.Order
		err := s.tx.InTx(ctx, func(ctx context.Context) error {
			o, err := s.orders.Update(ctx, id, func(o *domain.Order) error { return fn(ctx, o) })
			if err != nil {
				return err
			}
			out = o
			if after != nil {
				return after(ctx, o)
			}
			return nil
		})
		if errors.Is(err, domain.ErrStale) && attempt < maxAttempts {
			continue
		}
		return out, err
	}
}

// changeOrder is change answering the saved order as the api resource.
func (s *Service) changeOrder(ctx context.Context, key string, fn, after func(ctx context.Context, o *domain.Order) error) (api.Order, error) {
	o, err := s.change(ctx, key, fn, after)
	if err != nil {
		return api.Order{}, err
	}
	return ToOrder(o), nil
}

func (s *Service) publish(ctx context.Context, eventType, aggregateID string, data any) error {
	if err := s.events.Publish(ctx, eventType, aggregateID, data); err != nil {
		return fmt.Errorf("orders: publish %s: %w", eventType, err)
	}
	return nil
}

// publishOrder writes an event whose data is the order resource.
func (s *Service) publishOrder(ctx context.Context, eventType string, o *domain.Order) error {
	return s.publish(ctx, eventType, o.ID, ToOrder(o))
}

// restock gives stock back through the inventory port.
func (s *Service) restock(ctx context.Context, o *domain.Order, rs []domain.Restock) error {
	for _, r := range rs {
		if err := s.inventory.Restock(ctx, ports.StockChange{ProductID: r.ProductID, VariantID: r.VariantID, Quantity: r.Quantity, Reference: "order " + o.ID}); err != nil {
			return err
		}
	}
	return nil
}
