package http

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"strings"

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
	Quantity         *quantity         `json:"quantity"`
	CustomAttributes map[string]string `json:"custom_attributes"`
}

type updateItemRequest struct {
	Quantity         *quantity          `json:"quantity"`
	CustomAttributes *map[string]string `json:"custom_attributes"`
}

// quantity takes any JSON number, so that a quantity out of 1–9999 gets the spec's
// INVALID_QUANTITY from the domain whatever its form: 1e2 is 100, and a fraction or a
// number beyond int's range (99999999999999999999) is taken as 0, out of range. Other
// JSON types stay a type error ("must be an integer").
type quantity int

func (q *quantity) UnmarshalJSON(b []byte) error {
	s := strings.TrimSpace(string(b))
	if s == "" || (s[0] != '-' && (s[0] < '0' || s[0] > '9')) {
		return &json.UnmarshalTypeError{Value: "non-number", Type: reflect.TypeFor[int]()}
	}
	if n, err := strconv.Atoi(s); err == nil {
		*q = quantity(n)
		return nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1e9 {
		*q = 0
		return nil
	}
	*q = quantity(f)
	return nil
}

// intPtr is q as an *int (nil when absent).
func (q *quantity) intPtr() *int {
	if q == nil {
		return nil
	}
	n := int(*q)
	return &n
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
