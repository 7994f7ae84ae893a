package app

import (
	"context"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/carts/api"
	"github.com/gocommerce/commerce/modules/carts/domain"
	"github.com/gocommerce/commerce/platform/ids"
)

// toAPICart maps a cart for other modules.
func (s *Service) toAPICart(c *domain.Cart) api.Cart {
	out := api.Cart{
		ID: string(c.ID), CustomerID: c.CustomerID, Status: string(c.EffectiveStatus(s.now())), Currency: c.Currency,
		Email: c.Email, ShippingMethod: c.ShippingMethod, Notes: c.Notes, Subtotal: c.Subtotal, DiscountTotal: c.DiscountTotal,
		ShippingTotal: c.ShippingTotal, ShippingBeforeDiscount: c.ShippingBeforeDiscount, TaxTotal: decimal.Zero,
		Total: c.Total(), CouponCodes: c.CouponCodes(), ItemCount: c.ItemCount, Items: make([]api.Item, len(c.Items)),
		ConvertedOrderID: c.ConvertedOrderID, ExpiresAt: c.ExpiresAt, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt,
	}
	for i, it := range c.Items {
		out.Items[i] = api.Item{
			ID: string(it.ID), ProductID: it.ProductID, VariantID: it.VariantID, Quantity: it.Quantity, UnitPrice: it.UnitPrice,
			OriginalPrice: it.OriginalPrice, Subtotal: it.Subtotal(), DiscountAmount: it.DiscountAmount, Total: it.Total(),
			SKU: it.SKU, Title: it.Title, VariantTitle: it.VariantTitle, ImageURL: it.ImageURL, RequiresShipping: it.RequiresShipping,
			IsGiftCard: it.IsGiftCard, CustomAttributes: it.CustomAttributes,
		}
	}
	return out
}

// GetCart returns a cart whatever its status (api.Carts, for checkout).
func (s *Service) GetCart(ctx context.Context, cartID string) (api.Cart, error) {
	if !ids.Valid(cartID) {
		return api.Cart{}, domain.ErrCartNotFound
	}
	c, err := s.repo.Get(ctx, domain.CartID(strings.ToLower(cartID)))
	if err != nil {
		return api.Cart{}, err
	}
	return s.toAPICart(c), nil
}

// MarkConverted turns an active cart into converted for an order and publishes
// cart.converted (api.Carts). Repeating it for the same order is a no-op.
func (s *Service) MarkConverted(ctx context.Context, cartID, orderID string) error {
	if !ids.Valid(cartID) {
		return domain.ErrCartNotFound
	}
	orderID = strings.TrimSpace(orderID)
	id := domain.CartID(strings.ToLower(cartID))
	return s.tx.InTx(ctx, func(ctx context.Context) error {
		c, done, err := s.repo.Convert(ctx, id, orderID, s.now())
		if err != nil {
			return err
		}
		if !done { // not active (or converted already): the domain says what to answer
			again := false
			c, err = s.repo.Update(ctx, id, func(_ context.Context, c *domain.Cart) (err error) {
				again, err = c.MarkConverted(orderID, s.now())
				return err
			})
			if err != nil || again {
				return err
			}
		}
		return s.events.Publish(ctx, api.EventCartConverted, string(c.ID), api.CartConverted{CartResource: ToResource(c), OrderID: orderID})
	})
}

// ChooseShipping sets the cart's shipping to the rate checkout chose (api.Carts).
func (s *Service) ChooseShipping(ctx context.Context, a api.Access, method string, price decimal.Decimal) (api.Cart, error) {
	var out api.Cart
	err := s.tx.InTx(ctx, func(ctx context.Context) error {
		c, err := s.change(ctx, a.CartID, Caller{SessionToken: a.SessionToken, Principal: a.Principal}, func(_ context.Context, c *domain.Cart) error {
			c.ChooseShippingRate(method, price)
			return nil
		})
		if err != nil {
			return err
		}
		out = s.toAPICart(c)
		return s.events.Publish(ctx, api.EventCartUpdated, string(c.ID), ToResource(c))
	})
	return out, err
}

// CouponContext returns a cart the caller may read, for coupon validation (api.Carts).
func (s *Service) CouponContext(ctx context.Context, a api.Access) (api.CouponContext, error) {
	c, err := s.load(ctx, a.CartID, Caller{SessionToken: a.SessionToken, Principal: a.Principal})
	if err != nil {
		return api.CouponContext{}, err
	}
	q, err := s.couponQuery(ctx, c)
	if err != nil {
		return api.CouponContext{}, err
	}
	cols, err := q.Collections(ctx)
	if err != nil {
		return api.CouponContext{}, err
	}
	out := api.CouponContext{
		CartID: string(c.ID), Currency: c.Currency, CustomerID: c.CustomerID, Email: c.Email, Subtotal: c.Subtotal,
		ShippingTotal: c.ShippingBeforeDiscount, TaxTotal: decimal.Zero, CouponCodes: c.CouponCodes(),
		HasAutomaticDiscounts: q.HasAutomaticDiscounts, Lines: make([]api.CouponLine, len(q.Lines)),
	}
	for i, l := range q.Lines {
		out.Lines[i] = api.CouponLine{ID: string(l.ItemID), ProductID: l.ProductID, VariantID: l.VariantID, CollectionIDs: cols[l.ProductID], Quantity: l.Quantity, UnitPrice: l.UnitPrice}
	}
	return out, nil
}

// ExpireInactive marks carts without activity for the expiry period expired (the
// periodic sweep); reads already treat them as expired.
func (s *Service) ExpireInactive(ctx context.Context) (int64, error) {
	return s.repo.ExpireInactive(ctx, s.now())
}
