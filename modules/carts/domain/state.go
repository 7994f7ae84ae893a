package domain

import (
	"strings"
	"time"
)

// MaxCouponCodeLength bounds coupon codes before they reach the coupons module.
const MaxCouponCodeLength = 50

// MarkConverted turns an active cart into converted for an order (checkout). Asking
// again for the order it was converted for is a no-op that reports again; any other
// cart that is not active answers CART_EXPIRED or CART_CONVERTED.
func (c *Cart) MarkConverted(orderID string, now time.Time) (again bool, err error) {
	if c.Status == StatusConverted && c.ConvertedOrderID == orderID && orderID != "" {
		return true, nil
	}
	if err := c.CheckActive(now); err != nil {
		return false, err
	}
	c.Status, c.ConvertedOrderID, c.UpdatedAt = StatusConverted, orderID, now
	return false, nil
}

// Expire marks an active cart past its expiry expired (what the periodic sweep does
// in SQL); it reports whether it did. A cart still active, or already expired or
// converted, is left as it is.
func (c *Cart) Expire(now time.Time) bool {
	if c.Status != StatusActive || c.EffectiveStatus(now) != StatusExpired {
		return false
	}
	c.Status, c.UpdatedAt = StatusExpired, now
	return true
}

// MergeInto ends an active guest cart merged into the target cart: it becomes
// converted (later changes answer CART_CONVERTED) and remembers the target. A cart
// that is not active answers CART_EXPIRED or CART_CONVERTED.
func (c *Cart) MergeInto(target CartID, now time.Time) error {
	if err := c.CheckActive(now); err != nil {
		return err
	}
	c.Status, c.MergedIntoID, c.UpdatedAt = StatusConverted, target, now
	return nil
}

// Absorb takes in a guest cart merged into c: a cart without items adopts the guest's
// currency (CURRENCY_MISMATCH when c has items in another one), the guest's items are
// merged (MergeFrom), and email and shipping method are taken from the guest when c
// has none. Coupons and prices are the caller's (they need the coupons module).
func (c *Cart) Absorb(g *Cart, newID func() ItemID, now time.Time) error {
	if c.Currency != g.Currency {
		if len(c.Items) > 0 {
			return ErrCurrencyMismatch.WithMessage("The guest cart is in %s; the customer's cart is in %s", g.Currency, c.Currency)
		}
		c.Currency = g.Currency
	}
	c.MergeFrom(g, newID, now)
	if c.Email == "" {
		c.Email = g.Email
	}
	if c.ShippingMethod == "" {
		c.ChooseShippingRate(g.ShippingMethod, g.ShippingBeforeDiscount)
	}
	return nil
}

// CheckCouponCode trims a coupon code and refuses an empty or overlong one
// (COUPON_INVALID).
func CheckCouponCode(code string) (string, error) {
	code = strings.TrimSpace(code)
	if code == "" || len(code) > MaxCouponCodeLength {
		return "", ErrCouponInvalid
	}
	return code, nil
}

// AddCoupon puts a coupon on the cart, after the ones already there. Its code must be
// valid (COUPON_INVALID) and not on the cart yet, whatever its case
// (COUPON_ALREADY_APPLIED). Whether the coupon applies is decided when the cart is
// re-priced.
func (c *Cart) AddCoupon(cp AppliedCoupon) error {
	code, err := CheckCouponCode(cp.Code)
	if err != nil {
		return err
	}
	if c.HasCoupon(code) {
		return ErrCouponAlreadyApplied
	}
	cp.Code = code
	c.Coupons = append(c.Coupons, cp)
	return nil
}
