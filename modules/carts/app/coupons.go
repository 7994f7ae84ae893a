package app

import (
	"context"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/carts/api"
	"github.com/gocommerce/commerce/modules/carts/domain"
	"github.com/gocommerce/commerce/modules/carts/ports"
)

// ApplyCoupon applies a coupon to a cart (CONTRACT.md §7): the same code again is
// COUPON_ALREADY_APPLIED (409); an unknown, inactive, not yet valid or expired code
// COUPON_INVALID (400); a coupon that cannot join the cart's discounts
// COUPON_CANNOT_COMBINE (409); other failed conditions their coupon code (400). It
// publishes cart.coupon_applied and coupon.applied.
func (s *Service) ApplyCoupon(ctx context.Context, id string, who Caller, code string) (*domain.Cart, error) {
	code, err := domain.CheckCouponCode(code)
	if err != nil {
		return nil, err
	}
	var (
		out     *domain.Cart
		applied domain.AppliedCoupon
	)
	err = s.tx.InTx(ctx, func(ctx context.Context) error {
		// The code joins the cart's coupons and is evaluated with them when the cart
		// is re-priced (once per coupon); the change is kept only if it is valid.
		c, err := s.changeChecked(ctx, id, who, func(_ context.Context, c *domain.Cart) error {
			return c.AddCoupon(domain.AppliedCoupon{Code: code})
		}, func(c *domain.Cart, results []ports.CouponResult) error {
			last := len(c.Coupons) - 1
			res := results[last]
			if !res.Valid {
				return domain.CouponError(res.ErrorCode, res.ErrorMessage)
			}
			if res.Code != "" { // as the coupon spells it
				c.Coupons[last].Code = res.Code
			}
			applied = c.Coupons[last]
			return nil
		})
		if err != nil {
			return err
		}
		out = c
		if err := s.events.Publish(ctx, api.EventCartCouponApplied, string(c.ID), ToResource(c)); err != nil {
			return err
		}
		n := notice(c, applied)
		n.CouponID, n.Type = applied.ID, applied.Type // evaluated just now: not read again
		return s.coupons.Applied(ctx, n)
	})
	return out, err
}

func notice(c *domain.Cart, cp domain.AppliedCoupon) ports.CouponNotice {
	amount := cp.Amount
	if !cp.Applicable {
		amount = decimal.Zero
	}
	return ports.CouponNotice{Code: cp.Code, CartID: c.ID, CustomerID: c.CustomerID, Amount: amount, Currency: c.Currency}
}

// RemoveCoupon removes the named coupon, or every coupon when code is "" (a cart
// without coupons is answered as it is). It publishes cart.coupon_removed and one
// coupon.removed per removed coupon.
func (s *Service) RemoveCoupon(ctx context.Context, id string, who Caller, code string) (*domain.Cart, error) {
	code = strings.TrimSpace(code)
	var out *domain.Cart
	err := s.tx.InTx(ctx, func(ctx context.Context) error {
		var removed []domain.AppliedCoupon
		c, err := s.change(ctx, id, who, func(_ context.Context, c *domain.Cart) error {
			removed = c.RemoveCoupons(code)
			return nil
		})
		if err != nil {
			return err
		}
		out = c
		if len(removed) == 0 {
			return nil
		}
		if err := s.events.Publish(ctx, api.EventCartCouponRemoved, string(c.ID), ToResource(c)); err != nil {
			return err
		}
		for _, cp := range removed {
			if err := s.coupons.Removed(ctx, notice(c, cp)); err != nil {
				return err
			}
		}
		return nil
	})
	return out, err
}
