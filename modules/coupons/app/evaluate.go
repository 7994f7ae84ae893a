package app

import (
	"context"
	"errors"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/coupons/api"
	"github.com/gocommerce/commerce/modules/coupons/domain"
	"github.com/gocommerce/commerce/modules/coupons/ports"
	"github.com/gocommerce/commerce/platform/apperr"
)

// evaluation is the outcome of one coupon against one cart.
type evaluation struct {
	coupon   *domain.Coupon // nil when not found
	discount domain.Discount
	err      *apperr.Error // the coupon problem, nil when valid
}

// subject is the cart a coupon is evaluated against, with its customer.
type subject struct {
	cart       domain.Cart
	customerID string
	email      string
	applied    []string
	// collections, when set, reads the collections of the lines' products; the
	// lines' CollectionIDs are used otherwise.
	collections func(ctx context.Context) (map[string][]string, error)
}

// lines returns the cart's lines, with their collections filled in when the coupon's
// rules read them and the subject can read them.
func (sub subject) lines(ctx context.Context, c *domain.Coupon) ([]domain.Line, error) {
	if sub.collections == nil || !c.Needs().Collections {
		return sub.cart.Lines, nil
	}
	cols, err := sub.collections(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]domain.Line, len(sub.cart.Lines))
	for i, l := range sub.cart.Lines {
		l.CollectionIDs = cols[l.ProductID]
		out[i] = l
	}
	return out, nil
}

// evaluate loads the coupon and the facts its rules need, then lets the domain decide.
// Coupon problems are in the result; the error is for failures only.
func (s *Service) evaluate(ctx context.Context, code string, sub subject) (evaluation, error) {
	c, err := s.coupons.GetByCode(ctx, code)
	if err != nil {
		if isNotFound(err) {
			return evaluation{err: domain.ErrCouponNotFound}, nil
		}
		return evaluation{}, err
	}
	cart := sub.cart
	cart.Applied, err = s.appliedCoupons(ctx, sub.applied)
	if err != nil {
		return evaluation{}, err
	}
	// The same code on the cart is reported before anything else, even when the
	// coupon is no longer valid.
	for _, a := range sub.applied {
		if domain.CodeKey(a) == domain.CodeKey(c.Code) {
			return evaluation{coupon: c, err: domain.ErrAlreadyApplied}, nil
		}
	}
	cust, err := s.customerFacts(ctx, c, sub.customerID, sub.email)
	if err != nil {
		return evaluation{}, err
	}
	if cart.Lines, err = sub.lines(ctx, c); err != nil {
		return evaluation{}, err
	}
	d, err := c.Evaluate(s.now(), cart, cust, s.settings.Rules)
	if err != nil {
		var ae *apperr.Error
		if errors.As(err, &ae) {
			return evaluation{coupon: c, err: ae}, nil
		}
		return evaluation{}, err
	}
	return evaluation{coupon: c, discount: d}, nil
}

// appliedCoupons resolves the types of the coupons already on the cart; codes that no
// longer exist give no discount and are ignored.
func (s *Service) appliedCoupons(ctx context.Context, codes []string) ([]domain.AppliedCoupon, error) {
	if len(codes) == 0 {
		return nil, nil
	}
	found, err := s.coupons.GetByCodes(ctx, codes)
	if err != nil {
		return nil, err
	}
	out := make([]domain.AppliedCoupon, 0, len(found))
	for _, c := range found {
		out = append(out, domain.AppliedCoupon{Code: c.Code, Type: c.Type})
	}
	return out, nil
}

// customerFacts fills only the facts the coupon's rules read.
func (s *Service) customerFacts(ctx context.Context, c *domain.Coupon, customerID, email string) (domain.Customer, error) {
	cust := domain.Customer{ID: strings.ToLower(customerID)}
	needs := c.Needs()
	var err error
	if needs.NewCustomer {
		if cust.IsNew, err = s.customers.IsNewCustomer(ctx, customerID, email); err != nil {
			return cust, err
		}
	}
	if needs.Segments && customerID != "" {
		cust.Segments = map[string]bool{}
		for _, seg := range c.CustomerEligibility.CustomerSegments {
			in, err := s.customers.InSegment(ctx, seg, customerID)
			if err != nil {
				return cust, err
			}
			cust.Segments[strings.ToLower(seg)] = in
			if in {
				break
			}
		}
	}
	if needs.Uses && customerID != "" {
		if cust.Uses, err = s.usage.CountForCustomer(ctx, c.ID, customerID); err != nil {
			return cust, err
		}
	}
	return cust, nil
}

