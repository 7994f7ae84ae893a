package app

import (
	"context"
	"errors"
	"net/mail"
	"strings"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/carts/api"
	"github.com/gocommerce/commerce/modules/carts/domain"
	"github.com/gocommerce/commerce/modules/carts/ports"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/auth"
	"github.com/gocommerce/commerce/platform/ids"
)

func newCartID() domain.CartID { return domain.CartID(ids.New()) }

func newItemID() domain.ItemID { return domain.ItemID(ids.New()) }

// GuestCart is a new guest cart with its session token (returned once).
type GuestCart struct {
	Cart         *domain.Cart
	SessionToken string
}

// CreateGuest creates a guest cart in the currency (USD when "") and publishes
// cart.created. The session token is returned once; only its hash is stored.
func (s *Service) CreateGuest(ctx context.Context, currency string) (GuestCart, error) {
	cur, err := domain.NormalizeCurrency(currency)
	if err != nil {
		return GuestCart{}, err
	}
	token, hash, err := domain.NewSessionToken()
	if err != nil {
		return GuestCart{}, err
	}
	c := domain.New(newCartID(), "", cur, s.now(), s.settings.TTL)
	c.SessionTokenHash = hash
	err = s.tx.InTx(ctx, func(ctx context.Context) error {
		if err := s.repo.Create(ctx, c); err != nil {
			return err
		}
		return s.events.Publish(ctx, api.EventCartCreated, string(c.ID), ToResource(c))
	})
	if err != nil {
		return GuestCart{}, err
	}
	return GuestCart{Cart: c, SessionToken: token}, nil
}

// customerOf returns the customer id of a customer principal, or
// ErrCustomerTokenRequired (API keys and staff have no cart of their own).
func customerOf(p *auth.Principal) (string, error) {
	if p == nil || p.Kind != auth.Customer || p.ID == "" {
		return "", domain.ErrCustomerTokenRequired
	}
	return strings.ToLower(p.ID), nil
}

// Me returns the customer's active cart, creating one (in currency, USD when "") when
// there is none; a cart past its expiry is marked expired and replaced.
func (s *Service) Me(ctx context.Context, p *auth.Principal, currency string) (*domain.Cart, error) {
	customer, err := customerOf(p)
	if err != nil {
		return nil, err
	}
	cur, err := domain.NormalizeCurrency(currency)
	if err != nil {
		return nil, err
	}
	var out *domain.Cart
	err = s.tx.InTx(ctx, func(ctx context.Context) error {
		c, _, err := s.activeCart(ctx, customer, cur)
		out = c
		return err
	})
	return out, err
}

// activeCart returns the customer's active cart or creates it (publishing
// cart.created); it reports whether it created one.
func (s *Service) activeCart(ctx context.Context, customer, currency string) (*domain.Cart, bool, error) {
	now := s.now()
	c, err := s.repo.ActiveForCustomer(ctx, customer)
	switch {
	case err == nil && c.EffectiveStatus(now) == domain.StatusActive:
		return c, false, nil
	case err == nil: // past expires_at: the sweep has not run yet
		if _, err := s.repo.Update(ctx, c.ID, func(_ context.Context, c *domain.Cart) error {
			c.Expire(now)
			return nil
		}); err != nil {
			return nil, false, err
		}
	case !errors.Is(err, domain.ErrCartNotFound):
		return nil, false, err
	}
	c = domain.New(newCartID(), customer, currency, now, s.settings.TTL)
	if err := s.repo.Create(ctx, c); err != nil {
		if errors.Is(err, ports.ErrActiveCartExists) { // a concurrent request created it
			c, err = s.repo.ActiveForCustomer(ctx, customer)
			return c, false, err
		}
		return nil, false, err
	}
	return c, true, s.events.Publish(ctx, api.EventCartCreated, string(c.ID), ToResource(c))
}

// Get returns a cart the caller may read.
func (s *Service) Get(ctx context.Context, id string, who Caller) (*domain.Cart, error) {
	return s.load(ctx, id, who)
}

// DetailsChange is an update of a cart's details: nil members are left alone.
type DetailsChange struct {
	Email          *string
	ShippingMethod *string
	Notes          *string
}

func (d DetailsChange) validate() error {
	bad := map[string]string{}
	if d.Email != nil {
		e := strings.TrimSpace(*d.Email)
		if e != "" {
			a, err := mail.ParseAddress(e)
			if err != nil || a.Address != e || len(e) > domain.MaxEmailLength {
				bad["email"] = "must be a valid email address"
			}
		}
	}
	if d.ShippingMethod != nil && utf8.RuneCountInString(*d.ShippingMethod) > domain.MaxShippingMethodChars {
		bad["shipping_method"] = "must be at most 100 characters"
	}
	if d.Notes != nil && utf8.RuneCountInString(*d.Notes) > domain.MaxNotesChars {
		bad["notes"] = "must be at most 5000 characters"
	}
	if len(bad) > 0 {
		return apperr.Validation(bad)
	}
	return nil
}

