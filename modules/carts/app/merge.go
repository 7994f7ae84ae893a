package app

import (
	"context"
	"strings"

	"github.com/gocommerce/commerce/modules/carts/api"
	"github.com/gocommerce/commerce/modules/carts/domain"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/auth"
)

// Merge moves a guest cart (named by its session token) into the customer's active
// cart, created when there is none (docs/decisions/0067): identical items have their
// quantities summed (capped at 9999), other items are copied; when both carts hold
// coupons the customer's are kept, otherwise the guest's coupons move over if they
// are valid for the merged cart. The guest cart becomes converted (later changes
// answer CART_CONVERTED). It publishes cart.merged (and cart.created for a new cart).
func (s *Service) Merge(ctx context.Context, p *auth.Principal, sessionToken string) (*domain.Cart, error) {
	customer, err := customerOf(p)
	if err != nil {
		return nil, err
	}
	token := strings.TrimSpace(sessionToken)
	if token == "" {
		return nil, apperr.Validation(map[string]string{"session_token": "is required"})
	}
	var out *domain.Cart
	err = s.tx.InTx(ctx, func(ctx context.Context) error {
		found, err := s.repo.FindBySessionHash(ctx, domain.HashSessionToken(token))
		if err != nil {
			return err
		}
		now := s.now()
		target, _, err := s.activeCart(ctx, customer, found.Currency)
		if err != nil {
			return err
		}
		guest, err := s.repo.Update(ctx, found.ID, func(_ context.Context, g *domain.Cart) error {
			return g.MergeInto(target.ID, now)
		})
		if err != nil {
			return err
		}
		merged, err := s.repo.Update(ctx, target.ID, func(ctx context.Context, c *domain.Cart) error {
			if err := c.Absorb(guest, newItemID, now); err != nil {
				return err
			}
			if _, err := s.reprice(ctx, c); err != nil {
				return err
			}
			if len(c.Coupons) == 0 && len(guest.Coupons) > 0 {
				if err := s.moveCoupons(ctx, c, guest.Coupons); err != nil {
					return err
				}
			}
			c.Touch(now, s.settings.TTL)
			return nil
		})
		if err != nil {
			return err
		}
		out = merged
		return s.events.Publish(ctx, api.EventCartMerged, string(merged.ID), api.CartMerged{CartResource: ToResource(merged), SourceCartID: string(guest.ID)})
	})
	return out, err
}

// moveCoupons applies the guest's coupons that are valid for the merged cart, in
// their order, then re-prices it.
func (s *Service) moveCoupons(ctx context.Context, c *domain.Cart, coupons []domain.AppliedCoupon) error {
	base, err := s.couponQuery(ctx, c)
	if err != nil {
		return err
	}
	for _, cp := range coupons {
		q := base
		q.Code, q.Applied = cp.Code, c.CouponCodes()
		res, err := s.coupons.Evaluate(ctx, q)
		if err != nil {
			return err
		}
		if res.Valid {
			// a code the cart refuses (already on it) is left behind like an invalid one
			_ = c.AddCoupon(domain.AppliedCoupon{Code: res.Code, ID: res.CouponID, Type: res.Type, Applicable: true, Amount: res.Amount})
		}
	}
	_, err = s.reprice(ctx, c)
	return err
}