// Evaluate checks a code against a cart for the carts module (api.Coupons).
func (s *Service) Evaluate(ctx context.Context, cmd api.EvaluateCommand) (api.Evaluation, error) {
	lines := make([]domain.Line, len(cmd.Lines))
	for i, l := range cmd.Lines {
		lines[i] = domain.Line{ID: l.ID, ProductID: l.ProductID, VariantID: l.VariantID, CollectionIDs: l.CollectionIDs, Quantity: l.Quantity, UnitPrice: l.UnitPrice}
	}
	sub := subject{
		cart: domain.Cart{
			Currency: upper(cmd.Currency), Lines: lines, Subtotal: cmd.Subtotal, ShippingTotal: cmd.ShippingTotal,
			HasAutomaticDiscounts: cmd.HasAutomaticDiscounts,
		},
		customerID: cmd.CustomerID, email: cmd.Email, applied: cmd.AppliedCodes, collections: cmd.Collections,
	}
	ev, err := s.evaluate(ctx, cmd.Code, sub)
	if err != nil {
		return api.Evaluation{}, err
	}
	out := api.Evaluation{Valid: ev.err == nil, LineDiscounts: map[string]decimal.Decimal{}, ShippingDiscount: decimal.Zero, DiscountAmount: decimal.Zero}
	if c := ev.coupon; c != nil {
		out.Coupon = api.CouponSummary{ID: string(c.ID), Code: c.Code, Type: string(c.Type), Value: c.Value, Description: c.Description}
	}
	if ev.err != nil {
		out.ErrorCode, out.ErrorMessage = ev.err.Code, ev.err.Message
		return out, nil
	}
	for id, v := range ev.discount.Lines {
		out.LineDiscounts[id] = v
	}
	out.ShippingDiscount, out.DiscountAmount = ev.discount.Shipping, ev.discount.Amount
	return out, nil
}

// ValidateQuery asks whether a code applies to a cart the caller may read.
type ValidateQuery struct {
	Code   string
	Access ports.CartAccess
}

// Validation is the validate endpoint's answer (Part 1's literal body).
type Validation struct {
	Valid    bool
	Coupon   *domain.Coupon
	Error    *apperr.Error
	Currency string
	Subtotal decimal.Decimal
	Discount decimal.Decimal
	NewTotal decimal.Decimal
}

// Validator is the validate use case: it reads carts (through ports.Carts) and
// evaluates with the Service. It is separate from the Service so that the carts
// module, which needs api.Coupons, and this use case, which needs carts, do not form
// a dependency cycle.
type Validator struct {
	svc   *Service
	carts ports.Carts
}

// NewValidator builds the validate use case.
func NewValidator(s *Service, c ports.Carts) *Validator { return &Validator{svc: s, carts: c} }

// Validate evaluates a code against a cart exactly as applying it would (the same
// restrictions and stacking rules), without changing the cart. Cart problems
// (CART_NOT_FOUND, ...) are errors; coupon problems are an invalid Validation.
// new_total is the cart's total without coupons minus this coupon's discount.
func (v *Validator) Validate(ctx context.Context, q ValidateQuery) (Validation, error) {
	s := v.svc
	cart, err := v.carts.Cart(ctx, q.Access)
	if err != nil {
		return Validation{}, err
	}
	sub := subject{
		cart: domain.Cart{
			Currency: cart.Currency, Lines: cart.Lines, Subtotal: cart.Subtotal, ShippingTotal: cart.ShippingTotal,
			HasAutomaticDiscounts: cart.HasAutomaticDiscounts,
		},
		customerID: cart.CustomerID, email: cart.Email, applied: cart.CouponCodes,
	}
	ev, err := s.evaluate(ctx, q.Code, sub)
	if err != nil {
		return Validation{}, err
	}
	if ev.err != nil {
		return Validation{Error: ev.err, Currency: cart.Currency}, nil
	}
	base := cart.Subtotal.Add(cart.ShippingTotal).Add(cart.TaxTotal)
	return Validation{
		Valid: true, Coupon: ev.coupon, Currency: cart.Currency, Subtotal: cart.Subtotal,
		Discount: ev.discount.Amount, NewTotal: base.Sub(ev.discount.Amount),
	}, nil
}
