// Package app holds the carts use cases: guest and customer carts, items, coupons,
// merging, totals, expiry and conversion. One transaction per use case; events go to
// the outbox in that transaction.
package app

import (
	"context"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/carts/api"
	"github.com/gocommerce/commerce/modules/carts/domain"
	"github.com/gocommerce/commerce/modules/carts/ports"
	"github.com/gocommerce/commerce/platform/auth"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/tx"
)

// Settings is the carts module's configuration.
type Settings struct {
	// TTL is how long a cart lives without activity (carts.expiry_days, 30 days).
	TTL time.Duration
}

// DefaultExpiryDays is the spec's inactivity limit.
const DefaultExpiryDays = 30

// SettingsFrom takes the module's slice of the configuration.
func SettingsFrom(cfg *config.Config) Settings {
	days := cfg.Carts.ExpiryDays
	if days <= 0 {
		days = DefaultExpiryDays
	}
	return Settings{TTL: time.Duration(days) * 24 * time.Hour}
}

// Collaborators groups the other modules' capabilities.
type Collaborators struct {
	Catalog            ports.Catalog
	Coupons            ports.Coupons
	Tax                ports.Tax
	AutomaticDiscounts ports.AutomaticDiscounts
	Addresses          ports.Addresses
}

// Service implements the carts use cases and api.Carts.
type Service struct {
	settings Settings
	tx       tx.Manager
	repo     ports.CartRepository
	writer   ports.CartWriter // the repository's (add to cart)
	catalog  ports.Catalog
	coupons  ports.Coupons
	tax      ports.Tax
	auto     ports.AutomaticDiscounts
	addrs    ports.Addresses
	events   event.Publisher
	clock    clock.Clock
}

var _ api.Carts = (*Service)(nil)

// NewService builds the service.
func NewService(s Settings, t tx.Manager, repo ports.CartRepository, c Collaborators, pub event.Publisher, clk clock.Clock) *Service {
	return &Service{
		settings: s, tx: t, repo: repo, writer: repo, catalog: c.Catalog, coupons: c.Coupons, tax: c.Tax,
		auto: c.AutomaticDiscounts, addrs: c.Addresses, events: pub, clock: clk,
	}
}

func (s *Service) now() time.Time { return s.clock.Now().UTC() }

// Caller is who asks for a cart: the guest session token and/or the authenticated
// principal.
type Caller struct {
	SessionToken string
	Principal    *auth.Principal
}

// Cart scopes.
const (
	ScopeRead  = "carts:read"
	ScopeWrite = "carts:write"
)

// allowed applies the access rules (docs/decisions/0060): the cart's session token;
// its owning customer's token; or a staff or API key principal holding carts:read
// (reads) or carts:write (changes).
func allowed(c *domain.Cart, who Caller, write bool) bool {
	if domain.SessionTokenMatches(c.SessionTokenHash, who.SessionToken) {
		return true
	}
	p := who.Principal
	switch {
	case p == nil:
		return false
	case p.Kind == auth.Customer:
		return c.CustomerID != "" && strings.EqualFold(c.CustomerID, p.ID)
	case write:
		return p.Can(ScopeWrite)
	default:
		return p.Can(ScopeRead)
	}
}

// load returns a cart the caller may read, answering CART_NOT_FOUND for an unknown or
// inaccessible cart (never 403, so ids do not leak), then CART_EXPIRED or
// CART_CONVERTED for a cart that is no longer active.
func (s *Service) load(ctx context.Context, id string, who Caller) (*domain.Cart, error) {
	if !ids.Valid(id) {
		return nil, domain.ErrCartNotFound
	}
	c, err := s.repo.Get(ctx, domain.CartID(strings.ToLower(id)))
	if err != nil {
		return nil, err
	}
	if !allowed(c, who, false) {
		return nil, domain.ErrCartNotFound
	}
	if err := c.CheckActive(s.now()); err != nil {
		return nil, err
	}
	return c, nil
}

// change runs a change of an active cart the caller may write, in the use case's
// transaction: the cart is locked, checked, changed, re-priced and touched.
func (s *Service) change(ctx context.Context, id string, who Caller, fn func(ctx context.Context, c *domain.Cart) error) (*domain.Cart, error) {
	return s.changeChecked(ctx, id, who, fn, nil)
}

