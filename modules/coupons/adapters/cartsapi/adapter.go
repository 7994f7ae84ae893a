// Package cartsapi implements the coupons module's ports.Carts on top of the carts
// module's api (the validate endpoint reads the cart through it).
package cartsapi

import (
	"context"

	carts "github.com/gocommerce/commerce/modules/carts/api"

	"github.com/gocommerce/commerce/modules/coupons/domain"
	"github.com/gocommerce/commerce/modules/coupons/ports"
)

// Adapter reads carts for coupon validation.
type Adapter struct {
	carts carts.Carts
}

var _ ports.Carts = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(c carts.Carts) *Adapter { return &Adapter{carts: c} }

// Cart returns the cart if the caller may read it; the carts module's errors pass
// through (they carry their own codes and statuses).
func (a *Adapter) Cart(ctx context.Context, acc ports.CartAccess) (ports.Cart, error) {
	c, err := a.carts.CouponContext(ctx, carts.Access{CartID: acc.CartID, SessionToken: acc.SessionToken, Principal: acc.Principal})
	if err != nil {
		return ports.Cart{}, err
	}
	lines := make([]domain.Line, len(c.Lines))
	for i, l := range c.Lines {
		lines[i] = domain.Line{ID: l.ID, ProductID: l.ProductID, VariantID: l.VariantID, CollectionIDs: l.CollectionIDs, Quantity: l.Quantity, UnitPrice: l.UnitPrice}
	}
	return ports.Cart{
		ID: c.CartID, Currency: c.Currency, CustomerID: c.CustomerID, Email: c.Email, Lines: lines,
		Subtotal: c.Subtotal, ShippingTotal: c.ShippingTotal, TaxTotal: c.TaxTotal, CouponCodes: c.CouponCodes,
		HasAutomaticDiscounts: c.HasAutomaticDiscounts,
	}, nil
}
