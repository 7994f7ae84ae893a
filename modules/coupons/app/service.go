// Package app holds the coupons use cases: administration, evaluation against carts,
// validation, usage recording and statistics. One transaction per use case; events go
// to the outbox in that transaction.
package app

import (
	"context"
	"strings"
	"time"

	"github.com/gocommerce/commerce/modules/coupons/api"
	"github.com/gocommerce/commerce/modules/coupons/domain"
	"github.com/gocommerce/commerce/modules/coupons/ports"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/tx"
)

// Settings is the coupons module's configuration.
type Settings struct {
	// Rules are the stacking rules (coupons.allow_free_shipping_stacking).
	Rules domain.Rules
}

// SettingsFrom takes the module's slice of the configuration.
func SettingsFrom(cfg *config.Config) Settings {
	return Settings{Rules: domain.Rules{AllowFreeShippingStacking: cfg.Coupons.AllowFreeShippingStacking}}
}

// Stores groups the module's repositories.
type Stores struct {
	Coupons ports.CouponRepository
	Usage   ports.UsageRepository
}

// Collaborators groups the other modules' capabilities the service needs (carts is
// read only by the Validator, so the carts module may depend on api.Coupons).
type Collaborators struct {
	Customers ports.Customers
}

// Service implements the coupons use cases and api.Coupons.
type Service struct {
	settings  Settings
	tx        tx.Manager
	coupons   ports.CouponRepository
	usage     ports.UsageRepository
	customers ports.Customers
	events    event.Publisher
	clock     clock.Clock
}

var _ api.Coupons = (*Service)(nil)

// NewService builds the service.
func NewService(s Settings, t tx.Manager, st Stores, c Collaborators, pub event.Publisher, clk clock.Clock) *Service {
	return &Service{settings: s, tx: t, coupons: st.Coupons, usage: st.Usage, customers: c.Customers, events: pub, clock: clk}
}

func (s *Service) now() time.Time { return s.clock.Now().UTC() }

// newID returns a coupon id.
func newID() domain.CouponID { return domain.CouponID(ids.New()) }

// ToResource maps a coupon to its API resource (the admin view, and event data).
func ToResource(c *domain.Coupon) api.CouponResource {
	r := api.CouponResource{
		ID: string(c.ID), Code: c.Code, Type: string(c.Type), Value: domain.FormatAmount(c.Value),
		Description: c.Description, MinimumOrderAmount: domain.FormatAmount(c.MinimumOrderAmount),
		StartsAt: c.StartsAt.UTC(), UsageLimit: c.UsageLimit, UsageLimitPerCustomer: c.UsageLimitPerCustomer,
		UsageCount: c.UsageCount, IsActive: c.IsActive,
		AppliesTo: api.AppliesTo{
			ProductIDs: nonNil(c.AppliesTo.ProductIDs), CollectionIDs: nonNil(c.AppliesTo.CollectionIDs),
			ExcludeProductIDs: nonNil(c.AppliesTo.ExcludeProductIDs),
		},
		CustomerEligibility: api.CustomerEligibility{
			NewCustomersOnly: c.CustomerEligibility.NewCustomersOnly,
			CustomerIDs:      nonNil(c.CustomerEligibility.CustomerIDs), CustomerSegments: nonNil(c.CustomerEligibility.CustomerSegments),
		},
		CreatedAt: c.CreatedAt.UTC(), UpdatedAt: c.UpdatedAt.UTC(),
	}
	if c.MaximumDiscountAmount != nil {
		v := domain.FormatAmount(*c.MaximumDiscountAmount)
		r.MaximumDiscountAmount = &v
	}
	if c.ExpiresAt != nil {
		t := c.ExpiresAt.UTC()
		r.ExpiresAt = &t
	}
	if b := c.BuyXGetY; b != nil {
		r.BuyXGetY = &api.BuyXGetY{
			BuyQuantity: b.BuyQuantity, GetQuantity: b.GetQuantity, BuyProductIDs: nonNil(b.BuyProductIDs),
			GetProductIDs: nonNil(b.GetProductIDs), GetDiscountType: b.GetDiscountType, GetDiscountValue: domain.FormatAmount(b.GetDiscountValue),
		}
	}
	return r
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func upper(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }

// NotifyApplied publishes coupon.applied.
func (s *Service) NotifyApplied(ctx context.Context, c api.CartCoupon) error {
	return s.notify(ctx, api.EventCouponApplied, c)
}

// NotifyRemoved publishes coupon.removed.
func (s *Service) NotifyRemoved(ctx context.Context, c api.CartCoupon) error {
	return s.notify(ctx, api.EventCouponRemoved, c)
}

func (s *Service) notify(ctx context.Context, eventType string, c api.CartCoupon) error {
	data := api.CouponApplication{
		Code: c.Code, CartID: c.CartID, DiscountAmount: domain.Format(c.DiscountAmount, c.Currency),
		Currency: c.Currency, OccurredAt: s.now(),
	}
	if c.CustomerID != "" {
		id := c.CustomerID
		data.CustomerID = &id
	}
	if c.CouponID != "" && c.Type != "" { // just evaluated in this transaction
		data.CouponID, data.Type = c.CouponID, c.Type
	} else {
		coupon, err := s.coupons.GetByCode(ctx, c.Code)
		switch {
		case err == nil:
			data.CouponID, data.Code, data.Type = string(coupon.ID), coupon.Code, string(coupon.Type)
		case !isNotFound(err):
			return err
		}
	}
	aggregate := data.CouponID
	if aggregate == "" {
		aggregate = c.CartID
	}
	return s.events.Publish(ctx, eventType, aggregate, data)
}