// changeChecked is change with a check of the re-priced cart, given the evaluations
// of its coupons (one per coupon, in order), before the cart is saved.
func (s *Service) changeChecked(ctx context.Context, id string, who Caller, fn func(ctx context.Context, c *domain.Cart) error,
	check func(c *domain.Cart, coupons []ports.CouponResult) error,
) (*domain.Cart, error) {
	if !ids.Valid(id) {
		return nil, domain.ErrCartNotFound
	}
	return s.repo.Update(ctx, domain.CartID(strings.ToLower(id)), s.editor(who, fn, check))
}

// apply runs a change of an active cart the caller may write that is its own use
// case, storing the events evts describes with the cart (ports.CartWriter: on
// PostgreSQL one statement without a lock, unless configured otherwise). fn may run
// more than once, each time on a fresh read of the cart.
func (s *Service) apply(ctx context.Context, id string, who Caller, fn func(ctx context.Context, c *domain.Cart) error,
	evts func(c *domain.Cart) []ports.Event,
) (*domain.Cart, error) {
	if !ids.Valid(id) {
		return nil, domain.ErrCartNotFound
	}
	edit := s.editor(who, fn, nil)
	return s.writer.Apply(ctx, domain.CartID(strings.ToLower(id)), func(ctx context.Context, c *domain.Cart) ([]ports.Event, error) {
		if err := edit(ctx, c); err != nil {
			return nil, err
		}
		return evts(c), nil
	})
}

// editor is the change of a cart the repository runs on the cart it read: the access
// and state checks, fn, the re-pricing, check and the touch. It runs its statements
// (the coupons' re-evaluation) with the context the repository gives it, which carries
// the repository's transaction: with the caller's, they would wait for a second
// connection while the transaction holds one (on SQLite, the only one).
func (s *Service) editor(who Caller, fn func(ctx context.Context, c *domain.Cart) error,
	check func(c *domain.Cart, coupons []ports.CouponResult) error,
) func(ctx context.Context, c *domain.Cart) error {
	return func(ctx context.Context, c *domain.Cart) error {
		if !allowed(c, who, true) {
			return domain.ErrCartNotFound
		}
		now := s.now()
		if err := c.CheckActive(now); err != nil {
			return err
		}
		if err := fn(ctx, c); err != nil {
			return err
		}
		results, err := s.reprice(ctx, c)
		if err != nil {
			return err
		}
		if check != nil {
			if err := check(c, results); err != nil {
				return err
			}
		}
		c.Touch(now, s.settings.TTL)
		return nil
	}
}

// reprice evaluates every coupon on the cart once against its current content and
// recalculates the totals (shipping is the chosen rate's price). A coupon whose
// conditions no longer hold stays on the cart with no discount (docs/decisions/0064).
// It returns the evaluations, one per coupon in order.
func (s *Service) reprice(ctx context.Context, c *domain.Cart) ([]ports.CouponResult, error) {
	d := domain.Discounts{Items: map[domain.ItemID]decimal.Decimal{}, Shipping: decimal.Zero}
	c.Recalculate(d) // the subtotal the coupons are evaluated against
	var results []ports.CouponResult
	if len(c.Coupons) > 0 {
		base, err := s.couponQuery(ctx, c)
		if err != nil {
			return nil, err
		}
		results = make([]ports.CouponResult, len(c.Coupons))
		for i := range c.Coupons {
			cp := &c.Coupons[i]
			q := base
			q.Code, q.Applied = cp.Code, others(c, i)
			res, err := s.coupons.Evaluate(ctx, q)
			if err != nil {
				return nil, err
			}
			results[i] = res
			cp.Applicable, cp.Amount = res.Valid, decimal.Zero
			if res.Type != "" {
				cp.ID, cp.Type = res.CouponID, res.Type
			}
			if !res.Valid {
				continue
			}
			cp.Amount = res.Amount
			for id, v := range res.Items {
				d.Items[id] = d.Items[id].Add(v)
			}
			d.Shipping = d.Shipping.Add(res.Shipping)
		}
	}
	c.Recalculate(d)
	return results, nil
}

