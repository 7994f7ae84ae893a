// Package cartsapi implements checkout's ports.Carts on the carts module's api.
package cartsapi

import (
	"context"

	"github.com/shopspring/decimal"

	carts "github.com/gocommerce/commerce/modules/carts/api"
	"github.com/gocommerce/commerce/modules/checkout/ports"
)

// Adapter is ports.Carts over carts.Carts.
type Adapter struct{ carts carts.Carts }

var _ ports.Carts = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(c carts.Carts) *Adapter { return &Adapter{carts: c} }

func access(a ports.CartAccess) carts.Access {
	return carts.Access{CartID: a.CartID, SessionToken: a.SessionToken, Principal: a.Principal}
}

// Read returns the cart when the caller may read it.
func (a *Adapter) Read(ctx context.Context, acc ports.CartAccess) (ports.Cart, error) {
	c, err := a.carts.ReadCart(ctx, access(acc))
	if err != nil {
		return ports.Cart{}, err
	}
	out := ports.Cart{ID: c.ID, CustomerID: c.CustomerID, Email: c.Email, Currency: c.Currency, Status: c.Status,
		ConvertedOrderID: c.ConvertedOrderID, CouponCodes: c.CouponCodes, Lines: make([]ports.CartLine, len(c.Items))}
	for i, it := range c.Items {
		out.Lines[i] = ports.CartLine{ID: it.ID, ProductID: it.ProductID, VariantID: it.VariantID, Title: it.Title, VariantTitle: it.VariantTitle,
			SKU: it.SKU, Quantity: it.Quantity, UnitPrice: it.UnitPrice, RequiresShipping: it.RequiresShipping}
	}
	return out, nil
}

// CouponCart returns the cart as coupon evaluation needs it.
func (a *Adapter) CouponCart(ctx context.Context, acc ports.CartAccess) (ports.CouponCart, error) {
	c, err := a.carts.CouponContext(ctx, access(acc))
	if err != nil {
		return ports.CouponCart{}, err
	}
	out := ports.CouponCart{CartID: c.CartID, Currency: c.Currency, CustomerID: c.CustomerID, Email: c.Email, Subtotal: c.Subtotal,
		CouponCodes: c.CouponCodes, HasAutomaticDiscounts: c.HasAutomaticDiscounts, Lines: make([]ports.CouponLine, len(c.Lines))}
	for i, l := range c.Lines {
		out.Lines[i] = ports.CouponLine{ID: l.ID, ProductID: l.ProductID, VariantID: l.VariantID, CollectionIDs: l.CollectionIDs, Quantity: l.Quantity, UnitPrice: l.UnitPrice}
	}
	return out, nil
}

// MarkConverted converts the cart for the order.
func (a *Adapter) MarkConverted(ctx context.Context, cartID, orderID string) error {
	return a.carts.MarkConverted(ctx, cartID, orderID)
}

// ChooseShipping sets the cart's shipping method to the chosen rate.
func (a *Adapter) ChooseShipping(ctx context.Context, acc ports.CartAccess, method string, price decimal.Decimal) error {
	_, err := a.carts.ChooseShipping(ctx, access(acc), method, price)
	return err
}
