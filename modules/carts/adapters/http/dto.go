package http

import (
	"github.com/gocommerce/commerce/modules/carts/api"
	"github.com/gocommerce/commerce/modules/carts/app"
	"github.com/gocommerce/commerce/modules/carts/domain"
)

type createGuestRequest struct {
	Currency string `json:"currency"`
}

// guestCartResponse is a new guest cart: the only response carrying session_token.
type guestCartResponse struct {
	api.CartResource
	SessionToken string `json:"session_token"`
}

type addItemRequest struct {
	ProductID        string            `json:"product_id" binding:"required"`
	VariantID        string            `json:"variant_id"`
	Quantity         *int              `json:"quantity"`
	CustomAttributes map[string]string `json:"custom_attributes"`
}

type updateItemRequest struct {
	Quantity         *int               `json:"quantity"`
	CustomAttributes *map[string]string `json:"custom_attributes"`
}

type updateCartRequest struct {
	Email          *string `json:"email"`
	ShippingMethod *string `json:"shipping_method"`
	Notes          *string `json:"notes"`
}

type couponRequest struct {
	CouponCode string `json:"coupon_code" binding:"required"`
}

type mergeRequest struct {
	SessionToken string `json:"session_token" binding:"required"`
}

type taxLine struct {
	Jurisdiction string `json:"jurisdiction"`
	Rate         string `json:"rate"`
	Amount       string `json:"amount"`
}

type totalsResponse struct {
	CartID            string    `json:"cart_id"`
	Currency          string    `json:"currency"`
	ItemCount         int       `json:"item_count"`
	Subtotal          string    `json:"subtotal"`
	DiscountTotal     string    `json:"discount_total"`
	ShippingTotal     string    `json:"shipping_total"`
	TaxTotal          string    `json:"tax_total"`
	TaxBreakdown      []taxLine `json:"tax_breakdown"`
	Total             string    `json:"total"`
	CalculatedTotal   string    `json:"calculated_total"`
	ShippingAddressID *string   `json:"shipping_address_id"`
}

func toTotals(t app.Totals) totalsResponse {
	c := t.Cart
	cur := c.Currency
	calc := domain.Format(t.CalculatedTotal(), cur)
	out := totalsResponse{
		CartID: string(c.ID), Currency: cur, ItemCount: c.ItemCount, Subtotal: domain.Format(c.Subtotal, cur),
		DiscountTotal: domain.Format(c.DiscountTotal, cur), ShippingTotal: domain.Format(c.ShippingTotal, cur),
		TaxTotal: domain.Format(t.Tax.Total, cur), TaxBreakdown: make([]taxLine, len(t.Tax.Breakdown)),
		Total: calc, CalculatedTotal: calc,
	}
	for i, j := range t.Tax.Breakdown {
		out.TaxBreakdown[i] = taxLine{Jurisdiction: j.Jurisdiction, Rate: j.Rate.String(), Amount: domain.Format(j.Amount, cur)}
	}
	if t.ShippingAddressID != "" {
		id := t.ShippingAddressID
		out.ShippingAddressID = &id
	}
	return out
}