// UpdateDetails sets email, shipping_method and notes and publishes cart.updated.
func (s *Service) UpdateDetails(ctx context.Context, id string, who Caller, d DetailsChange) (*domain.Cart, error) {
	if err := d.validate(); err != nil {
		return nil, err
	}
	var out *domain.Cart
	err := s.tx.InTx(ctx, func(ctx context.Context) error {
		c, err := s.change(ctx, id, who, func(_ context.Context, c *domain.Cart) error {
			if d.Email != nil {
				c.Email = strings.ToLower(strings.TrimSpace(*d.Email))
			}
			if d.ShippingMethod != nil {
				c.SetShippingMethod(strings.TrimSpace(*d.ShippingMethod))
			}
			if d.Notes != nil {
				c.Notes = *d.Notes
			}
			return nil
		})
		if err != nil {
			return err
		}
		out = c
		return s.events.Publish(ctx, api.EventCartUpdated, string(c.ID), ToResource(c))
	})
	return out, err
}

// Delete removes an active cart and its items.
func (s *Service) Delete(ctx context.Context, id string, who Caller) error {
	return s.tx.InTx(ctx, func(ctx context.Context) error {
		if !ids.Valid(id) {
			return domain.ErrCartNotFound
		}
		c, err := s.repo.Update(ctx, domain.CartID(strings.ToLower(id)), func(_ context.Context, c *domain.Cart) error {
			if !allowed(c, who, true) {
				return domain.ErrCartNotFound
			}
			return c.CheckActive(s.now())
		})
		if err != nil {
			return err
		}
		return s.repo.Delete(ctx, c.ID)
	})
}

// Totals is the totals of a cart shipped to an address.
type Totals struct {
	Cart              *domain.Cart
	ShippingAddressID string
	Tax               ports.TaxResult
}

// CalculatedTotal is subtotal - discount_total + tax_total + shipping_total (the tax
// is not added again when the prices include it).
func (t Totals) CalculatedTotal() decimal.Decimal {
	if t.Tax.Included {
		return t.Cart.Total()
	}
	return t.Cart.Total().Add(t.Tax.Total)
}

// Totals computes a cart's totals with the tax of the shipping address (through the
// tax port: the tax module, no tax without an address, docs/decisions/0137). The
// address must be one of the cart customer's saved addresses: anyone else's, an unknown
// one or any address on a guest cart is ADDRESS_NOT_FOUND, before tax reads anything
// (docs/decisions/0101).
func (s *Service) Totals(ctx context.Context, id string, who Caller, shippingAddressID string) (Totals, error) {
	addr := strings.ToLower(strings.TrimSpace(shippingAddressID))
	if addr != "" && !ids.Valid(addr) {
		return Totals{}, apperr.Validation(map[string]string{"shipping_address_id": "must be a UUID"})
	}
	c, err := s.load(ctx, id, who)
	if err != nil {
		return Totals{}, err
	}
	shipTo, err := s.shippingAddress(ctx, c, addr)
	if err != nil {
		return Totals{}, err
	}
	lines := make([]ports.TaxLine, len(c.Items))
	for i, it := range c.Items {
		lines[i] = ports.TaxLine{ItemID: it.ID, ProductID: it.ProductID, VariantID: it.VariantID, Quantity: it.Quantity, Amount: it.Total(), RequiresShipping: it.RequiresShipping}
	}
	tax, err := s.tax.Calculate(ctx, ports.TaxQuery{
		CartID: c.ID, Currency: c.Currency, CustomerID: c.CustomerID, ShippingAddressID: addr, ShippingAddress: shipTo, Lines: lines, ShippingTotal: c.ShippingTotal,
	})
	if err != nil {
		return Totals{}, err
	}
	return Totals{Cart: c, ShippingAddressID: addr, Tax: tax}, nil
}

// shippingAddress reads the cart customer's saved address addr (nil when addr is ""),
// refusing one that is not theirs (a guest cart has none; without an Addresses
// collaborator none is).
func (s *Service) shippingAddress(ctx context.Context, c *domain.Cart, addr string) (*ports.Address, error) {
	if addr == "" {
		return nil, nil
	}
	if c.CustomerID == "" || s.addrs == nil {
		return nil, domain.ErrAddressNotFound
	}
	a, err := s.addrs.CustomerAddress(ctx, c.CustomerID, addr)
	if err != nil {
		return nil, err
	}
	if a == nil {
		return nil, domain.ErrAddressNotFound
	}
	return a, nil
}