// others lists the codes of the cart's coupons except the i-th.
func others(c *domain.Cart, i int) []string {
	out := make([]string, 0, len(c.Coupons))
	for j, cp := range c.Coupons {
		if j != i {
			out = append(out, cp.Code)
		}
	}
	return out
}

// couponQuery describes the cart, as it is now, for coupon evaluation; each
// evaluation sets Code and Applied. The products' collections are read from the
// catalog only when a coupon restricts them, and then once.
func (s *Service) couponQuery(ctx context.Context, c *domain.Cart) (ports.CouponQuery, error) {
	auto, err := s.auto.Has(ctx, c)
	if err != nil {
		return ports.CouponQuery{}, err
	}
	lines := make([]ports.CouponLine, len(c.Items))
	products := make([]string, len(c.Items))
	for i, it := range c.Items {
		lines[i] = ports.CouponLine{ItemID: it.ID, ProductID: it.ProductID, VariantID: it.VariantID, Quantity: it.Quantity, UnitPrice: it.UnitPrice}
		products[i] = it.ProductID
	}
	var (
		cols map[string][]string
		read bool
	)
	collections := func(ctx context.Context) (map[string][]string, error) {
		if !read && len(products) > 0 {
			var err error
			if cols, err = s.catalog.Collections(ctx, products); err != nil {
				return nil, err
			}
		}
		read = true
		return cols, nil
	}
	return ports.CouponQuery{
		Lines: lines, Collections: collections, Subtotal: c.Subtotal, ShippingTotal: c.ShippingBeforeDiscount, CustomerID: c.CustomerID,
		Email: c.Email, Currency: c.Currency, HasAutomaticDiscounts: auto,
	}, nil
}

// ToResource maps a cart to its API resource (HTTP responses and event data).
func ToResource(c *domain.Cart) api.CartResource {
	r := api.CartResource{
		ID: string(c.ID), Currency: c.Currency, Subtotal: domain.Format(c.Subtotal, c.Currency),
		DiscountTotal: domain.Format(c.DiscountTotal, c.Currency), TaxTotal: domain.Format(decimal.Zero, c.Currency),
		ShippingTotal: domain.Format(c.ShippingTotal, c.Currency), Total: domain.Format(c.Total(), c.Currency),
		CouponCodes: c.CouponCodes(), ItemCount: c.ItemCount, Items: make([]api.ItemResource, len(c.Items)),
		Email: c.Email, ShippingMethod: c.ShippingMethod, Notes: c.Notes,
		ExpiresAt: c.ExpiresAt.UTC(), CreatedAt: c.CreatedAt.UTC(), UpdatedAt: c.UpdatedAt.UTC(),
	}
	if c.CustomerID != "" {
		id := c.CustomerID
		r.CustomerID = &id
	}
	if len(c.Coupons) > 0 {
		code := c.Coupons[0].Code
		r.CouponCode = &code
	}
	for i, it := range c.Items {
		r.Items[i] = ToItemResource(it, c.Currency)
	}
	return r
}

// ToItemResource maps an item to its API resource.
func ToItemResource(it *domain.Item, currency string) api.ItemResource {
	attrs := it.CustomAttributes
	if attrs == nil {
		attrs = map[string]string{}
	}
	return api.ItemResource{
		ID: string(it.ID), ProductID: it.ProductID, VariantID: it.VariantID, Quantity: it.Quantity,
		UnitPrice: domain.Format(it.UnitPrice, currency), OriginalPrice: domain.Format(it.OriginalPrice, currency),
		Subtotal: domain.Format(it.Subtotal(), currency), DiscountAmount: domain.Format(it.DiscountAmount, currency),
		Total: domain.Format(it.Total(), currency), SKU: it.SKU, Title: it.Title, VariantTitle: it.VariantTitle,
		ImageURL: it.ImageURL, RequiresShipping: it.RequiresShipping, IsGiftCard: it.IsGiftCard, CustomAttributes: attrs,
	}
}

// itemEvent is the data of the cart.item_* events.
func itemEvent(c *domain.Cart, it *domain.Item) api.CartItemEvent {
	return api.CartItemEvent{
		CartID: string(c.ID), Item: ToItemResource(it, c.Currency), Subtotal: domain.Format(c.Subtotal, c.Currency),
		Total: domain.Format(c.Total(), c.Currency), Currency: c.Currency,
	}
}
