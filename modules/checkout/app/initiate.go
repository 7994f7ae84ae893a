package app

import (
	"context"
	"strings"

	"github.com/gocommerce/commerce/modules/checkout/domain"
	"github.com/gocommerce/commerce/modules/checkout/ports"
	"github.com/gocommerce/commerce/platform/apperr"
)

// InitiateInput starts (or restarts) the checkout of a cart.
type InitiateInput struct {
	Access          Access
	ShippingAddress *domain.Address
	BillingAddress  *domain.Address
	VATID           string
	Email           string
}

// Initiate prices the cart for the shipping address: tax (and the VAT id's reverse
// charge), the available shipping rates, the tax breakdown. A rate chosen before stays
// chosen while it is still offered.
func (s *Service) Initiate(ctx context.Context, in InitiateInput) (*domain.Session, error) {
	if err := checkAddress(in.ShippingAddress, "shipping_address", true); err != nil {
		return nil, err
	}
	if err := checkAddress(in.BillingAddress, "billing_address", false); err != nil {
		return nil, err
	}
	email, vat := strings.TrimSpace(in.Email), strings.TrimSpace(in.VATID)
	if len(email) > 255 || (email != "" && !strings.Contains(email, "@")) {
		return nil, apperr.Validation(map[string]string{"email": "must be an email address"})
	}
	if len(vat) > 32 {
		return nil, apperr.Validation(map[string]string{"vat_id": "must be at most 32 characters"})
	}
	c, sess, existed, err := s.openSession(ctx, in.Access)
	if err != nil {
		return nil, err
	}
	sess.ShippingAddress, sess.BillingAddress, sess.VATID = in.ShippingAddress, in.BillingAddress, vat
	if email != "" {
		sess.Email = email
	}
	if err := s.quote(ctx, c, sess); err != nil {
		return nil, err
	}
	if _, err := s.price(ctx, in.Access, c, sess); err != nil {
		return nil, err
	}
	return sess, s.store(ctx, sess, existed)
}

// ShippingInput chooses a shipping rate.
type ShippingInput struct {
	Access         Access
	ShippingRateID string
	ShippingMethod string
}

// ChooseShipping sets the session's shipping rate (by id, or by its method code) and
// adds its tax to the totals.
func (s *Service) ChooseShipping(ctx context.Context, in ShippingInput) (*domain.Session, error) {
	ref := strings.TrimSpace(in.ShippingRateID)
	if ref == "" {
		ref = strings.TrimSpace(in.ShippingMethod)
	}
	if ref == "" {
		return nil, apperr.Validation(map[string]string{"shipping_rate_id": "is required (or shipping_method)"})
	}
	c, sess, existed, err := s.openSession(ctx, in.Access)
	if err != nil {
		return nil, err
	}
	if !existed || sess.ShippingAddress == nil {
		return nil, domain.ErrShippingRequired
	}
	r, ok := sess.FindRate(ref)
	if !ok {
		return nil, domain.ErrShippingRateNotFound
	}
	sess.Rate = &r
	if _, err := s.price(ctx, in.Access, c, sess); err != nil {
		return nil, err
	}
	// The cart shows the chosen rate too (its shipping_total, and a free_shipping
	// coupon's discount of it: docs/decisions/0175), in the session's transaction.
	return sess, s.tx.InTx(ctx, func(ctx context.Context) error {
		if err := s.Carts.ChooseShipping(ctx, in.Access, r.Method(), r.Price); err != nil {
			return err
		}
		return s.store(ctx, sess, existed)
	})
}

// openSession reads the caller's active cart and its session, which must be open (a
// new one, not stored, when the cart has none).
func (s *Service) openSession(ctx context.Context, a Access) (ports.Cart, *domain.Session, bool, error) {
	c, err := s.activeCart(ctx, a)
	if err != nil {
		return c, nil, false, err
	}
	sess, existed, err := s.session(ctx, c)
	if err == nil {
		err = checkOpen(sess)
	}
	return c, sess, existed, err
}

func checkOpen(sess *domain.Session) error {
	switch sess.Status {
	case domain.StatusProcessing:
		return domain.ErrCheckoutBusy
	case domain.StatusAwaitingPayment:
		return domain.ErrCheckoutPending
	case domain.StatusCompleted:
		return errCartConverted
	case domain.StatusOpen:
	}
	return nil
}

// checkAddress checks the address fields checkout relies on.
func checkAddress(a *domain.Address, field string, required bool) error {
	if a == nil {
		if required {
			return apperr.Validation(map[string]string{field: "is required"})
		}
		return nil
	}
	a.CountryCode = strings.ToUpper(strings.TrimSpace(a.CountryCode))
	a.RegionCode = strings.ToUpper(strings.TrimSpace(a.RegionCode))
	bad := map[string]string{}
	if len(a.CountryCode) != 2 || strings.Trim(a.CountryCode, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
		bad[field+".country_code"] = "must be an ISO 3166-1 alpha-2 code"
	}
	for name, v := range map[string]string{"first_name": a.FirstName, "last_name": a.LastName, "company": a.Company, "phone": a.Phone,
		"address1": a.Address1, "address2": a.Address2, "city": a.City, "region_code": a.RegionCode, "postal_code": a.PostalCode} {
		if len(v) > 255 {
			bad[field+"."+name] = "must be at most 255 characters"
		}
	}
	if len(bad) > 0 {
		return apperr.Validation(bad)
	}
	return nil
}
